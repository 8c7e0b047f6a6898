"""Forms of the browser builder. They check shape only; the services decide what makes sense."""
import re

from django import forms
from django.contrib.auth.forms import UserCreationForm

from armybuilder.services.list_files import MAX_FILE_BYTES

from .selectors import handbooks_to_start_from

POINTER = r"^(/[a-z_]+(/\d{1,4})*)*$"


def code_field(**kwargs):
    return forms.CharField(max_length=120, **kwargs)


class BookChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.name} — {obj.nation.name}" + (f", {obj.period}" if obj.period else "")


class NewListForm(forms.Form):
    handbook = BookChoiceField(queryset=handbooks_to_start_from(), label="Book",
                               empty_label="Choose a book…", help_text="The army book your force is built from.")
    points_limit = forms.IntegerField(label="Points limit", min_value=1, max_value=100000, required=False,
                                      help_text="Only for systems with points (Flames of War, Operation WW2); "
                                                "ignored for Hail of Fire and War Ain't Fair.")
    name = forms.CharField(max_length=120, required=False, label="Name of the list",
                           help_text="Optional: you can rename it any time.")

    def grouped_books(self):
        """(system name, [(pk, label, uses points, default points limit)]) for the book picker's option groups."""
        groups: dict[str, list] = {}
        field = self.fields["handbook"]
        for book in field.queryset:
            groups.setdefault(book.system.name, []).append((book.pk, field.label_from_instance(book),
                                                            book.system.uses_points,
                                                            book.system.default_points_limit))
        return list(groups.items())

    def clean(self):
        data = super().clean()
        book = data.get("handbook")
        if book is not None and not book.system.uses_points:
            data["points_limit"] = None  # no points in this system: a left-over value is not kept
        return data


class VersionForm(forms.Form):
    """Every builder action carries the version of the list the player is looking at."""

    version = forms.IntegerField(min_value=0, max_value=2**31)


class SettingsForm(VersionForm):
    name = forms.CharField(max_length=120)
    points_limit = forms.IntegerField(min_value=1, max_value=100000, required=False)
    variant = forms.CharField(max_length=120, required=False)
    # Operation WW2 (and any book with availability dates): the year the battle is set in.
    year = forms.IntegerField(min_value=1900, max_value=1960, required=False)


class SetupForm(VersionForm):
    """War Ain't Fair: a unit's (or formation's) set-up letter and a unit's outflanking flank."""

    target = forms.RegexField(POINTER, max_length=40)
    letter = forms.RegexField(r"^\s*[A-Za-z0-9]{0,4}\s*$", max_length=12, required=False,
                              error_messages={"invalid": "A set-up letter is one to four letters or digits."})
    outflank = forms.ChoiceField(choices=[("", "None"), ("left", "Left"), ("right", "Right")], required=False)


class AddFormationForm(VersionForm):
    formation = code_field(required=False)
    # An Allied Formation comes as "<book code>|<formation code>" from one picker.
    ally = forms.CharField(max_length=241, required=False)
    parent = forms.RegexField(POINTER, max_length=40, required=False)  # Operation WW2: bought with these options
    via_box = forms.CharField(max_length=120, required=False)

    def clean(self):
        data = super().clean()
        data["book"] = ""
        if data.get("ally"):
            book, sep, formation = data["ally"].partition("|")
            if not sep or not book or not formation:
                raise forms.ValidationError("Choose an Allied Formation from the list.")
            data["book"], data["formation"] = book, formation
        elif not data.get("formation"):
            raise forms.ValidationError("Choose a formation to add.")
        return data


class FormationForm(VersionForm):
    formation = forms.RegexField(POINTER, max_length=40)


class PickUnitForm(VersionForm):
    formation = forms.RegexField(POINTER, max_length=40, required=False)  # empty: a force-level support box
    box = code_field()
    unit = code_field(required=False)
    # Imported books: an alternative inside an entry that only groups alternatives, as "<unit code>|<its path>"
    # (one button carries both).
    alternative = forms.CharField(max_length=521, required=False)

    def clean(self):
        data = super().clean()
        unit, sep, path = (data.get("alternative") or "").partition("|")
        if sep:
            if not unit or not path:
                raise forms.ValidationError("Choose a unit from the box.")
            data["unit"], data["alternative"] = unit, path
        elif data.get("alternative"):
            raise forms.ValidationError("Choose a unit from the box.")
        if not data.get("unit"):
            raise forms.ValidationError("Choose a unit from the box.")
        return data


class UnitForm(VersionForm):
    unit = forms.RegexField(POINTER, max_length=40)


class SizeForm(UnitForm):
    size = code_field()


class UpgradeForm(UnitForm):
    upgrade = forms.CharField(max_length=241)
    quantity = forms.IntegerField(min_value=0, max_value=100)
    swap = forms.BooleanField(required=False)


