"""My lists: system, book, cost against the limit, legal or not (with the error count) and last change for
each list, filtered by system and searched by name, for a number of queries that does not grow with the
number of lists (each list version's check is kept in the cache), and without writing to the database."""
import html
import json
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from armybuilder.lists import services as s
from armybuilder.lists.models import ArmyList
from armybuilder.lists.selectors import army_list_report
from tests.factories import UserFactory

EXAMPLES = Path("docs/examples")


@pytest.fixture
def owner(db):
    return UserFactory(username="lister")


@pytest.fixture
def client(owner):
    c = Client()
    c.force_login(owner)
    return c


def make_lists(owner, count: int) -> list[ArmyList]:
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(EXAMPLES.glob("*.json"))]
    out = []
    for i in range(count):
        doc = dict(docs[i % len(docs)], name=f"List {i:02d} {docs[i % len(docs)]['name']}")
        out.append(s.army_list_import(doc=doc, owner=owner))
    return out


def page_queries(client, url="/") -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url)
    assert answer.status_code == 200
    return len(queries), html.unescape(answer.content.decode())


def test_each_row_shows_system_book_cost_legality_and_change(sample_data, owner, client):
    lists = make_lists(owner, 4)
    over = lists[0]  # Flames of War: push it over its limit to make it illegal
    s.army_list_update(army_list=over, expected_version=over.version, points_limit=50)
    over.refresh_from_db()
    _, page = page_queries(client)
    for army_list in lists:
        army_list.refresh_from_db()
        report = army_list_report(army_list)  # the engine, not the page's summary
        row = page[page.index(f'data-list="{army_list.public_id}"'):]
        row = row[:row.index("</li>")]
        assert army_list.system.name in row and army_list.handbook.name in row
        if army_list.system.uses_points:
            assert f"{report.total_points:g} / {army_list.points_limit} points" in row
        if report.legal:
            assert "Legal" in row and "Not legal" not in row
        else:
            assert f"Not legal: {len(report.errors)} error" in row
        assert "changed" in row and "<time datetime=" in row
    assert not army_list_report(over).legal


def test_filter_by_system_and_search_by_name(sample_data, owner, client):
    make_lists(owner, 8)
    _, page = page_queries(client, "/?system=waf")
    names = [ln for ln in ArmyList.objects.filter(owner=owner, system__code="waf").values_list("name", flat=True)]
    assert names and all(name in page for name in names)
    assert "Desert Panzers" not in page
    _, page = page_queries(client, "/?q=list+05")
    assert page.count('class="list-row"') == 1 and "List 05" in page
    _, page = page_queries(client, "/?q=nothing-like-this")
    assert "No list matches" in page


def test_the_query_count_does_not_grow_with_the_number_of_lists(sample_data, owner, client):
    make_lists(owner, 3)
    page_queries(client)  # the first showing checks and keeps each new list once
    few, page = page_queries(client)
    assert page.count('class="list-row"') == 3
    make_lists(owner, 27)
    page_queries(client)
    many, page = page_queries(client)
    assert page.count('class="list-row"') == 30
    print(f"\nMy lists: {few} queries for 3 lists, {many} for 30")
    assert few == many, (few, many)


def test_a_change_elsewhere_is_checked_again(sample_data, owner, client):
    army_list = make_lists(owner, 1)[0]
    page_queries(client)
    s.army_list_update(army_list=army_list, expected_version=army_list.version, points_limit=10)
    _, page = page_queries(client)
    assert "Not legal" in page


def test_showing_my_lists_writes_nothing_to_the_database(sample_data, owner, client):
    make_lists(owner, 3)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    writes = [q["sql"] for q in queries.captured_queries
              if q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))
              and "django_session" not in q["sql"]]
    assert writes == []
