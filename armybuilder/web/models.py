"""What a player chooses to show others: a display name on the lists they share (empty: nothing)."""
from django.conf import settings
from django.db import models


class PlayerProfile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_profile")
    display_name = models.CharField(max_length=60, blank=True,
                                    help_text="Shown on the lists you share. Leave empty to show no name.")

    def __str__(self):
        return self.display_name or f"(no display name: {self.user})"
