"""Personal API tokens, stored as hashes: the key is shown once, when it is made, and never again."""
import hashlib

from django.conf import settings
from django.db import models


def token_hash(key: str) -> str:
    # Keys are 240 random bits, so a plain SHA-256 is enough: there is nothing to guess or brute-force.
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class ApiToken(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token")
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8, help_text="The key's first characters, to tell tokens apart.")
    created = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True, help_text="Empty: the token does not expire.")

    def __str__(self):
        return f"{self.prefix}… ({self.user})"
