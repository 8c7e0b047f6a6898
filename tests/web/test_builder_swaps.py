"""An action's answer carries only what changed, and carries all of it.

The browser (static/web/builder.js) sends the digests of the boxes it shows in the section acted in; the answer
then holds the boxes that show something else now, the section's head, the points and the problems, each swapped
in by id. These tests play the browser: they apply an answer's parts to the page as it was, and the page must
then read exactly as the page a reload gives (so nothing that changed was left out), while every box that was
left out must be the same in both pages (so nothing that did not change was sent).
"""
import re

import pytest
from django.urls import reverse

from armybuilder.lists.models import ListUnit
from armybuilder.lists.selectors import army_list_report

from .conftest import action

pytestmark = pytest.mark.django_db

_START = re.compile(r'<(\w+)\b[^>]*\bid="([^"]+)"[^>]*>')


def element(html: str, start: int) -> tuple[str, str, int]:
    """(tag, id, end) of the element whose start tag begins at ``start`` (same-name nesting counted)."""
    match = _START.match(html, start)
    assert match, html[start:start + 200]
    tag, depth, pos = match[1], 1, match.end()
    if match[0].endswith("/>"):
        return tag, match[2], pos
    pattern = re.compile(rf"<(/?){tag}\b[^>]*>")
    while depth:
        found = pattern.search(html, pos)
        assert found, f"unclosed <{tag} id={match[2]}>"
        depth += -1 if found[1] else 1
        pos = found.end()
    return tag, match[2], pos


def by_id(html: str, anchor: str) -> str:
    at = re.search(rf'<\w+\b[^>]*\bid="{re.escape(anchor)}"', html)
    assert at, anchor
    return html[at.start():element(html, at.start())[2]]


def _end_of_div(html: str, start: int) -> int:
    depth, pos, pattern = 0, start, re.compile(r"<(/?)div\b[^>]*>")
    while True:
        found = pattern.search(html, pos)
        depth += -1 if found[1] else 1
        pos = found.end()
        if not depth:
            return pos


def parts(answer: str) -> dict[str, str]:
    """The answer's top-level elements by id, as htmx swaps them (the hx-swap-oob mark dropped)."""
    out, pos = {}, 0
    while True:
        while pos < len(answer) and answer[pos].isspace():
            pos += 1
        if pos >= len(answer):
            return out
        title = re.compile(r"<title>([^<]*)</title>").match(answer, pos)
        if title:  # htmx makes it the document's title
            out["title"], pos = title[1], title.end()
            continue
        where = re.compile(r'<div hx-swap-oob="(\w+:#[\w-]+)">').match(answer, pos)
        if where:
            end = _end_of_div(answer, pos)
            out[f"oob:{where[1]}"] = answer[pos:end]
            pos = end
            continue
        _, anchor, end = element(answer, pos)
        out[anchor] = answer[pos:end].replace(' hx-swap-oob="true"', "")
        pos = end


def normal(html: str) -> str:
    """A page without what differs from one response to the next whatever the list: the CSRF tokens, the
    version in each form (htmx sends #list-version's instead), the builder's first version; and without the
    white space between tags."""
    html = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">', "", html)
    html = re.sub(r'<input type="hidden" name="version" value="\d+">', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]*"', "", html)
    html = re.sub(r'(id="builder"[^>]*) data-version="\d+"', r"\1", html)
    return re.sub(r">\s+<", "><", html)


def seen(page: str) -> dict:
    """What builder.js sends with every action: each formation's and box's digest, the cards' and the chart's."""
    digests = re.findall(r'<section class="(?:formation|box)\b[^"]*" id="([^"]+)"[^>]*data-digest="([0-9a-f]+)"', page)
    cards = re.search(r'id="cards"[^>]*data-digest="([0-9a-f]+)"', page)
    chart = re.search(r'id="composition-chart"[^>]*data-digest="([0-9a-f]+)"', page)
    return {"HTTP_X_BUILDER_BOXES": " ".join(f"{a}={d}" for a, d in digests),
            **({"HTTP_X_CARDS_DIGEST": cards[1]} if cards else {}),
            **({"HTTP_X_CHART_DIGEST": chart[1]} if chart else {})}


def box_ids(html: str, section: str) -> list[str]:
    return re.findall(rf'class="box[^"]*" id="({section}-box-[^"]+)"', html)


def play(client, army, name, /, **data):
    """The page before, the answer to the action posted from it, the page after applying it, a reload."""
    url = reverse("web:builder", args=[army.public_id])
    before = client.get(url).content.decode()
    response = action(client, army, name, **seen(before), **data)
    assert response.status_code == 200 and "alert--error" not in response.content.decode()
    answer = response.content.decode()
    applied = before
    for anchor, html in parts(answer).items():
        if anchor.startswith("oob:"):  # hx-swap-oob="<how>:<where>": the element's content goes there
            how, where = anchor[4:].split(":#")
            inner = html[html.index(">") + 1:html.rindex("</")]
            assert how == "beforebegin", how
            at = re.search(rf'<\w+\b[^>]*\bid="{where}"', applied).start()
            applied = applied[:at] + inner + applied[at:]
            continue
        if 'hx-swap-oob="delete"' in html:
            applied = applied.replace(by_id(applied, anchor), "", 1)
            continue
        if anchor == "builder-alert":
            continue  # the action's own reply ("Saved."), not part of the list: a reload has none
        if anchor == "title":
            applied = re.sub(r"<title>[^<]*</title>", f"<title>{html}</title>", applied, count=1)
            continue
        old = by_id(applied, anchor)
        applied = applied.replace(old, html, 1)
    applied = open_history(client, applied)
    reload = client.get(url).content.decode()
    return before, response, parts(answer), applied, reload


