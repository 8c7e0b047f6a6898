"""The event pack: one PDF (cover, contents, every approved roster), a CSV and a ZIP, built as a job; rosters
cached by submission and version so a rebuild draws only what changed.

Expected values come from the submissions themselves (their codes, names and points as stored), and the files
are read back with pypdf, csv and zipfile; nothing is taken from the pack code's own bookkeeping.
"""
import csv
import io
import json
import zipfile

import pytest
from pypdf import PdfReader

from armybuilder.jobs.models import Job
from armybuilder.lists import services as s
from armybuilder.lists.listjson import parse_list_json
from armybuilder.lists.services import army_list_import
from armybuilder.services.events import services as ev
from armybuilder.services.events.pack import build
from armybuilder.services.events.pack import services as pack

from .conftest import make_user, panzer_company

pytestmark = pytest.mark.django_db


@pytest.fixture
def parts_drawn(monkeypatch):
    """Every cover or contents page actually drawn by WeasyPrint (not taken from the cache), as its HTML."""
    drawn = []
    real = build.html_pdf

    def counting(html):
        drawn.append(html)
        return real(html)

    monkeypatch.setattr(build, "html_pdf", counting)
    return drawn


@pytest.fixture
def renders(monkeypatch):
    """Every roster actually drawn (not taken from the cache), by submission id."""
    drawn = []
    real = build.roster_artefacts

    def counting(entry, **kwargs):
        drawn.append(entry.submission)
        return real(entry, **kwargs)

    monkeypatch.setattr(build, "roster_artefacts", counting)
    return drawn


def submitted(event, name, handbook, *, list_name):
    player = make_user(name)
    army = panzer_company(player, handbook, name=list_name)
    registration = ev.event_register(event=event, player=player)
    return player, army, ev.submission_create(registration=registration, army_list=army, by=player)


@pytest.fixture
def tournament(event, afrika, organiser):
    """Three players: Anna and Carl approved, Bruno rejected."""
    subs = {}
    for name, list_name in (("anna", "Anna's Kampfgruppe"), ("bruno", "Bruno's Rejected Force"),
                            ("carl", "Carl's Panzers")):
        subs[name] = submitted(event, name, afrika, list_name=list_name)
    ev.submission_review(submission=subs["anna"][2], by=organiser, approve=True)
    ev.submission_review(submission=subs["bruno"][2], by=organiser, approve=False, comment="Too many tanks.")
    ev.submission_review(submission=subs["carl"][2], by=organiser, approve=True, comment="Fine.")
    return subs


def pdf_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def test_the_pack_holds_every_approved_roster_and_no_rejected_one(event, organiser, tournament, renders):
    job = pack.event_pack_start(event=event, user=organiser)
    assert job.status == Job.SUCCEEDED, job.error
    anna, bruno, carl = (tournament[n][2] for n in ("anna", "bruno", "carl"))
    assert sorted(renders) == sorted([str(anna.public_id), str(carl.public_id)])

    content, filename, content_type = pack.event_pack_file(event=event, user=organiser, part="pdf")
    assert content_type == "application/pdf" and filename == "Desert-Cup-pack.pdf"
    pages = pdf_text(content)
    cover = pages[0]
    assert "Desert Cup" in cover and "Tobruk hall" in cover and "anna" in cover and "carl" in cover
    assert "bruno" not in cover
    contents = pages[1]
    assert "Contents" in contents
    assert anna.code in contents and carl.code in contents and bruno.code not in contents
    whole = "\n".join(pages)
    assert bruno.code not in whole and "Bruno's Rejected Force" not in whole
    # Each roster's pages carry its own code; Anna's come first (players by name), right after the front.
    anna_pages = [i for i, text in enumerate(pages) if f"Verification code {anna.code}" in text]
    carl_pages = [i for i, text in enumerate(pages) if f"Verification code {carl.code}" in text]
    assert anna_pages and carl_pages and anna_pages[0] == 2 and max(anna_pages) < min(carl_pages)
    assert anna_pages == list(range(2, 2 + len(anna_pages))) and carl_pages[-1] == len(pages) - 1
    # The contents give the page each roster starts on (1-based).
    one_line = contents.replace("\n", " ")
    assert f"{anna.code} 3" in one_line and f"{carl.code} {carl_pages[0] + 1}" in one_line
    outline = [item.title for item in PdfReader(io.BytesIO(content)).outline]
    assert outline == ["Cover and contents", "anna: Anna's Kampfgruppe", "carl: Carl's Panzers"]


