"""The builder's operations: each changes the list as the service does, at the document's pointers,
and every one is guarded by If-Match (428 without it, 412 when stale, nothing changed)."""
import pytest

from armybuilder.lists.models import ArmyList, ListCard, ListFormation, ListUnit, ListUpgrade

from .conftest import if_match, url

pytestmark = pytest.mark.django_db


def doc(response):
    assert response.status_code == 200, response.json()
    return response.json()["document"]


def test_adding_a_formation_appends_it(owner_client, army):
    document = doc(owner_client.post(url(army, "formations/"), {"formation": "F2"}, format="json", **if_match(army)))
    assert [f["formation"] for f in document["formations"]] == ["F1", "F2"]


def test_adding_an_allied_formation_from_another_book(owner_client, army):
    response = owner_client.post(url(army, "formations/"), {"formation": "IF1", "allied": True,
                                                            "handbook": {"code": "tb-italy", "revision": 1}},
                                 format="json", **if_match(army))
    document = doc(response)
    assert document["formations"][1] == {"formation": "IF1", "handbook": {"code": "tb-italy", "revision": 1},
                                         "allied": True, "units": []}


def test_a_formation_from_another_book_must_be_allied(owner_client, army):
    response = owner_client.post(url(army, "formations/"), {"formation": "IF1",
                                                            "handbook": {"code": "tb-italy", "revision": 1}},
                                 format="json", **if_match(army))
    assert response.status_code == 400
    assert response.json()["detail"] == "a formation from another book can only be added as an Allied Formation"


def test_an_unknown_formation_code_is_a_400_naming_it(owner_client, army):
    response = owner_client.post(url(army, "formations/"), {"formation": "F99"}, format="json", **if_match(army))
    assert response.status_code == 400
    assert response.json()["detail"] == "Test Book Germany has no formation 'F99'"


def test_removing_a_formation_removes_its_units(owner_client, army):
    document = doc(owner_client.delete(url(army, "formations/0/"), **if_match(army)))
    assert document["formations"] == []
    assert ListUnit.objects.filter(army_list=army).count() == 1  # the support unit stays


def test_picking_a_unit_puts_it_in_the_box(owner_client, army):
    document = doc(owner_client.post(url(army, "formations/0/units/"), {"box": "F1/g1", "unit": "INF", "size": "4x"},
                                     format="json", **if_match(army)))
    assert document["formations"][0]["units"][3] == {"box": "F1/g1", "unit": "INF", "size": "4x", "upgrades": []}


def test_picking_a_unit_with_one_size_may_leave_the_size_out(owner_client, army):
    document = doc(owner_client.post(url(army, "support/"), {"box": "force/recce", "unit": "RECCE"}, format="json",
                                     **if_match(army)))
    assert document["support"][1] == {"box": "force/recce", "unit": "RECCE", "size": "2x", "upgrades": []}


def test_a_box_that_does_not_offer_the_unit_is_a_400(owner_client, army):
    response = owner_client.post(url(army, "formations/0/units/"), {"box": "F1/g3", "unit": "TNK"}, format="json",
                                 **if_match(army))
    assert response.status_code == 400
    assert response.json()["detail"] == "the box 'Recce Platoon' does not offer 'TNK'"


def test_removing_a_unit_shifts_the_ones_after_it(owner_client, army):
    document = doc(owner_client.delete(url(army, "formations/0/units/0/"), **if_match(army)))
    assert [u["box"] for u in document["formations"][0]["units"]] == ["F1/b1", "F1/b2"]


def test_removing_a_support_unit(owner_client, army):
    assert doc(owner_client.delete(url(army, "support/0/"), **if_match(army)))["support"] == []


def test_setting_a_size(owner_client, army):
    document = doc(owner_client.put(url(army, "formations/0/units/2/size"), {"size": "4x"}, format="json",
                                    **if_match(army)))
    assert document["formations"][0]["units"][2]["size"] == "4x"


def test_setting_a_size_the_unit_does_not_have_is_a_400(owner_client, army):
    response = owner_client.put(url(army, "formations/0/units/2/size"), {"size": "9x"}, format="json",
                                **if_match(army))
    assert response.status_code == 400 and response.json()["detail"] == "Tank Platoon has no size '9x'"


def test_taking_and_dropping_an_option(owner_client, army):
    taken = doc(owner_client.put(url(army, "formations/0/units/2/upgrades"), {"upgrade": "mg/aa", "quantity": 1},
                                 format="json", **if_match(army)))
    assert taken["formations"][0]["units"][2]["upgrades"] == [{"upgrade": "mg/aa", "quantity": 1}]
    dropped = doc(owner_client.put(url(army, "formations/0/units/2/upgrades"), {"upgrade": "mg/aa", "quantity": 0},
                                   format="json", **if_match(army)))
    assert dropped["formations"][0]["units"][2]["upgrades"] == []


def test_adding_a_card_to_a_formation_and_a_unit_by_pointer(owner_client, army):
    doc(owner_client.post(url(army, "cards/"), {"card": "CFORM", "target": "/formations/0"}, format="json",
                          **if_match(army)))
    document = doc(owner_client.post(url(army, "cards/"), {"card": "CUNIT", "target": "/formations/0/units/1"},
                                     format="json", **if_match(army)))
    assert document["cards"][1:] == [{"card": "CFORM", "target": "/formations/0"},
                                     {"card": "CUNIT", "target": "/formations/0/units/1"}]


