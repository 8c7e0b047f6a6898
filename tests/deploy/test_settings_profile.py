"""The settings profiles, read in a fresh interpreter per case exactly as a server process reads them."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOW = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "DEBUG": settings.DEBUG, "cache": settings.CACHES["default"]["BACKEND"], "session": settings.SESSION_ENGINE,
    "static": settings.STORAGES["staticfiles"]["BACKEND"], "broker": settings.CELERY_BROKER_URL,
    "in_process": settings.JOBS_IN_PROCESS, "proxy": getattr(settings, "SECURE_PROXY_SSL_HEADER", None),
    "trusted": settings.CSRF_TRUSTED_ORIGINS, "hsts": getattr(settings, "SECURE_HSTS_SECONDS", 0),
    "redirect": getattr(settings, "SECURE_SSL_REDIRECT", False), "email": [settings.EMAIL_BACKEND,
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS, settings.DEFAULT_FROM_EMAIL],
    "log_format": settings.LOGGING["handlers"]["console"]["formatter"], "hosts": settings.ALLOWED_HOSTS,
}))
"""
PRODUCTION = {"ARMYBUILDER_ENV": "production", "SECRET_KEY": "s" * 60, "ALLOWED_HOSTS": "lists.example.org",
              "DATABASE_URL": "postgres://u@db.example.org/armybuilder", "REDIS_URL": "redis://cache.example.org:6379/2"}


def settings_with(env: dict) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("ARMYBUILDER_", "DJANGO_", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL",
                                  "REDIS_URL", "CELERY_", "SECURE_", "CSRF_", "EMAIL_", "DEBUG", "SENTRY_"))}
    return subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**clean, "DJANGO_SETTINGS_MODULE": "armybuilder.settings", **env})


def shown(env: dict) -> dict:
    done = settings_with(env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_with_nothing_set_the_local_profile_is_debug_with_in_process_jobs():
    local = shown({})
    assert local["DEBUG"] is True and local["in_process"] is True and local["broker"] == ""
    assert local["cache"].endswith("LocMemCache") and local["static"].endswith("StaticFilesStorage")
    assert local["email"][0].endswith("console.EmailBackend") and local["log_format"] == "plain"


@pytest.mark.parametrize("missing", [["SECRET_KEY"], ["ALLOWED_HOSTS", "DATABASE_URL"], ["REDIS_URL"]])
def test_production_refuses_to_start_without_its_variables_and_names_them(missing):
    done = settings_with({k: v for k, v in PRODUCTION.items() if k not in missing})
    assert done.returncode != 0
    assert f"ARMYBUILDER_ENV=production needs these environment variables: {', '.join(missing)}" in done.stderr


def test_production_is_never_debug_and_uses_redis_whitenoise_https_and_json_logs():
    prod = shown({**PRODUCTION, "DEBUG": "1"})
    assert prod["DEBUG"] is False
    assert prod["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert prod["session"] == "django.contrib.sessions.backends.cached_db"
    assert prod["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert prod["broker"] == PRODUCTION["REDIS_URL"] and prod["in_process"] is False
    assert prod["hsts"] == 31536000 and prod["redirect"] is True and prod["log_format"] == "json"
    assert prod["email"][0].endswith("smtp.EmailBackend") and prod["email"][2:4] == [587, True]


def test_production_reads_the_proxy_header_trusted_origins_and_mail_from_the_environment():
    prod = shown({**PRODUCTION, "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto=https",
                  "CSRF_TRUSTED_ORIGINS": "https://lists.example.org, https://www.example.org",
                  "EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "2525", "DEFAULT_FROM_EMAIL": "lists@example.org",
                  "SECURE_HSTS_SECONDS": "3600", "CELERY_BROKER_URL": "redis://broker.example.org/0"})
    assert prod["proxy"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert prod["trusted"] == ["https://lists.example.org", "https://www.example.org"]
    assert prod["email"][1:3] == ["smtp.example.org", 2525] and prod["email"][4] == "lists@example.org"
    assert prod["hsts"] == 3600 and prod["broker"] == "redis://broker.example.org/0"


@pytest.mark.parametrize("env, message", [
    ({"SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto"}, "SECURE_PROXY_SSL_HEADER is NAME=value"),
    ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS must be a whole number, not 'a year'"),
    ({"ARMYBUILDER_ENV": "staging"}, "ARMYBUILDER_ENV is 'local' or 'production', not 'staging'"),
])
def test_a_malformed_setting_stops_start_up_with_what_is_wrong(env, message):
    done = settings_with({**PRODUCTION, **env})
    assert done.returncode != 0 and message in done.stderr
