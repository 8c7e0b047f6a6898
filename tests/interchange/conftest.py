from ..lists.conftest import germany, player  # noqa: F401
from ..rules.conftest import test_books  # noqa: F401
