"""THE HOOK FOR THE PRINTED PACK (issue 13, second part): the pack's pages and API endpoints plug in here.

The pack branch (issue-13b) fills these two lists; the event pages and the API include them, so adding the
pack needs no change in this app's urls or in armybuilder/api/urls.py.
- ``web_urlpatterns``: under /events/<uuid:event_id>/ (e.g. "pack/", "pack.pdf"); names join the "events"
  namespace.
- ``api_urlpatterns``: under /api/v1/events/<uuid:event_id>/ (e.g. "pack", "pack/job"); names join "api".
Both must use ``selectors.event_get_organised`` (or the visibility rule of ``selectors``) like every other view.
"""
web_urlpatterns: list = []
api_urlpatterns: list = []