_PENDING_HISTORY = re.compile(r'<div class="history-entries" id="history-entries" data-src="([^"]+)">.*?</div>', re.S)


def open_history(client, page: str) -> str:
    """What static/web/history.js does when the player opens a History panel drawn without its entries: it
    fetches them and puts them in the panel."""
    pending = _PENDING_HISTORY.search(page)
    if pending is None:
        return page
    entries = client.get(pending[1], HTTP_HX_REQUEST="true")
    assert entries.status_code == 200
    holder = f'<div class="history-entries" id="history-entries">{entries.content.decode()}</div>'
    return page[:pending.start()] + holder + page[pending.end():]


def test_a_pick_sends_the_box_it_fills_and_the_page_then_reads_as_a_reload(player_client, army):
    before, response, sent, applied, reload = play(player_client, army, "pick", formation="/formations/0",
                                                   box="SG100/panzer-2", unit="SG103")
    assert response["HX-Retarget"] == "#list-version" and response["HX-Reswap"] == "outerHTML"
    assert ListUnit.objects.filter(army_list=army, box__code="SG100/panzer-2", unit__code="SG103").exists()
    # The box picked into changed (a Panzer IV platoon in it now), so did the points and the problems.
    assert "f0-box-sg100-panzer-2" in sent and "Panzer IV Tank Platoon" in sent["f0-box-sg100-panzer-2"]
    for anchor in ("list-version", "summary", "side-totals", "issues", "f0-head", "f0-issues", "builder-alert"):
        assert anchor in sent, anchor
    report = army_list_report(army)
    assert f'<span class="big">{report.total_points}</span>' in sent["summary"]
    army.refresh_from_db()
    assert f'data-version="{army.version}"' in sent["list-version"]
    # The HQ box shows what it showed: it stays out.
    assert "f0-box-sg100-hq" not in sent
    assert normal(applied) == normal(reload)
    boxes = box_ids(before, "f0")
    assert boxes and set(boxes) == set(box_ids(reload, "f0"))
    for anchor in boxes:
        same = normal(by_id(before, anchor)) == normal(by_id(reload, anchor))
        assert same == (anchor not in sent), anchor


def test_removing_a_compulsory_unit_brings_its_error_to_the_box_and_the_problems(player_client, army):
    before, response, sent, applied, reload = play(player_client, army, "remove-unit", unit="/formations/0/units/1")
    assert not ListUnit.objects.filter(army_list=army, unit__code="SG102").exists()
    assert "f0-box-sg100-panzer-1" in sent
    assert "Fix: Add one unit from: Panzer III Tank Platoon, Panzer IV Tank Platoon." in sent["f0-box-sg100-panzer-1"]
    assert 'href="#f0-box-sg100-panzer-1"' in sent["issues"]
    errors = sum(1 for i in army_list_report(army).issues if i.severity == "error")
    assert f"{errors} error{'' if errors == 1 else 's'}" in sent["summary"]
    assert normal(applied) == normal(reload)


def test_changing_a_size_leaves_the_command_cards_out_when_they_show_the_same(player_client, army):
    before, response, sent, applied, reload = play(player_client, army, "size", unit="/formations/0/units/1",
                                                   size="four-tanks")
    assert "cards" not in sent and "f0-box-sg100-panzer-1" in sent
    assert "f0-box-sg100-panzer-2" not in sent
    assert normal(applied) == normal(reload)


def test_a_support_pick_sends_the_support_boxes_that_changed_and_the_support_points(player_client, army):
    before, response, sent, applied, reload = play(player_client, army, "pick", box="force/artillery",
                                                   unit="SG110", size="four-guns")
    assert "support-title" in sent and "support-box-force-artillery" in sent
    assert len([a for a in sent if a.startswith("support-box-")]) < len(box_ids(before, "support"))
    assert normal(applied) == normal(reload)


def test_digests_of_an_unchanged_list_are_the_same_from_one_page_to_the_next(player_client, army):
    url = reverse("web:builder", args=[army.public_id])
    first, second = (player_client.get(url).content.decode() for _ in range(2))
    assert re.findall(r'data-digest="([0-9a-f]+)"', first) == re.findall(r'data-digest="([0-9a-f]+)"', second)
    assert len(re.findall(r'class="box[^"]*"[^>]*data-digest=', first)) >= 3