@pytest.mark.parametrize("target,message", [
    ("/formations/5", "The list has nothing at /formations/5."),
    ("/formations/0/units/9", "The list has nothing at /formations/0/units/9."),
    ("/support/3", "The list has nothing at /support/3."),
    ("formations/0", "Expected a pointer like /formations/0, /formations/0/units/1 or /support/0, "
                     "got 'formations/0'."),
])
def test_a_card_target_that_points_nowhere_is_a_400_at_target(owner_client, army, target, message):
    response = owner_client.post(url(army, "cards/"), {"card": "CUNIT", "target": target}, format="json",
                                 **if_match(army))
    assert response.status_code == 400
    assert response.json()["problems"] == [{"pointer": "/target", "message": message}]
    assert ListCard.objects.filter(army_list=army).count() == 1


def test_removing_a_card(owner_client, army):
    assert doc(owner_client.delete(url(army, "cards/0/"), **if_match(army)))["cards"] == []


@pytest.mark.parametrize("method,path", [
    ("delete", "formations/3/"), ("post", "formations/3/units/"), ("delete", "formations/0/units/7/"),
    ("put", "formations/0/units/7/size"), ("put", "support/4/upgrades"), ("delete", "support/4/"),
    ("delete", "cards/2/"), ("delete", "formations/99999999999999999999/"),
])
def test_a_pointer_to_nothing_answers_404(owner_client, army, method, path):
    body = {"size": "4x", "upgrade": "mg/aa", "quantity": 1, "box": "F1/g1", "unit": "INF"}
    if method == "put" and path.endswith("size"):
        body = {"size": "4x"}
    elif method == "put":
        body = {"upgrade": "mg/aa", "quantity": 1}
    elif method == "post":
        body = {"box": "F1/g1", "unit": "INF"}
    response = getattr(owner_client, method)(url(army, path), body, format="json", **if_match(army))
    assert response.status_code == 404
    assert response.json()["detail"].startswith(("The list has nothing at", "No API endpoint"))


def test_each_write_bumps_the_etag_by_one(owner_client, army):
    first = owner_client.put(url(army, "formations/0/units/2/size"), {"size": "4x"}, format="json",
                             HTTP_IF_MATCH=f'"{army.version}"')
    second = owner_client.put(url(army, "formations/0/units/2/size"), {"size": "3x"}, format="json",
                              HTTP_IF_MATCH=first["ETag"])
    assert (first["ETag"], second["ETag"]) == (f'"{army.version + 1}"', f'"{army.version + 2}"')


def test_two_tabs_with_the_same_etag_the_second_gets_412_and_changes_nothing(owner_client, army):
    seen = f'"{army.version}"'
    first = owner_client.put(url(army, "formations/0/units/2/size"), {"size": "4x"}, format="json",
                             HTTP_IF_MATCH=seen)
    second = owner_client.post(url(army, "formations/"), {"formation": "F2"}, format="json", HTTP_IF_MATCH=seen)
    assert first.status_code == 200
    assert second.status_code == 412
    assert second["ETag"] == first["ETag"]
    assert second.json()["detail"].startswith(f"If-Match names version {army.version}, but the list is at")
    assert ListFormation.objects.filter(army_list=army).count() == 1


def test_the_service_refuses_a_version_that_moved_after_the_view_looked(owner_client, army, monkeypatch):
    """The view's early check and the service's conditional UPDATE both guard; this exercises the second."""
    from armybuilder.api import lists

    real = lists.ListApi.writable

    def writable_then_someone_else_writes(self):
        army_list, version = real(self)
        ArmyList.objects.filter(pk=army_list.pk).update(version=version + 1)
        return army_list, version

    monkeypatch.setattr(lists.ListApi, "writable", writable_then_someone_else_writes)
    response = owner_client.put(url(army, "formations/0/units/2/upgrades"), {"upgrade": "mg/aa", "quantity": 1},
                                format="json", **if_match(army))
    assert response.status_code == 412
    assert response["ETag"] == f'"{army.version + 1}"'
    assert not ListUpgrade.objects.filter(upgrade__code="aa").exists()


@pytest.mark.parametrize("method,path,body", [
    ("patch", "", {"name": "x"}), ("post", "formations/", {"formation": "F2"}), ("delete", "formations/0/", None),
    ("post", "support/", {"box": "force/recce", "unit": "RECCE"}), ("delete", "support/0/", None),
    ("put", "support/0/size", {"size": "4x"}), ("put", "formations/0/units/1/upgrades", {"upgrade": "mg/aa",
                                                                                        "quantity": 1}),
    ("post", "cards/", {"card": "CFORM"}), ("delete", "cards/0/", None), ("delete", "", None),
])
def test_every_write_without_if_match_is_428_and_changes_nothing(owner_client, army, method, path, body):
    before = army.version
    response = getattr(owner_client, method)(url(army, path), body, format="json")
    assert response.status_code == 428
    assert "If-Match" in response.json()["detail"]
    army.refresh_from_db()
    assert army.version == before


@pytest.mark.parametrize("header", ["3 4", '"1", "2"', "W/\"5\"", "abc", '"-1"'])
def test_a_malformed_if_match_is_a_400(owner_client, army, header):
    response = owner_client.put(url(army, "support/0/size"), {"size": "4x"}, format="json", HTTP_IF_MATCH=header)
    assert response.status_code == 400
    assert response.json()["detail"].startswith('If-Match must be one ETag of this list, like "3"')


def test_if_match_star_writes_whatever_the_version(owner_client, army):
    response = owner_client.post(url(army, "formations/"), {"formation": "F2"}, format="json", HTTP_IF_MATCH="*")
    assert response.status_code == 200 and len(response.json()["document"]["formations"]) == 2


def test_an_unquoted_version_is_accepted_as_if_match(owner_client, army):
    response = owner_client.delete(url(army, "cards/0/"), HTTP_IF_MATCH=str(army.version))
    assert response.status_code == 200