class SelectForm(VersionForm):
    """A choice under a selection of a list on an imported book: how many of an entry (0 removes it)."""

    holder = forms.RegexField(r"^(|/(formations|support|cards)/\d{1,4}(/units/\d{1,4})?)$", max_length=40,
                              required=False)
    at = forms.RegexField(r"^(\d{1,4}(,\d{1,4}){0,15})?$", max_length=80, required=False)
    entry = forms.CharField(max_length=400)
    number = forms.IntegerField(min_value=0, max_value=10000)

    def clean_at(self):
        return tuple(int(i) for i in self.cleaned_data["at"].split(",") if i != "")


class AddCardForm(VersionForm):
    card = code_field(required=False)
    target = forms.RegexField(POINTER, max_length=40, required=False)
    # One picker for a card and what it goes to: "<card code>|<pointer>" (a card is asked for in one step).
    choice = forms.CharField(max_length=161, required=False)

    def clean(self):
        data = super().clean()
        code, sep, target = (data.get("choice") or "").partition("|")
        if sep:
            if not code or not target or not re.fullmatch(POINTER, target):
                raise forms.ValidationError("Choose what the card goes to from the list.")
            data["card"], data["target"] = code, target
        if not data.get("card"):
            raise forms.ValidationError("Choose a command card to add.")
        return data


class CardForm(VersionForm):
    card = forms.RegexField(POINTER, max_length=40)


class VisibilityForm(VersionForm):
    visibility = forms.ChoiceField(choices=[("private", "Private"), ("shared", "Shared")])


class RenameForm(VersionForm):
    name = forms.CharField(max_length=120)


class ImportForm(forms.Form):
    file = forms.FileField(required=False, label="List or roster file",
                           help_text=f"A list exported from this tool (JSON), a BattleScribe roster (.ros or .rosz) or "
                                     f"a New Recruit roster (JSON), at most {MAX_FILE_BYTES // 1024} KiB. The kind "
                                     f"of file is read from its content, whatever its name.")
    text = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
                           label="…or paste the list or roster here", max_length=MAX_FILE_BYTES)

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_FILE_BYTES:
                raise forms.ValidationError(f"The file is {upload.size} bytes; a list or roster may be at most "
                                            f"{MAX_FILE_BYTES}.")
            data["raw"] = upload.read(MAX_FILE_BYTES + 1)
            data["source"] = (upload.name or "the file")[:120]
        elif data.get("text", "").strip():
            data["raw"] = data["text"]
            data["source"] = "the pasted text"
        else:
            raise forms.ValidationError("Choose a file or paste a list to import.")
        return data


class SignUpForm(UserCreationForm):
    pass


# -- match-ups ---------------------------------------------------------------------------------------------------

class NewMatchupForm(forms.Form):
    """Two lists of one system: two of the player's own, or one of theirs and an opponent's share link."""

    list_a = forms.ChoiceField(label="Your list (force A)")
    list_b = forms.ChoiceField(label="Opponent: another of your lists", required=False)
    opponent_link = forms.CharField(label="…or paste the share link of the opponent's list", required=False,
                                    max_length=500,
                                    help_text="The read-only link the opponent's builder shows under "
                                              "“Share, save and print”.")

    def __init__(self, *args, lists=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.lists = {str(army_list.public_id): army_list for army_list in lists}
        choices = [(key, army_list.name) for key, army_list in self.lists.items()]
        self.fields["list_a"].choices = [("", "Choose a list…")] + choices
        self.fields["list_b"].choices = [("", "None: I paste a link below")] + choices

    def grouped_lists(self):
        """(system name, [(public id, label)]) for the two pickers."""
        groups: dict[str, list] = {}
        for key, army_list in self.lists.items():
            groups.setdefault(army_list.system.name, []).append((key, f"{army_list.name} — {army_list.handbook.name}"))
        return list(groups.items())

    def clean(self):
        data = super().clean()
        data["army_list_a"] = self.lists.get(data.get("list_a") or "")
        data["army_list_b"] = self.lists.get(data.get("list_b") or "")
        link = (data.get("opponent_link") or "").strip()
        if data.get("list_b") and link:
            raise forms.ValidationError("Choose one opponent: one of your lists or a share link, not both.")
        if not data.get("list_b") and not link:
            raise forms.ValidationError("Choose the opponent's list, or paste the share link of their list.")
        if data["army_list_a"] is not None and data["army_list_a"] == data["army_list_b"]:
            raise forms.ValidationError("Choose two different lists.")
        return data


class SpendingForm(forms.Form):
    break_points = forms.IntegerField(min_value=0, max_value=999, required=False)
    hero_points = forms.IntegerField(min_value=0, max_value=999, required=False)
    reductions = forms.IntegerField(min_value=0, max_value=999, required=False)

    def spending(self) -> dict:
        return {key: self.cleaned_data.get(key) or 0 for key in ("break_points", "hero_points", "reductions")}


# -- accounts ----------------------------------------------------------------------------------------------------

class DisplayNameForm(forms.Form):
    display_name = forms.CharField(max_length=60, required=False, label="Display name",
                                   help_text="Shown on the lists you share. Leave empty to show no name at all.")


class DeleteAccountForm(forms.Form):
    password = forms.CharField(widget=forms.PasswordInput, label="Your password", max_length=4096,
                               help_text="To be sure it is you.")

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.")
        return password
