"""Roster downloads and the verification page over HTTP."""
import json
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.lists.selectors import army_list_document
from armybuilder.services.printing.codes import list_code


@pytest.fixture
def army_list(legal_doc, player):
    return services.army_list_import(doc=legal_doc, owner=player)


def roster_url(army_list, **query):
    url = reverse("pdf:roster", kwargs={"public_id": army_list.public_id})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_owner_downloads_the_roster_with_cards_as_a_pdf(client, player, army_list, read_pdf):
    client.force_login(player)
    response = client.get(roster_url(army_list))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="Desert-Fox-a4.pdf"'
    pdf = read_pdf(response.content)
    assert len(pdf) == 4
    assert "Erwin R." in pdf.pages[0]  # the owner's name as player, unless another is asked for
    assert f"Verification code {list_code(army_list_document(army_list))}" in pdf.pages[-1]


def test_the_roster_can_be_asked_for_on_letter_paper_without_cards_for_another_player(client, player, army_list,
                                                                                      read_pdf):
    client.force_login(player)
    response = client.get(roster_url(army_list, paper="letter", cards=0, player="Hans", event="Club%20night"))
    pdf = read_pdf(response.content)
    assert len(pdf) == 2 and pdf.size_mm(0) == (216, 279)
    assert "Hans" in pdf.pages[0] and "Club night" in pdf.pages[0] and "Erwin" not in pdf.pages[0]


def test_a_private_lists_roster_links_to_verify_with_its_code_and_a_shared_one_to_its_share_page(
        client, player, army_list, read_pdf):
    """Issue 15: the QR code of a private list pointed to an owner-only page."""
    import re

    client.force_login(player)
    private = read_pdf(client.get(roster_url(army_list, cards=0)).content)
    printed_code = re.search(r"[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}", private.pages[0]).group(0)
    assert private.has_url(f"http://testserver/verify/?code={printed_code}")
    assert not private.has_url(f"http://testserver/lists/{army_list.public_id}/")
    services.army_list_update(army_list=army_list, visibility="shared")
    shared = read_pdf(client.get(roster_url(army_list, cards=0)).content)
    assert shared.has_url(f"http://testserver/s/{army_list.share_token}/")


@pytest.mark.parametrize("query", [{"paper": "a3"}, {"cards": "yes"}, {"player": "x" * 200}])
def test_bad_roster_options_get_a_clear_400(client, player, army_list, query):
    client.force_login(player)
    response = client.get(roster_url(army_list, **query))
    assert response.status_code == 400
    assert "Bad roster options" in response.content.decode()


def test_nobody_else_can_download_a_private_roster(client, rival, army_list):
    assert client.get(roster_url(army_list)).status_code == 404
    client.force_login(rival)
    assert client.get(roster_url(army_list)).status_code == 404
    missing = reverse("pdf:roster", kwargs={"public_id": uuid.uuid4()})
    assert client.get(missing).status_code == 404


def test_a_visitor_downloads_the_roster_of_their_session_draft(client, legal_doc, read_pdf):
    session = client.session
    session.save()
    draft = services.army_list_import(doc=legal_doc, session_key=session.session_key)
    response = client.get(roster_url(draft, cards=0))
    assert response.status_code == 200
    assert "Desert Fox" in read_pdf(response.content).pages[0]


def test_a_shared_list_can_be_printed_by_anyone_with_the_link_without_the_owners_name(client, army_list, read_pdf):
    url = reverse("pdf:shared-roster", kwargs={"share_token": army_list.share_token})
    assert client.get(url).status_code == 404  # still private
    services.army_list_update(army_list=army_list, visibility="shared")  # sharing makes a new link
    url = reverse("pdf:shared-roster", kwargs={"share_token": army_list.share_token})
    response = client.get(url + "?cards=0")
    assert response.status_code == 200
    pdf = read_pdf(response.content)
    assert "Desert Fox" in pdf.pages[0] and "Erwin" not in pdf.text
    assert pdf.has_url(f"http://testserver/s/{army_list.share_token}/")


def test_the_roster_is_only_for_get(client, player, army_list):
    client.force_login(player)
    assert client.post(roster_url(army_list)).status_code == 405


# ---------------------------------------------------------------- /verify/

def test_the_verify_page_shows_a_form(client, db):
    response = client.get(reverse("pdf:verify"))
    assert response.status_code == 200
    assert b'name="code"' in response.content and b'name="list_json"' in response.content


def test_a_pasted_list_matching_the_code_is_confirmed(client, legal_doc):
    code = list_code(legal_doc)
    response = client.post(reverse("pdf:verify"), {"code": code.lower(), "list_json": json.dumps(legal_doc)})
    assert response.status_code == 200
    assert "Match: the roster with code" in response.content.decode()


def test_an_uploaded_list_that_changed_since_printing_does_not_match(client, legal_doc):
    code = list_code(legal_doc)
    legal_doc["points_limit"] = 75
    upload = SimpleUploadedFile("list.json", json.dumps(legal_doc).encode(), content_type="application/json")
    response = client.post(reverse("pdf:verify"), {"code": code, "list_file": upload})
    body = response.content.decode()
    assert response.status_code == 200
    assert "No match" in body and code in body and list_code(legal_doc) in body


def test_a_code_alone_is_checked_for_form_only(client, db):
    response = client.get(reverse("pdf:verify") + "?code=3f2a 91c0 7b4e")
    assert response.status_code == 200
    assert "3F2A-91C0-7B4E is a well-formed verification code" in response.content.decode()


def test_a_malformed_code_gets_a_clear_message_not_an_error_page(client, db):
    response = client.post(reverse("pdf:verify"), {"code": "not-a-code"})
    assert response.status_code == 400
    assert "is not a verification code" in response.content.decode()


@pytest.mark.parametrize("pasted, message", [("{broken", "not valid JSON"),
                                             ('{"format": "armybuilder-list", "version": 9}', "version")])
def test_an_unreadable_pasted_list_gets_a_clear_message(client, db, pasted, message):
    response = client.post(reverse("pdf:verify"), {"code": "3F2A-91C0-7B4E", "list_json": pasted})
    assert response.status_code == 400
    body = response.content.decode()
    assert "The list cannot be read" in body and message in body
