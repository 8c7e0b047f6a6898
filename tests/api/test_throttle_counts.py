"""Throttle counts are one atomic increment per request: parallel requests cannot slip past the limit."""
import threading
import time

from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIRequestFactory

from armybuilder.api.throttles import CheckAnonThrottle


def test_parallel_requests_from_one_client_get_exactly_the_limit(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                                          "check_anon": "60/minute"}}
    factory = APIRequestFactory()
    allowed, lock, start = [], threading.Lock(), threading.Barrier(8)

    def client():
        start.wait()
        for _ in range(20):
            request = factory.post("/api/v1/check", REMOTE_ADDR="10.0.0.7")
            request.user = AnonymousUser()
            ok = CheckAnonThrottle().allow_request(request, None)
            with lock:
                allowed.append(ok)

    if 60 - time.time() % 60 < 5:  # counts are per minute: start in a minute that has time left
        time.sleep(60 - time.time() % 60 + 0.1)
    threads = [threading.Thread(target=client) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(allowed) == 160 and sum(allowed) == 60
