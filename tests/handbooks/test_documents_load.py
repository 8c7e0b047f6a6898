"""handbook_documents_load: many generated books of one system in one transaction, with what one book at a
time would ask again and again asked once, and the same rows, revisions and statuses as loading them one by
one."""
import copy

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from handbooks import models as m
from handbooks.loader.rows import KeyReserver
from handbooks.services import handbook_document_load, handbook_documents_load

from .test_load_queries import rows_of, scaled

pytestmark = pytest.mark.django_db


def books(*codes: str) -> list[dict]:
    return [scaled(2, code) for code in codes]


def load_all(docs: list[dict]) -> list:
    with transaction.atomic():
        return handbook_documents_load([(doc, f"{doc['code']}.json", None) for doc in docs], system_code="fow4",
                                       source_kind="battlescribe")


def test_many_books_get_the_rows_each_would_get_loaded_alone(systems):
    alone = scaled(2, "alone")
    assert handbook_document_load(alone, "alone.json", generated=True).status == "created"
    results = load_all(books("b1", "b2", "b3"))

    assert [(r.code, r.status, r.revision) for r in results] == [("b1", "created", 1), ("b2", "created", 1),
                                                                  ("b3", "created", 1)]
    expected = rows_of("alone")
    assert all(expected.values()), expected
    assert [rows_of(code) for code in ("b1", "b2", "b3")] == [expected] * 3
    # Keys reserved without asking again still point each book's rows at its own parents.
    for code in ("b1", "b2", "b3"):
        book = m.Handbook.objects.get(code=code)
        unit = book.units.get(code="TG104-1")
        assert unit.observer_source.handbook_id == book.pk and unit.observer_source.code == "TG103-1"
        assert {c.unit.handbook_id for c in m.BoxChoice.objects.filter(box__handbook=book)} == {book.pk}


def test_books_already_loaded_are_unchanged_and_changed_ones_get_the_next_revision(systems):
    load_all(books("b1", "b2"))
    again = books("b1", "b2")
    again[1]["name"] = "Renamed"

    results = load_all(again)

    assert [(r.code, r.status, r.revision) for r in results] == [("b1", "unchanged", 1), ("b2", "revised", 2)]
    assert list(m.Handbook.objects.filter(code="b2").order_by("revision")
                .values_list("revision", "is_current", "name")) == [(1, False, "Book x2"), (2, True, "Renamed")]
    assert m.Handbook.objects.filter(code="b1").count() == 1


def test_a_book_with_a_bad_reference_fails_alone_and_says_where(systems):
    docs = books("good", "bad")
    docs[1]["units"][0]["rules"] = ["no-such-rule"]

    results = load_all(docs)

    assert [r.status for r in results] == ["created", "failed"]
    assert any("no-such-rule" in str(p) and "units[0].rules[0]" in str(p) for p in results[1].problems)
    assert not m.Handbook.objects.filter(code="bad").exists()


def test_a_document_with_its_own_revision_is_loaded_as_one_book_is(systems):
    doc = scaled(1, "numbered")
    doc["revision"] = 5
    assert [(r.status, r.revision) for r in load_all([doc])] == [("created", 5)]
    assert [(r.status, r.revision) for r in load_all([copy.deepcopy(doc)])] == [("unchanged", 5)]


def test_more_books_cost_fewer_queries_each_than_the_first(systems):
    def queries(codes):
        with CaptureQueriesContext(connection) as captured:
            assert {r.status for r in load_all(books(*codes))} == {"created"}
        return len(captured.captured_queries)

    one, three = queries(["q1"]), queries(["q2", "q3", "q4"])
    per_more = (three - one) / 2
    if connection.vendor == "sqlite":
        assert per_more < one - 10  # the lock, the revisions and every table's key query are not repeated
    else:
        assert per_more < one - 2  # the lock and the revisions are not repeated


def test_the_key_reserver_continues_without_asking_on_sqlite():
    with transaction.atomic():
        reserver = KeyReserver()
        with CaptureQueriesContext(connection) as captured:
            first = reserver.reserve(m.Team, 3)
            second = reserver.reserve(m.Team, 2)
            assert reserver.reserve(m.Team, 0) == []
    assert first == sorted(first) and len(set(first + second)) == 5
    if connection.vendor == "sqlite":
        assert second == [first[-1] + 1, first[-1] + 2]
        assert len(captured.captured_queries) == 1
    else:
        assert len(captured.captured_queries) == 2
