"""The published JSON Schemas, served as the files in docs/schemas/ say them."""
from django.conf import settings
from django.http import FileResponse, Http404

SCHEMAS = {"list.schema.json", "handbook.schema.json"}


def schema(request, name: str):
    if name not in SCHEMAS:
        raise Http404("No such schema.")
    # FileResponse owns the file and closes it once the body is sent: a with-block would close it too early.
    response = FileResponse(open(settings.BASE_DIR / "docs" / "schemas" / name, "rb"),  # noqa: SIM115
                            content_type="application/schema+json")
    response["Access-Control-Allow-Origin"] = "*"  # other tools may fetch it from a browser
    return response
