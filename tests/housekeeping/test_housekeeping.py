"""Housekeeping removes anonymous lists untouched for 30 days, expired sessions and old jobs; beat runs it."""
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command
from django.utils import timezone

from armybuilder.jobs.models import Job
from armybuilder.lists import services
from armybuilder.lists.models import ArmyList, ListUnit
from armybuilder.services.housekeeping.services import housekeeping_run
from handbooks.models import Handbook

pytestmark = pytest.mark.django_db


def aged(army_list: ArmyList, days: int) -> ArmyList:
    ArmyList.objects.filter(pk=army_list.pk).update(updated_at=timezone.now() - timedelta(days=days))
    return army_list


@pytest.fixture
def lists(sample_data):
    book = Handbook.objects.get(code="sample-afrika-korps", is_current=True)
    owner = get_user_model().objects.create_user("keeper", password="pw-keeper-1234")
    stale = services.army_list_create(session_key="s-old", handbook=book, name="Forgotten")
    services.army_list_pick_unit(army_list=stale, box_code="force/artillery", unit_code="SG110",
                                 size_code="four-guns")
    return {
        "stale": aged(stale, 31),
        "recent": aged(services.army_list_create(session_key="s-new", handbook=book, name="Yesterday"), 29),
        "owned": aged(services.army_list_create(owner=owner, handbook=book, name="Mine"), 400),
    }


def test_only_anonymous_lists_untouched_for_the_limit_are_removed_with_their_units(lists):
    assert ListUnit.objects.filter(army_list=lists["stale"]).count() == 1
    counts = housekeeping_run()
    assert counts["anonymous_lists"] == 1
    assert set(ArmyList.objects.values_list("name", flat=True)) == {"Yesterday", "Mine"}
    assert not ListUnit.objects.filter(army_list_id=lists["stale"].pk).exists()


def test_the_age_limit_is_configurable(lists, settings):
    settings.HOUSEKEEPING_ANONYMOUS_LIST_DAYS = 10
    assert housekeeping_run()["anonymous_lists"] == 2
    assert list(ArmyList.objects.values_list("name", flat=True)) == ["Mine"]


def test_expired_sessions_and_old_finished_jobs_go_too(db):
    Session.objects.create(session_key="gone", session_data="x", expire_date=timezone.now() - timedelta(hours=1))
    Session.objects.create(session_key="live", session_data="x", expire_date=timezone.now() + timedelta(hours=1))
    old = Job.objects.create(kind="roster_pdf", status="succeeded")
    Job.objects.filter(pk=old.pk).update(updated_at=timezone.now() - timedelta(days=8))
    kept = Job.objects.create(kind="roster_pdf", status="succeeded")
    assert housekeeping_run() == {"anonymous_lists": 0, "sessions": 1, "jobs": 1}
    assert list(Session.objects.values_list("session_key", flat=True)) == ["live"]
    assert list(Job.objects.values_list("pk", flat=True)) == [kept.pk]


def test_the_command_runs_it_by_hand_and_refuses_a_nonsense_age(lists, capsys):
    call_command("housekeeping", "--list-days", "30")
    assert capsys.readouterr().out.strip() == "anonymous lists: 1 removed, sessions: 0 removed, jobs: 0 removed"
    with pytest.raises(CommandError, match="from 1 to 36500, not 0"):
        call_command("housekeeping", "--list-days", "0")


def test_beat_schedules_tasks_the_worker_knows():
    from django.conf import settings

    from armybuilder.celery import app

    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled == {"housekeeping.run", "jobs.recover_stale"} and scheduled <= set(app.tasks)
