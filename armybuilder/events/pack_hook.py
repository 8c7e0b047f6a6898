"""THE HOOK FOR THE PRINTED PACK (issue 13, second part): the pack's pages and API endpoints plug in here.

The event pages and the API include these two lists, so the pack needs no change in this app's urls or in
armybuilder/api/urls.py.
- ``web_urlpatterns``: under /events/<uuid:event_id>/; names join the "events" namespace.
- ``api_urlpatterns``: under /api/v1/events/<uuid:event_id>/; names join "api".
Both use ``selectors.event_get_organised``: the pack is its organisers' only.
"""
from django.urls import path

from armybuilder.api import event_pack as api
from armybuilder.events.pack import views

web_urlpatterns: list = [
    path("pack/", views.pack_panel, name="pack"),
    path("pack.pdf", views.pack_pdf, name="pack-pdf"),
    path("pack.csv", views.pack_csv, name="pack-csv"),
    path("pack.zip", views.pack_zip, name="pack-zip"),
]
api_urlpatterns: list = [
    path("pack", api.EventPackApi.as_view(), name="event-pack"),
    path("pack.pdf", api.EventPackPdfApi.as_view(), name="event-pack-pdf"),
    path("pack.csv", api.EventPackCsvApi.as_view(), name="event-pack-csv"),
    path("pack.zip", api.EventPackZipApi.as_view(), name="event-pack-zip"),
]
