"""``Authorization: Token <key>``, checked against the stored hash and the token's expiry."""
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from .models import ApiToken, token_hash


class HashedTokenAuthentication(TokenAuthentication):
    model = ApiToken

    def authenticate_credentials(self, key):
        token = ApiToken.objects.select_related("user").filter(key_hash=token_hash(key)).first()
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if token.expires_at is not None and token.expires_at <= timezone.now():
            raise exceptions.AuthenticationFailed(
                f"The token expired on {token.expires_at:%Y-%m-%d %H:%M} UTC; make a new one.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return token.user, token
