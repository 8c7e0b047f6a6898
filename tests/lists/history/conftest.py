"""History and book-update tests use the builder's fixtures: the sample Flames of War books and a built list."""
from ...web.conftest import afrika, army, books, player  # noqa: F401 - fixtures