def test_the_csv_lists_players_lists_points_and_codes(event, organiser, tournament):
    pack.event_pack_start(event=event, user=organiser)
    content, filename, content_type = pack.event_pack_file(event=event, user=organiser, part="csv")
    assert content_type.startswith("text/csv") and filename.endswith("players.csv")
    rows = list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"))))
    anna, carl = tournament["anna"][2], tournament["carl"][2]
    assert [(r["player"], r["list"], int(r["points"]), r["verification_code"]) for r in rows] == [
        ("anna", "Anna's Kampfgruppe", anna.points, anna.code), ("carl", "Carl's Panzers", carl.points, carl.code)]
    assert rows[0]["first_page"] == "3" and int(rows[1]["first_page"]) == 3 + int(rows[0]["pages"])


def test_the_zip_holds_each_list_as_json_that_imports_again(event, organiser, tournament):
    pack.event_pack_start(event=event, user=organiser)
    content, _, content_type = pack.event_pack_file(event=event, user=organiser, part="zip")
    assert content_type == "application/zip"
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        names = archive.namelist()
        documents = {n: parse_list_json(archive.read(n)) for n in names if n.endswith(".json")}
        readme = archive.read("README.txt").decode() if "README.txt" in names else ""
    assert sorted(documents) == ["001-anna-Anna-s-Kampfgruppe.json", "002-carl-Carl-s-Panzers.json"]
    anna, carl = tournament["anna"][2], tournament["carl"][2]
    assert list(documents.values()) == [anna.document, carl.document]
    for document in documents.values():
        imported = army_list_import(doc=document, owner=make_user(f"re-{len(document['name'])}-{id(document)}"))
        assert imported.name == document["name"]
    # The sample books are not BattleScribe data: no .ros, and the README says why for each list.
    assert not [n for n in names if n.endswith(".ros")]
    assert "001-anna-Anna-s-Kampfgruppe: no .ros" in readme and "BattleScribe" in readme


def test_a_finished_pack_is_kept_until_a_submission_changes(event, organiser, tournament, renders, afrika,
                                                            parts_drawn):
    deputy = make_user("deputy")
    ev.event_add_organiser(event=event, by=organiser, username="deputy")
    first = pack.event_pack_start(event=event, user=organiser)
    assert len(renders) == 2
    # The cover, the contents page's frame and its one strip of rows (both players' rows).
    assert len(parts_drawn) == 3 and "Players" in parts_drawn[0] and "<h2>Contents" in parts_drawn[1]
    assert "Anna&#x27;s Kampfgruppe" in parts_drawn[2] and "Carl&#x27;s Panzers" in parts_drawn[2]
    again = pack.event_pack_start(event=event, user=organiser)
    assert again.pk == first.pk and len(renders) == 2
    assert pack.event_pack_state(event=event, user=organiser).up_to_date
    # A co-organiser gets the same pack.
    assert pack.event_pack_start(event=event, user=deputy).pk == first.pk

    # Carl changes his list and resubmits; the organiser approves it again.
    player, army, _ = tournament["carl"]
    s.army_list_update(army_list=army, name="Carl's Second Thoughts")
    resubmitted = ev.submission_create(registration=army.submissions.first().registration, army_list=army, by=player)
    ev.submission_review(submission=resubmitted, by=organiser, approve=True)
    state = pack.event_pack_state(event=event, user=organiser)
    assert state.job.pk == first.pk and not state.up_to_date

    renders.clear()
    parts_drawn.clear()
    rebuilt = pack.event_pack_start(event=event, user=organiser)
    assert rebuilt.pk != first.pk and rebuilt.status == Job.SUCCEEDED
    assert renders == [str(resubmitted.public_id)]  # exactly one roster drawn, Anna's came from the cache
    # The cover names the same players and the frame is the same: kept. The strip with Carl's row: drawn again.
    assert len(parts_drawn) == 1 and "Carl&#x27;s Second Thoughts" in parts_drawn[0]
    assert "<h2>" not in parts_drawn[0]
    assert rebuilt.result["rendered"] == 1 and rebuilt.result["cached"] == 1
    text = "\n".join(pdf_text(pack.event_pack_file(event=event, user=organiser, part="pdf")[0]))
    assert "Carl's Second Thoughts" in text and resubmitted.code in text
    assert tournament["carl"][2].code not in text  # the first submission is history
    assert pack.event_pack_state(event=event, user=organiser).up_to_date


