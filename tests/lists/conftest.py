import pytest
from django.contrib.auth import get_user_model

from handbooks.models import Handbook

from ..rules.conftest import test_books  # noqa: F401 - shared fixture


@pytest.fixture
def player(db):
    return get_user_model().objects.create_user("player", password="pw-not-secret-123")


@pytest.fixture
def germany(test_books):  # noqa: F811
    return Handbook.objects.get(code="tb-germany")
