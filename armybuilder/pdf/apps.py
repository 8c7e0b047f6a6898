from django.apps import AppConfig


class PdfConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "armybuilder.pdf"
    label = "ab_pdf"