@pytest.mark.parametrize("header", ["", "f0-box-sg100-hq=0123456789abcdef", "nonsense " * 50, "x" * 20_000])
def test_without_a_full_account_of_the_section_the_whole_formation_goes(player_client, army, header):
    """An old page, a box missing from the list or a header that cannot be read: the section is drawn whole."""
    response = action(player_client, army, "size", unit="/formations/0/units/1", size="four-tanks",
                      HTTP_X_BUILDER_BOXES=header)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#f0"
    assert response.content.decode().lstrip().startswith('<section class="formation" id="f0"')


def test_the_card_offers_come_when_the_panel_asks_for_them(player_client, army):
    page = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    offers_url = reverse("web:card-offers", args=[army.public_id])
    offer = re.compile(r'class="card-offer[ "]')
    assert not offer.search(page) and f'data-src="{offers_url}"' in page
    offers = player_client.get(offers_url, HTTP_HX_REQUEST="true")
    assert offers.status_code == 200 and offers["Cache-Control"] == "no-store"
    html = offers.content.decode()
    # Every card of the sample book by name, each once: counted from the book's own rows.
    from handbooks.models import CommandCard
    names = set(CommandCard.objects.filter(handbook=army.handbook).values_list("name", flat=True))
    assert names and set(re.findall(r'data-name="([^"]+)"', html)) == {n.lower() for n in names}
    assert "csrfmiddlewaretoken" not in html  # htmx posts them with its header
    # Without JavaScript the page's link shows them in the page itself, each form with its token.
    full = player_client.get(reverse("web:builder", args=[army.public_id]) + "?cards=all").content.decode()
    assert len(offer.findall(full)) == len(offer.findall(html)) == len(names)
    assert "csrfmiddlewaretoken" in by_id(full, "card-offer-groups")


def test_someone_elses_card_offers_are_not_found(client, army):
    assert client.get(reverse("web:card-offers", args=[army.public_id])).status_code == 404


def test_new_settings_send_the_title_the_settings_and_the_points_but_no_box_that_shows_the_same(player_client, army):
    before, response, sent, applied, reload = play(player_client, army, "settings", name="Afrika Korps at 80",
                                                   points_limit=80, variant="")
    assert response["HX-Retarget"] == "#list-version"
    assert "Afrika Korps at 80" in sent["list-title"] and 'value="80"' in sent["list-settings"]
    assert sent["title"] == "Afrika Korps at 80 — Army Builder"
    assert "/ 80 points" in sent["summary"] and "Saved." in sent["builder-alert"]
    assert not [a for a in sent if "-box-" in a]  # no box shows anything else for a new name and limit
    assert normal(applied) == normal(reload)


def test_a_new_variant_redraws_the_whole_builder(player_client, army):
    page = player_client.get(reverse("web:builder", args=[army.public_id])).content.decode()
    response = action(player_client, army, "settings", name="Desert Fox", points_limit=100, variant="pz15",
                      **seen(page))
    assert response.status_code == 200 and "HX-Retarget" not in response
    assert response.content.decode().lstrip().startswith('<div id="builder"')


def test_sharing_sends_the_share_form(player_client, army):
    before, response, sent, applied, reload = play(player_client, army, "visibility", visibility="shared")
    assert "/s/" in sent["share-form"] and not [a for a in sent if "-box-" in a]
    assert normal(applied) == normal(reload)
    before, response, sent, applied, reload = play(player_client, army, "new-link")
    army.refresh_from_db()
    assert str(army.share_token) in sent["share-form"] and str(army.share_token) not in before
    assert normal(applied) == normal(reload)


def test_adding_a_formation_sends_it_whole_and_moves_focus_into_it(player_client, army):
    before, response, sent, applied, reload = play(player_client, army, "add-formation", formation="SG150")
    assert response["HX-Retarget"] == "#list-version"
    assert list(sent).count("oob:beforebegin:#add-formation") == 1
    assert 'id="f1"' in sent["oob:beforebegin:#add-formation"]
    assert 'data-focus="f1"' in sent["builder-focus"]
    assert not [a for a in sent if a.startswith("f0-box-")]  # the first company shows what it showed
    assert normal(applied).replace('<div id="builder-focus" data-focus="f1" hidden></div>',
                                   '<div id="builder-focus" hidden></div>') == normal(reload)


def test_removing_a_formation_takes_it_away_and_redraws_the_ones_after_it(player_client, army):
    from armybuilder.lists import services as s

    s.army_list_add_formation(army_list=army, formation_code="SG150")
    third = s.army_list_add_formation(army_list=army, formation_code="SG150")
    s.army_list_pick_unit(army_list=army, list_formation=third, box_code="SG150/hq", unit_code="SG116",
                          size_code="two-teams")
    before, response, sent, applied, reload = play(player_client, army, "remove-formation", formation="/formations/1")
    assert 'hx-swap-oob="delete"' in sent["f2"]  # the last place is gone
    # The company that was third is second now: in the same boxes as the one removed, so only its HQ box changed.
    assert "f1-box-sg150-hq" in sent and "Panzergrenadier Company HQ" in sent["f1-box-sg150-hq"] and "f1" not in sent
    assert "f0-head" in sent and not [a for a in sent if a.startswith("f0-box-")]
    assert normal(applied) == normal(reload)