def test_only_organisers_build_or_read_the_pack(event, organiser, tournament):
    from django.http import Http404

    for user in (tournament["anna"][0], make_user("stranger")):
        with pytest.raises(Http404):
            pack.event_pack_start(event=event, user=user)
        with pytest.raises(Http404):
            pack.event_pack_state(event=event, user=user)
    pack.event_pack_start(event=event, user=organiser)
    with pytest.raises(Http404):
        pack.event_pack_file(event=event, user=tournament["anna"][0], part="pdf")


def test_nothing_approved_is_a_clear_refusal(event, organiser):
    with pytest.raises(pack.PackError, match="No list is approved yet"):
        pack.event_pack_start(event=event, user=organiser)
    with pytest.raises(pack.PackError, match="paper is one of"):
        pack.event_pack_start(event=event, user=organiser, paper="a3")


def test_a_snapshot_whose_book_is_gone_gets_a_page_that_says_so(event, organiser, tournament):
    anna = tournament["anna"][2]
    broken = dict(anna.document, handbook={"code": "no-such-book", "revision": 1})
    type(anna).objects.filter(pk=anna.pk).update(document=broken)
    job = pack.event_pack_start(event=event, user=organiser)
    assert job.status == Job.SUCCEEDED and job.result["unprintable"] == 1
    pages = pdf_text(pack.event_pack_file(event=event, user=organiser, part="pdf")[0])
    assert "cannot be drawn" in pages[2] and anna.code in pages[2]


def test_csv_cells_never_run_as_formulas():
    entry = build.PackEntry(submission="s", number=1, list_version=1, player="=HYPERLINK(1)", list_name="+1",
                            points=1, card_points=0, formations=1, code="ABCD", status="approved", legal=True,
                            document={})
    rows = list(csv.reader(io.StringIO(build.pack_csv([entry], [3], [2]).decode("utf-8-sig"))))
    assert rows[1][1] == "'=HYPERLINK(1)" and rows[1][2] == "'+1"


def test_json_in_zip_is_the_frozen_snapshot_not_the_live_list(event, organiser, tournament):
    player, army, sub = tournament["anna"]
    s.army_list_update(army_list=army, name="Edited after approval")
    pack.event_pack_start(event=event, user=organiser)
    with zipfile.ZipFile(io.BytesIO(pack.event_pack_file(event=event, user=organiser, part="zip")[0])) as archive:
        first = json.loads(archive.read(archive.namelist()[0]))
    assert first["name"] == "Anna's Kampfgruppe"


def fake_entries(count, *, long_names=False):
    return [build.PackEntry(submission=f"s{i}", number=1, list_version=1,
                            player=("W" * 120 if long_names and i % 2 else f"Player {i:03d}"),
                            list_name=("M" * 200 if long_names and i % 3 else f"List {i:03d}"), points=100 + i,
                            card_points=5, formations=1, code=f"C{i:07d}", status="approved", legal=i % 4 != 0,
                            document={}) for i in range(count)]


