"""Jobs run in-process without a broker (make run): the same runner a Celery worker uses, same guarantees."""
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from armybuilder.jobs.live import live_set
from armybuilder.jobs.models import Job
from armybuilder.jobs.runner import job_execute
from armybuilder.jobs.services import job_enqueue, jobs_delete_finished, jobs_recover_stale

from .conftest import calls

pytestmark = pytest.mark.django_db


def written(job) -> list[str]:
    return list(Group.objects.filter(name__startswith=f"written-by-{job.pk}").values_list("name", flat=True))


def test_a_job_runs_before_enqueue_returns_and_keeps_its_result_and_file(alice):
    job = job_enqueue(kind="test_work", owner=alice, input_file=b"abc", params={"mode": "ok"})
    assert (job.status, job.progress, job.message, job.attempts) == ("succeeded", 100, "All done", 1)
    assert job.result["input"] == "abc"
    assert bytes(job.result_file) == b"file of abc" and job.result_name == "out.txt"
    assert job.started_at <= job.finished_at
    assert written(job) == [f"written-by-{job.pk}-1"]


def test_progress_reported_while_running_is_what_the_status_shows(alice):
    job = job_enqueue(kind="test_work", owner=alice, input_file=b"", params={})
    assert job.result["seen_progress"] == 40 and job.result["seen_message"] == "half way"


def test_a_refused_job_fails_with_its_message_and_writes_nothing(alice):
    job = job_enqueue(kind="test_work", owner=alice, params={"mode": "refuse"})
    assert job.status == "failed" and job.error == "the input makes no sense"
    assert written(job) == [] and calls == [1]  # not retried


def test_a_temporary_database_error_is_retried_and_only_the_good_attempt_is_kept(alice):
    job = job_enqueue(kind="test_work", owner=alice, params={"mode": "flaky"})
    assert job.status == "succeeded" and job.attempts == 2 and calls == [1, 2]
    assert written(job) == [f"written-by-{job.pk}-2"]


def test_a_job_that_keeps_failing_on_the_database_gives_up_after_its_attempts(alice):
    job = job_enqueue(kind="test_work", owner=alice, params={"mode": "down"})
    assert job.status == "failed" and job.attempts == 3 and calls == [1, 2, 3]
    assert "3 times" in job.error and "nothing it did was kept" in job.error
    assert written(job) == []


def test_a_bug_fails_the_job_with_a_generic_message_and_logs_the_traceback(alice, caplog):
    job = job_enqueue(kind="test_work", owner=alice, params={"mode": "bug"})
    assert job.status == "failed" and str(job.pk) in job.error and "KeyError" not in job.error
    record = next(r for r in caplog.records if r.name == "armybuilder.jobs" and r.levelname == "ERROR")
    assert record.exc_info[0] is KeyError and record.job_id == str(job.pk)


def test_asking_twice_for_the_same_work_gives_the_same_job(alice, bob):
    first = job_enqueue(kind="test_work", owner=alice, dedupe_key="list-1-v3")
    again = job_enqueue(kind="test_work", owner=alice, dedupe_key="list-1-v3")
    other = job_enqueue(kind="test_work", owner=bob, dedupe_key="list-1-v3")
    assert again.pk == first.pk and other.pk != first.pk and calls == [1, 1]


def test_a_failed_job_does_not_stop_the_same_work_being_asked_again(alice):
    first = job_enqueue(kind="test_work", owner=alice, dedupe_key="k", params={"mode": "refuse"})
    again = job_enqueue(kind="test_work", owner=alice, dedupe_key="k")
    assert first.status == "failed" and again.pk != first.pk and again.status == "succeeded"


def test_an_unknown_kind_is_refused_at_enqueue():
    with pytest.raises(LookupError, match="no job kind 'nope'"):
        job_enqueue(kind="nope")


def _dead_run(job_id, attempts: int):
    """What a worker killed mid-job leaves: running, an attempt counted, no heartbeat, started a while ago."""
    Job.objects.filter(pk=job_id).update(status="running", attempts=attempts,
                                         started_at=timezone.now() - timedelta(minutes=5))


def _queued(alice) -> Job:
    return Job.objects.create(kind="test_work", owner=alice, params={"mode": "ok"}, input_file=b"x")


def test_a_job_whose_worker_died_is_run_again_by_the_next_delivery(alice):
    job = _queued(alice)
    _dead_run(job.pk, attempts=1)
    assert job_execute(job.pk).status == "succeeded"
    job.refresh_from_db()
    assert job.status == "succeeded" and job.attempts == 2 and calls == [2]


def test_a_job_that_died_on_its_last_attempt_fails_cleanly(alice):
    job = _queued(alice)
    _dead_run(job.pk, attempts=3)
    assert job_execute(job.pk).status == "failed"
    job.refresh_from_db()
    assert job.status == "failed" and "interrupted 3 times" in job.error and calls == []


def test_a_second_delivery_while_the_job_runs_elsewhere_does_nothing(alice):
    job = _queued(alice)
    _dead_run(job.pk, attempts=1)
    live_set(job.pk, progress=30, message="busy")  # a live heartbeat: another worker has it
    assert job_execute(job.pk).status == "skipped"
    job.refresh_from_db()
    assert job.status == "running" and job.attempts == 1 and calls == []


def test_a_finished_job_is_never_run_again(alice):
    job = job_enqueue(kind="test_work", owner=alice)
    assert job_execute(job.pk).status == "skipped" and calls == [1]


def test_recovery_runs_jobs_left_by_dead_workers_and_resends_lost_ones(alice, settings):
    settings.JOBS_RESEND_AFTER_SECONDS = 60
    dead, lost, fresh = _queued(alice), _queued(alice), _queued(alice)
    _dead_run(dead.pk, attempts=1)
    Job.objects.filter(pk=lost.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    assert jobs_recover_stale() == {"recovered": 1, "resent": 1}
    statuses = dict(Job.objects.values_list("pk", "status"))
    assert statuses[dead.pk] == "succeeded" and statuses[lost.pk] == "succeeded" and statuses[fresh.pk] == "queued"


def test_old_finished_jobs_are_deleted_and_unfinished_ones_kept(alice):
    old_done = job_enqueue(kind="test_work", owner=alice)
    new_done = job_enqueue(kind="test_work", owner=alice)
    old_waiting = _queued(alice)
    Job.objects.filter(pk__in=[old_done.pk, old_waiting.pk]).update(updated_at=timezone.now() - timedelta(days=8))
    assert jobs_delete_finished(older_than_days=7) == 1
    assert set(Job.objects.values_list("pk", flat=True)) == {new_done.pk, old_waiting.pk}
