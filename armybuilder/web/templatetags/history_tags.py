"""Template filters of the builder's History panel."""
from django import template
from django.utils import timezone
from django.utils.timesince import timesince

register = template.Library()


@register.filter
def how_long_ago(moment) -> str:
    """ "just now" for the last minute, else Django's "3 minutes ago", "2 days, 1 hour ago"."""
    if moment is None:
        return ""
    if (timezone.now() - moment).total_seconds() < 60:
        return "just now"
    return f"{timesince(moment, depth=1)} ago"
