"""Rate limits. Rates live in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] and are read per request,
so a changed setting (or a test's override) takes effect at once. Counts are kept in the default cache:
with several worker processes and the local-memory cache each worker counts on its own; use a shared
cache (Redis, Memcached, the database cache) in production."""
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class _LiveRate:
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class ScopedUserThrottle(_LiveRate, SimpleRateThrottle):
    """Per signed-in user (or per IP for anonymous requests), for one scope."""

    def get_cache_key(self, request, view):
        ident = request.user.pk if request.user and request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class CheckAnonThrottle(_LiveRate, SimpleRateThrottle):
    scope = "check_anon"

    def get_cache_key(self, request, view):
        if request.user and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class CheckUserThrottle(_LiveRate, SimpleRateThrottle):
    scope = "check_user"

    def get_cache_key(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}
