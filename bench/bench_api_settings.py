"""Settings for bench_api.py's gunicorn: the real settings, with rate limits raised out of the way.

The throttles still run (their cache look-ups are part of what is measured); they just never refuse.
"""
from armybuilder.settings import *  # noqa: F401,F403
from armybuilder.settings import REST_FRAMEWORK

REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
    scope: "100000000/minute" for scope in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}}
