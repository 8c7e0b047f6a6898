"""Fixed-window rate limits for the web pages that write (DRF throttles cover the API).

Counts live in Django's default cache: per process with the local-memory cache, shared by
every worker once the cache is Redis. Rates are settings (``RATE_LIMITS``), read per call,
as "<count>/<second|minute|hour|day>".
"""
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

_PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


@dataclass(frozen=True)
class Limited:
    """Over the limit: try again in ``retry_after`` seconds."""

    retry_after: int


def parse_rate(rate: str) -> tuple[int, int]:
    count, _, period = rate.partition("/")
    return int(count), _PERIODS[period.strip().rstrip("s")]


def client_ident(request) -> str:
    """The signed-in user, else the client's address (behind a proxy, REMOTE_ADDR is set by it)."""
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    return f"ip:{request.META.get('REMOTE_ADDR', '')}"


def rate_limit_hit(*, scope: str, ident: str) -> Limited | None:
    """Count one more action of ``scope`` for ``ident``; a ``Limited`` when that is over the rate."""
    rate = settings.RATE_LIMITS.get(scope)
    if not rate:
        return None
    limit, period = parse_rate(rate)
    now = time.time()
    window = int(now // period)
    key = f"ratelimit:{scope}:{ident}:{window}"
    if cache.add(key, 1, timeout=period + 1):
        count = 1
    else:
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=period + 1)
            count = 1
    if count > limit:
        return Limited(retry_after=max(1, int((window + 1) * period - now) + 1))
    return None
