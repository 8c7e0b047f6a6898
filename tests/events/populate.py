"""An event with many players, for query-count tests and the dashboard benchmark (bench/bench_event_dashboard.py).

Each player gets a copy of a template list and submits it; every second player then drops a unit and submits
again (so the dashboard has a previous submission and a diff to show), and every third submission is approved.
"""
from django.contrib.auth import get_user_model

from armybuilder.lists import services as s
from armybuilder.lists.models import ListUnit
from armybuilder.services.events import services as ev


def populate_event(event, template, players: int, *, prefix: str = "player") -> list:
    User = get_user_model()
    organiser = event.created_by
    made = []
    for i in range(players):
        player = User.objects.create_user(f"{prefix}-{i:03d}", password="pw-not-secret-123")
        army = s.army_list_copy(army_list=template, owner=player, name=f"List {i:03d} of {prefix}")
        registration = ev.event_register(event=event, player=player)
        submission = ev.submission_create(registration=registration, army_list=army, by=player)
        if i % 2 == 1:
            unit = ListUnit.objects.filter(army_list=army).order_by("-order", "-pk").first()
            s.army_list_remove_unit(army_list=army, list_unit=unit)
            army.refresh_from_db()
            submission = ev.submission_create(registration=registration, army_list=army, by=player)
        if i % 3 == 0:
            ev.submission_review(submission=submission, by=organiser, approve=True)
        made.append(submission)
    return made
