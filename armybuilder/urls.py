from django.contrib import admin
from django.urls import include, path

from . import health

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("api/", include("armybuilder.api.urls")),
    path("", include("armybuilder.jobs.urls")),
    path("", include("armybuilder.pdf.urls")),
    path("", include("armybuilder.web.events.urls")),
    path("", include("armybuilder.web.urls")),
]

handler500 = "armybuilder.errors.server_error"
handler400 = "armybuilder.errors.bad_request"