FAKE_EVENT = build.PackEvent(name="Big Open " + "Y" * 110, date="Saturday", place="Hall", system="Flames of War",
                             points_limit=100, card_points=10, formation_limit=2)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_full_contents_page_of_the_longest_names_stays_one_page(paper):
    per_page = build.ROWS_PER_CONTENTS_PAGE[paper]
    entries = fake_entries(2 * per_page + 1, long_names=True)
    parts = build.front_parts(FAKE_EVENT, entries, [7] * len(entries), paper=paper)
    pages = [len(PdfReader(io.BytesIO(part)).pages) for part in parts]
    # The cover (long names may take it to a second page), two full contents pages and one with a single row.
    assert len(parts) == 4 and pages[1:] == [1, 1, 1]
    last = PdfReader(io.BytesIO(parts[3])).pages[0].extract_text()
    assert f"C{2 * per_page:07d}" in last and f"page {pages[0] + 3}" in last


def test_the_contents_give_each_roster_its_first_page_across_contents_pages():
    per_page = build.ROWS_PER_CONTENTS_PAGE["a4"]
    entries = fake_entries(per_page + 5)
    counts = [3 + i % 5 for i in range(len(entries))]  # rosters of different lengths
    parts = build.front_parts(FAKE_EVENT, entries, counts, paper="a4")
    pdf = build.merge_pdf(parts, [])
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 3
    text = " ".join(page.extract_text() for page in reader.pages[1:]).replace("\n", " ")
    page = 3 + 1  # after the cover and the two contents pages
    for entry, count in zip(entries, counts, strict=False):
        assert f"{entry.code} {page}" in text, entry.code
        page += count
    assert "(continued)" in reader.pages[2].extract_text()


def test_a_rebuild_draws_only_the_strips_whose_rows_changed():
    """One list renamed: its strip. One roster a page longer: the strips of the rows after it (their pages move)."""
    per_page, strip = build.ROWS_PER_CONTENTS_PAGE["a4"], build.ROWS_PER_STRIP
    entries, counts = fake_entries(per_page + 3), [10] * (per_page + 3)
    drawn = {}

    def draw(html):
        drawn[html] = drawn.get(html, 0) + 1
        return build.html_pdf(html)

    kept = {}

    def cached(html):
        if html not in kept:
            kept[html] = draw(html)
        return kept[html]

    build.front_parts(FAKE_EVENT, entries, counts, paper="a4", draw=cached)
    first = len(drawn)
    strips = -(-per_page // strip) + 1  # the first page's strips and the second page's one
    assert first == 1 + 2 + strips  # the cover, two frames, the strips
    renamed = list(entries)
    renamed[5] = build.PackEntry(**{**entries[5].__dict__, "list_name": "Renamed"})
    build.front_parts(FAKE_EVENT, renamed, counts, paper="a4", draw=cached)
    assert len(drawn) == first + 1 and "Renamed" in list(drawn)[-1]
    longer = list(counts)
    longer[per_page - 2] += 1  # moves the first page's last row (its strip) and the second page's (its one strip)
    build.front_parts(FAKE_EVENT, renamed, longer, paper="a4", draw=cached)
    assert len(drawn) == first + 1 + 2


def test_merge_keeps_every_page_in_order_with_a_bookmark_per_roster():
    parts = build.front_parts(FAKE_EVENT, fake_entries(2), [1, 2], paper="a4")
    one = build.html_pdf("<p>first roster</p>")
    two = build.html_pdf("<p>second roster</p><p style='break-before: page'>its second page</p>")
    reader = PdfReader(io.BytesIO(build.merge_pdf(parts, [("A: one", one), ("B: two", two)])))
    texts = [page.extract_text() for page in reader.pages]
    assert len(texts) == 5 and "Big Open" in texts[0] and "Contents" in texts[1]
    assert "first roster" in texts[2] and "second roster" in texts[3] and "its second page" in texts[4]
    marks = [(item.title, reader.get_destination_page_number(item)) for item in reader.outline]
    assert marks == [("Cover and contents", 0), ("A: one", 2), ("B: two", 3)]
    assert reader.trailer["/Root"]["/PageMode"] == "/UseOutlines"
    assert build.page_count(one) == 1 and build.page_count(two) == 2
