from django.urls import path

from . import pack_views, views

app_name = "events"
EVENT = "events/<uuid:event_id>/"
SUBMISSION = "events/submissions/<uuid:submission_id>/"

urlpatterns = [
    path("events/", views.index, name="index"),
    path("events/new/", views.event_new, name="new"),
    path(EVENT, views.event_page, name="event"),
    path(EVENT + "edit/", views.event_edit, name="edit"),
    path(EVENT + "organisers/", views.organiser_add, name="organiser-add"),
    path(EVENT + "register/", views.register, name="register"),
    path(EVENT + "submit/", views.submit, name="submit"),
    path(EVENT + "dashboard/", views.dashboard, name="dashboard"),
    path(EVENT + "lock/", views.lock_all, name="lock"),
    path(EVENT + "recheck/", views.recheck_all, name="recheck"),
    path(EVENT + "submissions/<uuid:submission_id>/review/", views.review, name="review"),
    path(EVENT + "registrations/<int:registration_id>/reopen/", views.reopen, name="reopen"),
    path(SUBMISSION, views.submission_page, name="submission"),
    path(SUBMISSION + "list.json", views.submission_export_json, name="submission-json"),
    path(SUBMISSION + "list.ros", views.submission_export_ros, name="submission-ros"),
    path(SUBMISSION + "roster.pdf", views.submission_roster, name="submission-pdf"),
    # the printed pack (the organisers' only)
    path(EVENT + "pack/", pack_views.pack_panel, name="pack"),
    path(EVENT + "pack.pdf", pack_views.pack_pdf, name="pack-pdf"),
    path(EVENT + "pack.csv", pack_views.pack_csv, name="pack-csv"),
    path(EVENT + "pack.zip", pack_views.pack_zip, name="pack-zip"),
]
