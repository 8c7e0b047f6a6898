"""Regression tests: download names (issue 15: CR/LF in a name made export.ros answer 500; non-ASCII names
were sent RFC 2047-encoded, which browsers do not decode)."""
from urllib.parse import unquote

import pytest

from armybuilder.lists import services as list_services


def _rename(army_list, name):
    list_services.army_list_update(army_list=army_list, name=name)


@pytest.mark.django_db
@pytest.mark.parametrize("suffix", ["export.ros", "export.rosz"])
def test_a_name_with_cr_lf_exports_as_ros_and_rosz(mini_battlescribe, player, player_client, suffix):
    army_list = list_services.army_list_import(doc=mini_battlescribe, owner=player)
    _rename(army_list, "Line one\r\nSet-Cookie: evil=1")
    response = player_client.get(f"/api/v1/lists/{army_list.public_id}/{suffix}")
    assert response.status_code == 200
    header = response["Content-Disposition"]
    assert "\r" not in header and "\n" not in header
    assert header == f'attachment; filename="Line one Set-Cookie: evil=1.{suffix.split(".")[1]}"'
    assert not response.has_header("Set-Cookie") or "evil" not in response["Set-Cookie"]


@pytest.mark.django_db
def test_a_non_ascii_name_gets_an_rfc_6266_filename_star_header(player_client, owned_list):
    _rename(owned_list, "Ürban Panzer – Kompanie")
    response = player_client.get(f"/lists/{owned_list.public_id}/roster.pdf")
    assert response.status_code == 200
    header = response["Content-Disposition"]
    assert "=?utf-8?" not in header  # no RFC 2047
    assert header.startswith("attachment; filename*=utf-8''")
    assert unquote(header.split("''", 1)[1]) == "Ürban-Panzer---Kompanie-a4.pdf"


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/lists/{id}/export.json", "/api/v1/lists/{id}/export.json",
                                 "/lists/{id}/roster.pdf", "/api/v1/lists/{id}/roster.pdf"])
def test_every_download_of_a_list_named_with_control_characters_answers_200(player_client, owned_list, url):
    _rename(owned_list, "Tab\there\x0bvertical\x1bescape\u2028line")
    response = player_client.get(url.format(id=owned_list.public_id))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert all(ord(c) >= 32 for c in response["Content-Disposition"])
