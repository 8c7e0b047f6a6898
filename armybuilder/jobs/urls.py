from django.urls import path

from . import views

app_name = "jobs"
urlpatterns = [
    path("jobs/<uuid:job_id>/", views.status, name="status"),
    path("jobs/<uuid:job_id>/result", views.result, name="result"),
]
