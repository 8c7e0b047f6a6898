"""The builder's history, undo and redo, book updates and the player's own names and notes.

Kept apart from views.py so the builder's core stays small: this module gives the forms and runners of
its actions (views.ACTIONS lists them) and the context the partials in templates/web/builder_history.html
and builder_names.html draw from. Every write goes through armybuilder.lists.services.
"""
from dataclasses import dataclass, field

from django import forms

from armybuilder.lists import services as list_services
from armybuilder.lists.history import HISTORY_LIMIT, history_entries, history_head, history_seen
from armybuilder.lists.models import ListVersion
from armybuilder.lists.pointers import list_target_at
from armybuilder.lists.revisions import RevisionError, newer_revision, revision_update
from armybuilder.lists.selectors import DbCatalog, army_list_document
from armybuilder.lists.services import MAX_CUSTOM_NAME, MAX_ITEM_NOTES

from .forms import POINTER, VersionForm

SHOWN_ENTRIES = 10  # the panel lists this many (every answer carries it); "show all" and the API give every kept one


# -- forms ---------------------------------------------------------------------------------------------------------
class RestoreForm(VersionForm):
    to = forms.IntegerField(min_value=1, max_value=2**31, label="version to restore")


class MoveRevisionForm(VersionForm):
    revision = forms.IntegerField(min_value=1, max_value=2**31)


class NameNotesForm(VersionForm):
    target = forms.RegexField(POINTER, max_length=40)
    custom_name = forms.CharField(max_length=MAX_CUSTOM_NAME, required=False, strip=True, label="name")
    notes = forms.CharField(max_length=MAX_ITEM_NOTES, required=False, strip=True, widget=forms.Textarea)


# -- runners (views.ACTIONS) -----------------------------------------------------------------------------------------
def run_undo(army_list, data, version):
    list_services.army_list_undo(army_list=army_list, expected_version=version)


def run_redo(army_list, data, version):
    list_services.army_list_redo(army_list=army_list, expected_version=version)


def run_restore(army_list, data, version):
    list_services.army_list_restore(army_list=army_list, version=data["to"], expected_version=version)


def run_move_revision(army_list, data, version):
    list_services.army_list_move_to_revision(army_list=army_list, revision=data["revision"], expected_version=version)


def run_name_notes(army_list, data, version):
    target = list_target_at(army_list, data["target"])
    list_services.army_list_set_name_notes(army_list=army_list, target=target, custom_name=data["custom_name"],
                                           notes=data["notes"], expected_version=version)


# Actions after which the page offers to undo what was just done, with the words for it.
UNDO_OFFERED = {"remove-formation", "remove-unit", "remove-card", "move-revision", "restore"}


# -- what the partials show ---------------------------------------------------------------------------------------
@dataclass
class HistoryView:
    entries: list  # ListVersion (no documents), newest first
    current: object  # the entry of the list's version, or None
    undo_to: int | None = None
    redo_to: int | None = None
    undo_what: str = ""
    redo_what: str = ""
    more: int = 0  # kept entries not shown in the panel

    @property
    def can_undo(self) -> bool:
        return self.undo_to is not None

    @property
    def can_redo(self) -> bool:
        return self.redo_to is not None


@dataclass(frozen=True)
class HistoryHead:
    """What the toolbar and the undo notice show of a kept entry (HistoryView without its entries)."""
    version: int
    what: str
    kind: str
    undo_to: int | None
    redo_to: int | None


def history_view(army_list, *, shown: int = SHOWN_ENTRIES, entries: bool = True) -> HistoryView:
    """One query, whatever the list's size: the kept entries without their documents (the newest ``shown``).
    ``entries=False``: for an answer that does not draw the panel's entries (a closed panel fetches them when it
    is opened), only the undo and redo of the current version (the same query, for five columns of each)."""
    if entries:
        kept = history_entries(army_list)
    elif (head := history_head(army_list)) is not None:
        # A change this process just recorded (kind "change": Undo goes to the version before, which is kept, and
        # there is no Redo): what _history_view would make of the entries, without reading them.
        current = HistoryHead(*head)
        return HistoryView(entries=[], current=current, undo_to=current.undo_to, undo_what=f"Undo “{current.what}”")
    else:
        kept = [HistoryHead(*row) for row in ListVersion.objects.filter(army_list_id=army_list.pk).order_by(
            "-version").values_list("version", "what", "kind", "undo_to", "redo_to")[:HISTORY_LIMIT]]
    view = _history_view(army_list, kept, shown)
    if not entries:
        view.entries, view.more = [], 0
    return view


def _history_view(army_list, entries: list, shown: int) -> HistoryView:
    by_version = {e.version: e for e in entries}
    current = by_version.get(army_list.version)
    if current is not None:
        history_seen(army_list, current.version)  # the next change need not look for it (history_baseline)
    view = HistoryView(entries=entries[:shown], current=current, more=max(0, len(entries) - shown))
    if current is not None:
        if current.undo_to in by_version:
            view.undo_to = current.undo_to
            if current.kind in ("change", "revision", "restore"):
                view.undo_what = f"Undo “{current.what}”"
            else:
                view.undo_what = f"Back to version {current.undo_to}: “{by_version[current.undo_to].what}”"
        if current.redo_to in by_version:
            view.redo_to = current.redo_to
            view.redo_what = f"Redo “{by_version[current.redo_to].what}”"
    return view


@dataclass
class BookUpdateView:
    update: object = None  # RevisionUpdate
    problem: str = ""  # why the list cannot be moved automatically
    newer_name: str = ""
    newer_revision: int = 0
    dearer: list = field(default_factory=list)
    cheaper: list = field(default_factory=list)


def book_update_view(army_list) -> BookUpdateView | None:
    """None while the book has no newer revision (one query); else what moving would change for this list
    (a fixed number of queries more: the list's document, the new revision's data once per process)."""
    newer = newer_revision(army_list)
    if newer is None:
        return None
    view = BookUpdateView(newer_name=newer.name, newer_revision=newer.revision)
    try:
        view.update = revision_update(army_list_document(army_list), newer.revision, DbCatalog())
    except RevisionError as exc:
        view.problem = str(exc)
        return view
    view.dearer = [c for c in view.update.changes if c.delta > 0]
    view.cheaper = [c for c in view.update.changes if c.delta < 0]
    return view

