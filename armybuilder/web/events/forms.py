"""Forms of the tournament pages. They check shape only; the services decide what makes sense."""
from django import forms
from django.utils import timezone

from handbooks.models import GameSystem, Handbook, Nation

MAX_TEXT_LIST = 1000


def _split(text: str) -> list[str]:
    return [part.strip() for part in (text or "").replace("\n", ",").split(",") if part.strip()]


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class EventForm(forms.Form):
    name = forms.CharField(max_length=120)
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), help_text="The day of the event.")
    place = forms.CharField(max_length=200, required=False)
    system = forms.ModelChoiceField(queryset=GameSystem.objects.order_by("name"), empty_label="Choose a system…")
    points_limit = forms.IntegerField(min_value=0, max_value=100000, required=False,
                                      help_text="Empty for systems without points.")
    card_points = forms.IntegerField(min_value=0, max_value=100000, required=False, label="Command-card pool",
                                     help_text="Optional points for command cards on top of the limit, e.g. 10.")
    formation_limit = forms.IntegerField(min_value=1, max_value=50, required=False,
                                         help_text="Most formations a list may field, allies included.")
    allowed_books = forms.MultipleChoiceField(required=False, help_text="None chosen: every book of the system.")
    allowed_nations = forms.MultipleChoiceField(required=False, help_text="None chosen: every nation.")
    allowed_periods = forms.CharField(max_length=MAX_TEXT_LIST, required=False,
                                      help_text="Comma separated, e.g. Mid-War. Empty: any period.")
    allowed_points_sets = forms.CharField(max_length=MAX_TEXT_LIST, required=False, label="Allowed points sets",
                                          help_text="Comma separated, as the books name them. Empty: any.")
    current_revision_only = forms.BooleanField(required=False, label="Only the current revision of each book")
    deadline = forms.DateTimeField(widget=DateTimeLocalInput(), label="List deadline (UTC)")
    reveal_at = forms.DateTimeField(widget=DateTimeLocalInput(), label="Reveal lists at (UTC)")
    late_changes = forms.BooleanField(required=False, label="Organisers may reopen a submission after the deadline")
    public = forms.BooleanField(required=False, label="Public: after the reveal anyone may see the lists")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        books = Handbook.objects.filter(is_current=True).select_related("system").order_by("system__name", "name")
        self.fields["allowed_books"].choices = [(b.code, f"{b.system.name}: {b.name}") for b in books]
        nations = Nation.objects.select_related("system").order_by("system__name", "name")
        self.fields["allowed_nations"].choices = list(dict.fromkeys(
            (n.code, n.name) for n in nations))

    def clean(self):
        data = super().clean()
        if data.get("deadline") and data.get("reveal_at") and data["reveal_at"] < data["deadline"]:
            self.add_error("reveal_at", "The reveal cannot come before the list deadline.")
        return data

    def event_fields(self) -> dict:
        data = dict(self.cleaned_data)
        data["allowed_periods"] = _split(data.get("allowed_periods", ""))
        data["allowed_points_sets"] = _split(data.get("allowed_points_sets", ""))
        return data

    @classmethod
    def initial_of(cls, event) -> dict:
        tz = timezone.get_current_timezone()
        return {"name": event.name, "date": event.date, "place": event.place, "system": event.system_id,
                "points_limit": event.points_limit, "card_points": event.card_points,
                "formation_limit": event.formation_limit, "allowed_books": event.allowed_books,
                "allowed_nations": event.allowed_nations, "allowed_periods": ", ".join(event.allowed_periods),
                "allowed_points_sets": ", ".join(event.allowed_points_sets),
                "current_revision_only": event.current_revision_only,
                "deadline": event.deadline.astimezone(tz), "reveal_at": event.reveal_at.astimezone(tz),
                "late_changes": event.late_changes, "public": event.public}


class OrganiserForm(forms.Form):
    username = forms.CharField(max_length=150, label="Account name of the co-organiser")


class SubmitForm(forms.Form):
    army_list = forms.UUIDField(label="List")


class ReviewForm(forms.Form):
    decision = forms.ChoiceField(choices=[("approve", "Approve"), ("reject", "Reject")])
    comment = forms.CharField(max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 2}))
