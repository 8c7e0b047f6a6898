"""Job kinds made for the tests, and users. The kinds do real database writes so rollback can be seen."""
import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import OperationalError
from rest_framework.test import APIClient

from armybuilder.api.services import api_token_rotate
from armybuilder.jobs.registry import JobError, JobResult, job_kind

# A kind's behaviour is chosen by its params, so one registration serves every test.
calls: list[int] = []


@job_kind("test_work", title="Test work", max_attempts=3)
def test_work(ctx) -> JobResult:
    """Writes a Group named after the job, reports progress, then does what params.mode says."""
    calls.append(ctx.attempt)
    Group.objects.create(name=f"written-by-{ctx.job.pk}-{ctx.attempt}")
    ctx.progress(40, "half way")
    from armybuilder.jobs.selectors import job_status

    seen = job_status(type(ctx.job).objects.get(pk=ctx.job.pk))
    mode = ctx.params.get("mode", "ok")
    if mode == "refuse":
        raise JobError("the input makes no sense")
    if mode == "flaky" and ctx.attempt < 2:
        raise OperationalError("server closed the connection unexpectedly")
    if mode == "down":
        raise OperationalError("could not connect to server")
    if mode == "bug":
        raise KeyError("oops")
    return JobResult(data={"seen_progress": seen["progress"], "seen_message": seen["message"],
                           "input": ctx.input_file.decode()}, file=b"file of " + ctx.input_file,
                     filename="out.txt", content_type="text/plain", message="All done")


@pytest.fixture(autouse=True)
def reset_calls():
    calls.clear()
    yield


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", password="pw-alice-1234")


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", password="pw-bob-1234")


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_rotate(user=user)[1]}")
    return client
