"""When the database is down: JSON 503s from the API, a 503 page elsewhere, readiness says why, the error is
logged as one JSON line with its traceback and request id, and reported to Sentry when SENTRY_DSN is set."""
import gzip
import json
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from .stack import free_port


class FakeSentry(BaseHTTPRequestHandler):
    """Takes Sentry envelopes on loopback and keeps their decoded bodies."""

    received: list[str] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "br":
            import brotli

            body = brotli.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        FakeSentry.received.append(body.decode("utf-8", "replace"))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def sentry(stack):
    server = ThreadingHTTPServer(("127.0.0.1", free_port(stack.taken)), FakeSentry)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://public@127.0.0.1:{server.server_address[1]}/1"
    server.shutdown()


@pytest.fixture(scope="module")
def db_down(stack, sentry):
    """An app process whose database does not answer (nothing listens on its port), reporting to Sentry."""
    dead_port = free_port(stack.taken)
    env = {**stack.env, "DATABASE_URL": f"postgres://postgres@127.0.0.1:{dead_port}/nowhere", "SENTRY_DSN": sentry}
    proc, port = stack.start_app("app-db-down", env)
    yield proc, port
    proc.stop()


def test_the_api_answers_json_503_when_the_database_is_down(stack, db_down):
    _, port = db_down
    response = stack.get(port, "/api/v1/systems/", headers={"X-Request-ID": "req-db-down-1"})
    assert response.status == 503 and response.headers["content-type"] == "application/json"
    assert response.json()["detail"].startswith("The service is temporarily unavailable")
    assert response.json()["problems"] == [] and int(response.headers["retry-after"]) > 0
    assert response.headers["x-request-id"] == "req-db-down-1"
    post = stack.request(port, "POST", "/api/v1/lists/", {"system": "fow4", "handbook": "x"})
    assert post.status == 503 and post.json()["detail"].startswith("The service is temporarily unavailable")


def test_pages_answer_a_503_page_and_readiness_names_the_database(stack, db_down):
    _, port = db_down
    page = stack.get(port, "/", token=False)  # the start page lists the books
    assert page.status == 503 and b"Temporarily unavailable" in page.body and b"Traceback" not in page.body
    ready = stack.get(port, "/readyz")
    checks = ready.json()["checks"]
    assert ready.status == 503 and checks["database"]["status"] == "error"
    assert checks["cache"]["status"] == "ok" and checks["broker"]["status"] == "ok"
    assert stack.get(port, "/healthz").status == 200  # alive: restarting it would not bring the database back


def test_the_error_is_one_json_log_line_with_traceback_and_request_id_and_reaches_sentry(stack, db_down):
    proc, port = db_down
    stack.get(port, "/api/v1/systems/", headers={"X-Request-ID": "req-db-down-2"})
    lines = [r for r in proc.log_lines() if r.get("request_id") == "req-db-down-2"]
    error = next(r for r in lines if r["level"] == "ERROR")
    assert "OperationalError" in error["exc_info"] and "Traceback" in error["exc_info"]
    access = next(r for r in lines if r["logger"] == "armybuilder.request")
    assert (access["method"], access["path"], access["status"]) == ("GET", "/api/v1/systems/", 503)
    stack.wait_for(lambda: any("OperationalError" in body for body in FakeSentry.received),
                   "the error reported to Sentry", timeout=20)
    event = next(body for body in FakeSentry.received if "OperationalError" in body)
    assert '"request_id"' not in event or "req-db-down" in event  # whatever it carries is this request's
    assert json.loads(event.splitlines()[0])  # an envelope: a JSON header line first
