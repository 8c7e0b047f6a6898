"""Rate limits, counted in the default cache (Redis in production) so they hold across every process.

DRF's own throttles keep a list of timestamps per client and write it back
after reading it: two processes answering at once both read the old list and
one write is lost, so "60/min" lets more through under load. These count
instead with one atomic increment per request (``cache.incr``, INCR in Redis)
in a fixed window: at most N requests per client in each window of the rate's
length. Rates live in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] and are
read per request, so a changed setting (or a test's override) takes effect at once.
"""
import math
import time

from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle


class WindowThrottle(BaseThrottle):
    """At most N requests per ident in each fixed window; subclasses say the scope and who the ident is."""

    scope = ""

    def ident_for(self, request) -> str | None:
        """Who is counted (None: this throttle does not apply to the request)."""
        raise NotImplementedError

    def rate(self) -> tuple[int, int] | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        if rate is None:
            return None
        count, period = rate.split("/")
        seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]
        return int(count), seconds

    def allow_request(self, request, view) -> bool:
        rate, ident = self.rate(), self.ident_for(request)
        if rate is None or ident is None:
            return True
        limit, seconds = rate
        now = time.time()
        window = int(now // seconds)
        key = f"throttle:{self.scope}:{ident}:{window}"
        # add() creates the counter only if absent, with an expiry; incr() is atomic in every process.
        cache.add(key, 0, seconds + 5)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr: this request opens the counter again
            cache.add(key, 1, seconds + 5)
            count = 1
        self._wait = (window + 1) * seconds - now
        return count <= limit

    def wait(self) -> float | None:
        return max(1.0, math.ceil(getattr(self, "_wait", 1.0)))


class ScopedUserThrottle(WindowThrottle):
    """Per signed-in user (or per IP for anonymous requests), for one scope."""

    def ident_for(self, request):
        if request.user and request.user.is_authenticated:
            return f"user-{request.user.pk}"
        return f"ip-{self.get_ident(request)}"


class CheckAnonThrottle(WindowThrottle):
    scope = "check_anon"

    def ident_for(self, request):
        if request.user and request.user.is_authenticated:
            return None
        return f"ip-{self.get_ident(request)}"


class CheckUserThrottle(WindowThrottle):
    scope = "check_user"

    def ident_for(self, request):
        if not (request.user and request.user.is_authenticated):
            return None
        return f"user-{request.user.pk}"
