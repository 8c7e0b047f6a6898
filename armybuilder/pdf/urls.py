from django.urls import path

from . import views

app_name = "pdf"
urlpatterns = [
    path("lists/<uuid:public_id>/roster.pdf", views.roster, name="roster"),
    path("s/<uuid:share_token>/roster.pdf", views.shared_roster, name="shared-roster"),
    path("verify/", views.verify, name="verify"),
]
