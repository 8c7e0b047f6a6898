from django import template
from django.urls import NoReverseMatch, reverse

register = template.Library()


@register.simple_tag
def optional_url(name, *args):
    """The URL if that URL name exists in this installation, else an empty string (a slot another app fills)."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


@register.filter
def plural(count, word="pt"):
    """3|plural:"pt" -> "3 pts"; 1 -> "1 pt"."""
    try:
        n = int(count)
    except (TypeError, ValueError):
        return f"{count} {word}"
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"
