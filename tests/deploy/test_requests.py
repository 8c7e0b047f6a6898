"""Behind a TLS proxy, the probes, request ids and the request log, and errors that are always JSON under /api/."""
import json
import logging
import re

import pytest
from django.db import OperationalError
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import include, path
from rest_framework.views import APIView


class BrokenApi(APIView):
    permission_classes = []

    def get(self, request):
        raise OperationalError("could not connect to server: Connection refused")


def broken_page(request):
    raise OperationalError("could not connect to server: Connection refused")


def buggy(request):
    raise ValueError("a plain bug")


def fine(request):
    logging.getLogger("armybuilder.test").info("inside the view")
    return HttpResponse("fine")


urlpatterns = [
    path("api/v1/broken", BrokenApi.as_view()),
    path("api/v1/buggy", buggy),
    path("broken/", broken_page),
    path("fine/", fine),
    path("", include("armybuilder.urls")),
]
handler500 = "armybuilder.errors.server_error"
TEST_URLS = "tests.deploy.test_requests"


@pytest.fixture
def client_500():
    return Client(raise_request_exception=False)


@override_settings(ROOT_URLCONF=TEST_URLS)
def test_a_database_error_in_the_api_is_a_json_503_with_retry_after(client_500, db):
    response = client_500.get("/api/v1/broken")
    assert response.status_code == 503 and response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "The service is temporarily unavailable (its database or cache does not "
                                         "answer); nothing was changed. Try again in a minute.", "problems": []}
    assert response["Retry-After"] == "30"


@override_settings(ROOT_URLCONF=TEST_URLS)
def test_an_error_outside_drf_under_api_is_json_too_and_a_page_elsewhere(client_500, db):
    bug = client_500.get("/api/v1/buggy")
    assert bug.status_code == 500 and bug["Content-Type"] == "application/json"
    rid = bug["X-Request-ID"]
    assert bug.json() == {"detail": f"Something went wrong on our side; it has been logged. Request id {rid}.",
                          "problems": []}
    page = client_500.get("/broken/")
    assert page.status_code == 503 and page["Content-Type"].startswith("text/html")
    assert "Temporarily unavailable" in page.content.decode() and "Traceback" not in page.content.decode()


@override_settings(ROOT_URLCONF=TEST_URLS)
def test_every_request_gets_an_id_in_its_header_and_in_every_log_line(client, caplog, db):
    caplog.set_level(logging.INFO)
    response = client.get("/fine/", HTTP_X_REQUEST_ID="edge-1234.abc")
    assert response["X-Request-ID"] == "edge-1234.abc"
    mine = [r for r in caplog.records if getattr(r, "request_id", "") == "edge-1234.abc"]
    assert [r.getMessage() for r in mine] == ["inside the view", "GET /fine/ 200"]
    access = mine[-1]
    assert (access.method, access.path, access.status) == ("GET", "/fine/", 200) and access.duration_ms >= 0
    generated = client.get("/fine/", HTTP_X_REQUEST_ID="not a sane id; " + "x" * 100)["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", generated)


def test_the_json_formatter_writes_one_object_a_line_with_the_traceback(capsys):
    from django.conf import settings
    from pythonjsonlogger.json import JsonFormatter

    spec = dict(settings.LOGGING["formatters"]["json"])
    spec.pop("()")
    formatter = JsonFormatter(spec.pop("format"), **spec)
    try:
        raise OperationalError("database down")
    except OperationalError:
        record = logging.getLogger("x").makeRecord("x", logging.ERROR, __file__, 1, "failed %s", ("here",),
                                                   exc_info=__import__("sys").exc_info())
    record.request_id = "r-1"
    line = formatter.format(record)
    assert "\n" not in line
    data = json.loads(line)
    assert (data["level"], data["logger"], data["message"], data["request_id"]) == ("ERROR", "x", "failed here", "r-1")
    assert "Traceback" in data["exc_info"] and "OperationalError: database down" in data["exc_info"]


def test_healthz_is_alive_and_readyz_checks_the_database_and_the_cache(client, db):
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    checks = ready.json()["checks"]
    assert ready.status_code == 200 and ready.json()["status"] == "ok"
    assert checks["database"]["status"] == checks["cache"]["status"] == "ok"
    assert checks["broker"]["status"] == "not used (jobs run in-process)"
    assert "no-cache" in ready["Cache-Control"]


def test_readyz_says_not_ready_when_the_cache_does_not_answer(client, db):
    dead = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                        "LOCATION": "redis://127.0.0.1:1/0", "OPTIONS": {"socket_connect_timeout": 1}}}
    with override_settings(CACHES=dead):
        ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.json()["status"] == "unavailable"
    assert ready.json()["checks"]["cache"]["status"] == "error"
    assert "ConnectionError" in ready.json()["checks"]["cache"]["error"]
    assert ready.json()["checks"]["database"]["status"] == "ok"


@pytest.mark.parametrize("proxy_header, trusted, status", [
    (None, [], 403),  # what the issue saw: the browser says https, Django sees http
    (("HTTP_X_FORWARDED_PROTO", "https"), [], 200),
    (None, ["https://lists.example.org"], 200),
])
def test_behind_a_tls_proxy_a_form_post_passes_the_csrf_origin_check_once_configured(db, proxy_header, trusted,
                                                                                     status):
    extra = {"SECURE_PROXY_SSL_HEADER": proxy_header} if proxy_header else {}
    with override_settings(ALLOWED_HOSTS=["lists.example.org"], CSRF_TRUSTED_ORIGINS=trusted, **extra):
        browser = Client(enforce_csrf_checks=True, HTTP_HOST="lists.example.org")
        browser.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
        form = {"username": "nobody", "password": "wrong-password-1",
                "csrfmiddlewaretoken": browser.cookies["csrftoken"].value}
        response = browser.post("/accounts/login/", form, HTTP_X_FORWARDED_PROTO="https",
                                HTTP_ORIGIN="https://lists.example.org", HTTP_REFERER="https://lists.example.org/")
    assert response.status_code == status
    if status == 200:  # the form answered (a wrong password), not a CSRF failure
        assert "Please enter a correct username and password" in response.content.decode()
