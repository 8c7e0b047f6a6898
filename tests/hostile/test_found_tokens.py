"""Regression tests: API tokens were stored in plain text with no expiry (issue 15)."""
import hashlib
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from armybuilder.api.models import ApiToken

TOKEN = "/api/v1/auth/token"


@pytest.fixture
def session(player):
    client = APIClient()
    client.force_login(player)
    return client


def _tool(key):
    tool = APIClient()
    tool.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return tool


@pytest.mark.django_db
def test_an_api_token_is_stored_only_as_its_hash_and_shown_once(session, player):
    key = session.post(TOKEN).json()["token"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM ab_api_apitoken")
        stored = " ".join(str(value) for row in cursor.fetchall() for value in row)
    assert key not in stored
    assert hashlib.sha256(key.encode()).hexdigest() in stored
    assert session.get(TOKEN).json()["token"] is None
    assert _tool(key).get("/api/v1/lists/").status_code == 200


@pytest.mark.django_db
def test_an_api_token_can_expire_and_then_says_so(session, player):
    body = session.post(TOKEN, {"expires_in_days": 30}, format="json").json()
    assert body["expires"] is not None
    key = body["token"]
    assert _tool(key).get("/api/v1/lists/").status_code == 200
    ApiToken.objects.filter(user=player).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = _tool(key).get("/api/v1/lists/")
    assert response.status_code == 401 and "expired" in response.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize("days", [0, 3651, "30", 1.5])
def test_an_expiry_out_of_range_is_a_400_and_makes_no_token(session, player, days):
    response = session.post(TOKEN, {"expires_in_days": days}, format="json")
    assert response.status_code == 400 and response.json()["problems"][0]["pointer"] == "/expires_in_days"
    assert not ApiToken.objects.filter(user=player).exists()


@pytest.mark.django_db
def test_old_plain_text_tokens_keep_working_after_the_migration_hashes_them(player):
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    old_state = executor.loader.project_state([("ab_api", "0001_api_tokens"),
                                               ("authtoken", "0004_alter_tokenproxy_options")])
    migration = executor.loader.get_migration("ab_api", "0002_hash_plain_tokens")
    from rest_framework.authtoken.models import Token

    Token.objects.create(user=player, key="0123456789abcdef0123456789abcdef01234567")
    migration.operations[0].code(old_state.apps, connection.schema_editor())
    assert not Token.objects.exists()
    assert _tool("0123456789abcdef0123456789abcdef01234567").get("/api/v1/lists/").status_code == 200
