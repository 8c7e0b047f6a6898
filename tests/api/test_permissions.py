"""Permission matrix (pretix style): every endpoint, as owner, another user, staff and anonymous.

A private list is invisible to everyone but its owner: they get 404, exactly as
for a list that does not exist. Sharing a list makes it readable through its
share token, never writable by others: under /lists/<id>/ a shared list still
answers 404 to them, and nothing they send changes it.
"""
import pytest

from armybuilder.lists.models import ArmyList
from tests.factories import UserFactory

from .conftest import client_for, url

# (method, path under /api/v1/lists/<id>/, body, status for the owner)
LIST_ENDPOINTS = [
    ("get", "", None, 200),
    ("patch", "", {"name": "Renamed"}, 200),
    ("delete", "", None, 204),
    ("post", "copy", {}, 201),
    ("get", "export.json", None, 200),
    ("get", "export.ros", None, 409),   # reached: the book is not BattleScribe data, so no roster
    ("get", "export.rosz", None, 409),
    ("get", "roster.pdf", None, 200),
    ("post", "formations/", {"formation": "F2"}, 200),
    ("delete", "formations/0/", None, 200),
    ("post", "formations/0/units/", {"box": "F1/g1", "unit": "INF", "size": "4x"}, 200),
    ("delete", "formations/0/units/2/", None, 200),
    ("put", "formations/0/units/1/size", {"size": "4x"}, 200),
    ("put", "formations/0/units/1/upgrades", {"upgrade": "mg/aa", "quantity": 1}, 200),
    ("post", "support/", {"box": "force/recce", "unit": "RECCE", "size": "2x"}, 200),
    ("delete", "support/0/", None, 200),
    ("put", "support/0/size", {"size": "4x"}, 200),
    # the artillery has no options: the owner gets through to the service, which refuses
    ("put", "support/0/upgrades", {"upgrade": "mg/aa", "quantity": 1}, 400),
    ("post", "cards/", {"card": "CFORM", "target": "/formations/0"}, 200),
    ("delete", "cards/0/", None, 200),
]

ROLES = ["owner", "other", "staff", "anonymous"]


def client_as(role, army):
    if role == "owner":
        return client_for(army.owner)
    if role == "other":
        return client_for(UserFactory(username="mallory"))
    if role == "staff":
        return client_for(UserFactory(username="admin", is_staff=True, is_superuser=True))
    return client_for(None)


def call(client, method, path, body, army):
    headers = {"HTTP_IF_MATCH": f'"{army.version}"'}
    return getattr(client, method)(path, body, format="json", **headers) if body is not None \
        else getattr(client, method)(path, **headers)


@pytest.mark.django_db
@pytest.mark.parametrize("visibility", ["private", "shared"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("method,path,body,owner_status", LIST_ENDPOINTS,
                         ids=[f"{m.upper()} {p or '.'}" for m, p, _, _ in LIST_ENDPOINTS])
def test_only_the_owner_reaches_a_list_under_lists(army, role, visibility, method, path, body, owner_status):
    ArmyList.objects.filter(pk=army.pk).update(visibility=visibility)
    army.refresh_from_db()
    before = army.version

    response = call(client_as(role, army), method, url(army, path), body, army)

    expected = {"owner": owner_status, "other": 404, "staff": 404, "anonymous": 401}[role]
    assert response.status_code == expected, response.content
    assert set(response.json()) == {"detail", "problems"} if expected >= 400 else True
    if role != "owner":
        army.refresh_from_db()
        assert army.version == before
        assert ArmyList.objects.filter(owner=army.owner).count() == 1  # nothing copied into anyone's account


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("method,path,owner_status,anonymous_status", [
    ("get", "", 200, 200),
    ("get", "export.json", 200, 200),
    ("get", "roster.pdf", 200, 200),
    ("post", "copy", 201, 401),
])
def test_a_shared_list_is_readable_by_anyone_with_its_token(shared_army, role, method, path, owner_status,
                                                            anonymous_status):
    client = client_as(role, shared_army)
    response = getattr(client, method)(f"/api/v1/shared/{shared_army.share_token}/{path}", format="json")
    assert response.status_code == (anonymous_status if role == "anonymous" else owner_status), response.content
    if method == "post" and role != "anonymous":
        copy = ArmyList.objects.exclude(pk=shared_army.pk).get()
        assert copy.owner.username == {"owner": "owner", "other": "mallory", "staff": "admin"}[role]
        assert copy.visibility == "private"


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("path", ["", "export.json", "copy", "roster.pdf"])
def test_a_private_list_is_not_reachable_by_its_share_token(army, role, path):
    client = client_as(role, army)
    method = client.post if path == "copy" else client.get
    response = method(f"/api/v1/shared/{army.share_token}/{path}", format="json")
    assert response.status_code == (401 if role == "anonymous" and path == "copy" else 404)
    assert ArmyList.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["owner", "other", "anonymous"])
def test_a_list_id_is_not_a_share_token(shared_army, role):
    response = client_as(role, shared_army).get(f"/api/v1/shared/{shared_army.public_id}/")
    assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("role,status", [("owner", 200), ("other", 200), ("anonymous", 401)])
def test_the_lists_collection_shows_only_your_own_lists(army, role, status):
    response = client_as(role, army).get("/api/v1/lists/")
    assert response.status_code == status
    if status == 200:
        ids = [item["id"] for item in response.json()["results"]]
        assert ids == ([str(army.public_id)] if role == "owner" else [])


@pytest.mark.django_db
@pytest.mark.parametrize("role,status", [("owner", 201), ("other", 201), ("anonymous", 401)])
def test_creating_and_importing_need_a_signed_in_user(army, role, status):
    client = client_as(role, army)
    created = client.post("/api/v1/lists/", {"system": "fow4", "handbook": "tb-germany"}, format="json")
    imported = client.post("/api/v1/lists/import", client_for(army.owner).get(url(army, "export.json")).content,
                           content_type="application/json")
    assert (created.status_code, imported.status_code) == (status, status)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["owner", "other", "anonymous"])
@pytest.mark.parametrize("path", [
    "/api/v1/systems/", "/api/v1/systems/fow4/", "/api/v1/handbooks/", "/api/v1/handbooks/fow4/tb-germany/",
    "/api/v1/handbooks/fow4/tb-germany/1/", "/api/v1/handbooks/fow4/tb-germany/1/formations/",
    "/api/v1/handbooks/fow4/tb-germany/1/formations/F1/", "/api/v1/handbooks/fow4/tb-germany/1/units/",
    "/api/v1/handbooks/fow4/tb-germany/1/units/TNK/", "/api/v1/handbooks/fow4/tb-germany/1/cards/",
])
def test_game_data_is_readable_by_everyone(army, role, path):
    assert client_as(role, army).get(path).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["owner", "other", "anonymous"])
def test_checking_a_document_is_open_to_everyone(army, role):
    document = client_for(army.owner).get(url(army, "export.json")).content
    response = client_as(role, army).post("/api/v1/check", document, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["legal"] is True
