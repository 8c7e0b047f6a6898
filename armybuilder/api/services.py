"""Writes the API owns itself: personal API tokens. (List writes live in armybuilder.lists.services.)"""
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .models import ApiToken, token_hash

MAX_EXPIRY_DAYS = 3650


@transaction.atomic
def api_token_rotate(*, user, expires_in_days: int | None = None) -> tuple[ApiToken, str]:
    """A new token for the user, and its key (the only time the key exists outside the client).

    Any old token stops working. The user's row is locked first, so rotations sent at the same moment
    run one after the other: each answers a key, and the last one made is the one that works.
    """
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    ApiToken.objects.filter(user=user).delete()
    key = secrets.token_urlsafe(30)
    expires_at = timezone.now() + timedelta(days=expires_in_days) if expires_in_days else None
    token = ApiToken.objects.create(user=user, key_hash=token_hash(key), prefix=key[:8], expires_at=expires_at)
    return token, key


def api_token_revoke(*, user) -> None:
    ApiToken.objects.filter(user=user).delete()
