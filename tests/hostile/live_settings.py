"""Settings of the live server the concurrency tests start (tests/hostile/live.py): the test settings, with
rate limits and the log-in lock-out raised so that the races, not the limits, are what is measured."""
from armybuilder.test_settings import *  # noqa: F401,F403

RATE_LIMITS = {scope: "100000/minute" for scope in RATE_LIMITS}  # noqa: F405
AXES_FAILURE_LIMIT = 100000
