"""The organiser's dashboard costs the same number of queries for 3 players as for 30."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armybuilder.services.events.selectors import event_dashboard

from .conftest import login, panzer_company
from .populate import populate_event

pytestmark = pytest.mark.django_db


def _queries(fn):
    with CaptureQueriesContext(connection) as captured:
        result = fn()
    return len(captured), result


@pytest.fixture
def template(afrika, organiser):
    return panzer_company(organiser, afrika, name="Template", companies=2)


def test_dashboard_queries_do_not_grow_with_players(event, template, afrika):
    from datetime import date, timedelta

    from django.utils import timezone

    from armybuilder.services.events import services as ev
    from handbooks.models import GameSystem

    now = timezone.now()
    big = ev.event_create(user=event.created_by, system=GameSystem.objects.get(code="fow4"), name="Big cup",
                          date=date.today() + timedelta(days=9), deadline=now + timedelta(days=1),
                          reveal_at=now + timedelta(days=2), formation_limit=1)
    populate_event(event, template, 3, prefix="small")
    populate_event(big, template, 30, prefix="big")
    client = login(event.created_by)
    counts = {}
    for name, which in (("small", event), ("big", big)):
        url = reverse("events:dashboard", args=[which.public_id])
        client.get(url)  # the session and the user are loaded the same way each time
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        counts[name] = len(captured)
        assert response.status_code == 200
        text = response.content.decode()
        # every player is there, with the diff of those who submitted twice
        assert text.count('class="player-card ') == (3 if name == "small" else 30)
        assert text.count('class="diff-out"') == (1 if name == "small" else 15)
    # the event, the user (the session lives in the cache), the organiser check, the registrations with their
    # players and current submissions
    assert counts == {"small": 4, "big": 4}
    selector_small, rows_small = _queries(lambda: event_dashboard(event))
    selector_big, rows_big = _queries(lambda: event_dashboard(big))
    assert (selector_small, selector_big) == (1, 1) and len(rows_small) == 3 and len(rows_big) == 30
