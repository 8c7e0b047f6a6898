"""A list's history: one entry per change, each holding the list's JSON document after the change.

Undo and Redo never rewrite history: they write an older (or newer) state as a new version, the way a
restore does, so every version stays reachable and optimistic locking works as for any other change.
Each entry says where Undo and Redo go from it:

- a change from P to V: Undo goes to P; Redo has nowhere to go (a new change drops the redo chain);
- an Undo from C back to T: Undo goes where T's Undo went, Redo goes to C;
- a Redo from C to R: Undo goes to C, Redo goes where R's Redo went;
- a restore: Undo goes to the version before it, no Redo;
- a sharing change does not touch the list's content: Undo and Redo go where they went before it.

History is bounded: the newest ``HISTORY_LIMIT`` entries are kept.
"""
import threading
from collections import OrderedDict

from django.db import transaction

from .models import ArmyList, ListVersion
from .selectors import army_list_document, remember_written_document

HISTORY_LIMIT = 50
MAX_WHAT = 200

# Entries known in this process to be kept, as (list public id, version): recorded here (once committed) or read
# by the builder for the list's current version. The entry of a list's current version is never pruned (only
# those HISTORY_LIMIT versions older are), so a writer leaving that version knows without a query that it is kept.
_KEPT: "OrderedDict[tuple, None]" = OrderedDict()
_KEPT_MAX = 2048
_kept_lock = threading.Lock()


def history_seen(army_list: ArmyList, version: int) -> None:
    """The entry of ``version`` was just read (or committed): kept, for history_baseline."""
    with _kept_lock:
        _KEPT[(army_list.public_id, version)] = None
        while len(_KEPT) > _KEPT_MAX:
            _KEPT.popitem(last=False)


# The head of an entry a change just recorded and committed in this process (its version, what, kind, undo_to and
# redo_to), by (list public id, version), when the entry its Undo goes to is known to be kept: the builder's answer
# to that change shows its undo and redo from it without reading the list's entries (history_head). A version is
# written once (the version bump is atomic), so the head never goes out of date; only heads committed are kept.
_HEADS: "OrderedDict[tuple, tuple]" = OrderedDict()


def _remember_head(public_id, head: tuple) -> None:
    with _kept_lock:
        _HEADS[(public_id, head[0])] = head
        while len(_HEADS) > _KEPT_MAX:
            _HEADS.popitem(last=False)


def history_head(army_list: ArmyList) -> tuple | None:
    """(version, what, kind, undo_to, redo_to) of the entry of the list's current version, when this process
    recorded it as a change whose Undo goes to a kept entry; else None (read the entries)."""
    return _HEADS.get((army_list.public_id, army_list.version))


def _what(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= MAX_WHAT else text[:MAX_WHAT - 1] + "…"


def history_baseline(army_list: ArmyList, version: int) -> None:
    """Before a change to a list that has no entry for its current version (a list made before history
    existed): keep its state now, so the change can be undone."""
    if (army_list.public_id, version) in _KEPT:
        return
    if not ListVersion.objects.filter(army_list_id=army_list.pk, version=version).exists():
        ListVersion.objects.create(army_list_id=army_list.pk, version=version, kind="created",
                                   what="The list as it was before its history began",
                                   document=army_list_document(army_list))


def history_record(army_list: ArmyList, what: str, *, kind: str = "change", undo_to: int | None = None,
                   redo_to: int | None = None, document: dict | None = None, written: bool = False) -> ListVersion:
    """Record the list's current version (call after the change, inside its transaction). ``document``: the list's
    document after the change when the caller has it (else it is read); ``written``: that document is the one
    army_list_document would read now, which the builder's answer may draw once the change commits."""
    version = army_list.version
    from_version = version - 1 if version > 1 else None
    if kind in ("change", "revision"):
        undo_to, redo_to = from_version, None
    elif kind == "sharing":
        before = ListVersion.objects.filter(army_list_id=army_list.pk, version=from_version).first()
        undo_to, redo_to = (before.undo_to, before.redo_to) if before else (None, None)
    if document is None:
        document, written = army_list_document(army_list), True
    if written:
        remember_written_document(army_list, document)  # what the builder's answer draws, once committed
    entry = ListVersion.objects.create(
        army_list_id=army_list.pk, version=version, from_version=from_version, kind=kind, what=_what(what),
        document=document, undo_to=undo_to, redo_to=redo_to)
    transaction.on_commit(lambda: history_seen(army_list, version))
    if kind == "change" and from_version is not None and (army_list.public_id, from_version) in _KEPT:
        # Undo goes to the entry before, kept (it is the list's version before this one, never pruned yet).
        head = (version, entry.what, kind, undo_to, redo_to)
        transaction.on_commit(lambda: _remember_head(army_list.public_id, head))
    ListVersion.objects.filter(army_list_id=army_list.pk, version__lte=version - HISTORY_LIMIT).delete()
    return entry


def history_entries(army_list: ArmyList, limit: int = HISTORY_LIMIT) -> list[ListVersion]:
    """The newest entries first, without their documents (one query, whatever the list's size)."""
    return list(ListVersion.objects.filter(army_list_id=army_list.pk).defer("document").order_by("-version")[:limit])


def history_current(entries: list[ListVersion], version: int) -> ListVersion | None:
    return next((e for e in entries if e.version == version), None)


def history_entry(army_list: ArmyList, version: int) -> ListVersion | None:
    return ListVersion.objects.filter(army_list_id=army_list.pk, version=version).first()
