from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("armybuilder.api.urls")),
    path("", include("armybuilder.pdf.urls")),
    path("", include("armybuilder.web.urls")),
]
