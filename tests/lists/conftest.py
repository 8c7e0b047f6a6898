import pytest

from handbooks.models import Handbook
from tests.factories import UserFactory

from ..rules.conftest import test_books  # noqa: F401 - shared fixture


@pytest.fixture
def player(db):
    return UserFactory(username="player")


@pytest.fixture
def germany(test_books):  # noqa: F811
    return Handbook.objects.get(code="tb-germany")
