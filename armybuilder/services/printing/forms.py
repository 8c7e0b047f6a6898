from django import forms

from armybuilder.lists.listjson import MAX_BYTES

from .options import EXTRAS


class RosterOptionsForm(forms.Form):
    """Query options of a roster download: ?paper=a4|letter&cards=0|1&player=…&event=…"""

    paper = forms.ChoiceField(choices=[("a4", "A4"), ("letter", "Letter")], required=False)
    cards = forms.ChoiceField(choices=[("1", "with unit cards"), ("0", "roster only")], required=False)
    player = forms.CharField(max_length=120, required=False, strip=True)
    event = forms.CharField(max_length=120, required=False, strip=True)

    # the layout extras (armybuilder.services.printing.options.EXTRAS), 0|1 each
    formation_pages = forms.ChoiceField(choices=[("1", "on"), ("0", "off")], required=False)
    casualties = forms.ChoiceField(choices=[("1", "on"), ("0", "off")], required=False)
    pick_list = forms.ChoiceField(choices=[("1", "on"), ("0", "off")], required=False)
    chart = forms.ChoiceField(choices=[("1", "on"), ("0", "off")], required=False)

    def options(self) -> dict:
        data = self.cleaned_data
        return {"paper": data.get("paper") or "a4", "cards": (data.get("cards") or "1") == "1",
                "player": data.get("player") or "", "event": data.get("event") or "",
                "extras": tuple(name for name in EXTRAS if data.get(name) == "1")}


class PrintOptionsForm(forms.Form):
    """The builder's print options, remembered with the list."""

    event = forms.CharField(max_length=120, required=False, strip=True, label="Event")
    player = forms.CharField(max_length=120, required=False, strip=True, label="Player")
    paper = forms.ChoiceField(choices=[("a4", "A4"), ("letter", "Letter")], label="Paper")
    cards = forms.BooleanField(required=False, label="Unit cards")
    formation_pages = forms.BooleanField(required=False, label=EXTRAS["formation_pages"])
    casualties = forms.BooleanField(required=False, label=EXTRAS["casualties"])
    pick_list = forms.BooleanField(required=False, label=EXTRAS["pick_list"])
    chart = forms.BooleanField(required=False, label=EXTRAS["chart"])


class VerifyForm(forms.Form):
    code = forms.CharField(max_length=40, label="Verification code", strip=True,
                           widget=forms.TextInput(attrs={"placeholder": "3F2A-91C0-7B4E", "autocomplete": "off"}))
    list_json = forms.CharField(required=False, label="The list's JSON (optional)", max_length=MAX_BYTES,
                                widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}))
    list_file = forms.FileField(required=False, label="…or the list file")

    def clean_list_file(self):
        upload = self.cleaned_data.get("list_file")
        if upload is not None and upload.size > MAX_BYTES:
            raise forms.ValidationError(f"The file is {upload.size} bytes; a list may be at most {MAX_BYTES}.")
        return upload

    def list_source(self):
        """The list to compare with (bytes or text), or None."""
        upload = self.cleaned_data.get("list_file")
        if upload is not None:
            return upload.read(MAX_BYTES + 1)
        return self.cleaned_data.get("list_json") or None
