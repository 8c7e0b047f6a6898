"""Writes the API owns itself: personal API tokens. (List writes live in armybuilder.lists.services.)"""
from django.db import transaction
from rest_framework.authtoken.models import Token


@transaction.atomic
def api_token_rotate(*, user) -> Token:
    """A new token for the user; any old one stops working."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def api_token_revoke(*, user) -> None:
    Token.objects.filter(user=user).delete()
