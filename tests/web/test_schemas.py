"""The JSON Schemas are published by the running app as well as in docs/."""
import json

from django.conf import settings


def test_the_list_schema_is_served_as_the_file_says(client, db):
    response = client.get("/schemas/list.schema.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/schema+json"
    served = json.loads(b"".join(response.streaming_content))
    assert served == json.loads((settings.BASE_DIR / "docs" / "schemas" / "list.schema.json").read_text())


def test_the_handbook_schema_is_served_and_nothing_else(client, db):
    assert client.get("/schemas/handbook.schema.json").status_code == 200
    assert client.get("/schemas/settings.py").status_code == 404
    assert client.get("/schemas/..%2Fsettings.py").status_code == 404
