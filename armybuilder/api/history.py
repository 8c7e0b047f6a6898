"""A list's history (every change, what and when, from which version), restore, undo and redo; book updates
(what moving to a newer revision of the list's book changes for this list, and the move); the player's own
names and notes on formations and units.

Writes need If-Match like every other write to a list (armybuilder/api/conditional.py): restore, undo,
redo and the move each make a NEW version, so a client that saw an older one gets 412 and nothing changes.
"""
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from armybuilder.lists import services
from armybuilder.lists.history import history_entries, history_entry
from armybuilder.lists.revisions import RevisionError, newer_revision, revision_update_for
from armybuilder.lists.services import MAX_CUSTOM_NAME, MAX_ITEM_NOTES

from . import selectors
from .conditional import etag
from .fields import InputSerializer, StrictCharField, StrictIntegerField
from .lists import BuilderApi, ListApi, ListDetailOutputSerializer
from .openapi import IF_MATCH, WRITE_ERRORS, errors

HISTORY_KINDS = ["created", "change", "undo", "redo", "restore", "revision", "sharing"]
REMOVAL_KINDS = ["formation", "unit", "size", "option", "card", "choice"]


class HistoryEntryOutputSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The list's version this change made.")
    from_version = serializers.IntegerField(allow_null=True, help_text="The version it was made from.")
    kind = serializers.ChoiceField(choices=HISTORY_KINDS)
    what = serializers.CharField(help_text="What changed, in words.")
    created_at = serializers.DateTimeField()


class HistoryEntryDetailOutputSerializer(HistoryEntryOutputSerializer):
    document = serializers.JSONField(help_text="The list as it was at this version (docs/list-format.md).")


class HistoryOutputSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The list's version now (its ETag).")
    undo_to = serializers.IntegerField(allow_null=True, help_text="The version POST undo brings back, if any.")
    redo_to = serializers.IntegerField(allow_null=True, help_text="The version POST redo brings back, if any.")
    kept = serializers.IntegerField(help_text="How many entries are kept (the newest ones).")
    entries = HistoryEntryOutputSerializer(many=True, help_text="Newest first.")


def _history(army_list) -> dict:
    entries = history_entries(army_list)
    by_version = {e.version: e for e in entries}
    current = by_version.get(army_list.version)
    undo_to = current.undo_to if current is not None and current.undo_to in by_version else None
    redo_to = current.redo_to if current is not None and current.redo_to in by_version else None
    return {"version": army_list.version, "undo_to": undo_to, "redo_to": redo_to, "kept": len(entries),
            "entries": entries}


@extend_schema(tags=["history"])
class ListHistoryApi(ListApi):
    @extend_schema(summary="The list's history: every change kept, newest first, and where undo and redo go",
                   responses={200: HistoryOutputSerializer, **errors(404)})
    def get(self, request, public_id):
        army_list = self.army_list()
        response = Response(HistoryOutputSerializer(_history(army_list)).data)
        response["ETag"] = etag(army_list.version)
        return response


@extend_schema(tags=["history"])
class ListHistoryEntryApi(ListApi):
    @extend_schema(operation_id="lists_history_version", summary="One version of the list, with its JSON document",
                   responses={200: HistoryEntryDetailOutputSerializer, **errors(404)})
    def get(self, request, public_id, version: int):
        army_list = self.army_list()
        entry = history_entry(army_list, version)
        if entry is None:
            raise NotFound(f"The list keeps no version {version} (see its history for the versions kept).")
        return Response(HistoryEntryDetailOutputSerializer(entry).data)


@extend_schema(tags=["history"])
class ListRestoreApi(BuilderApi):
    @extend_schema(summary="Restore an earlier version as a new version (the restore can be undone)",
                   parameters=[IF_MATCH], request=None,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def post(self, request, public_id, version: int):
        army_list, expected = self.writable()
        if history_entry(army_list, version) is None:
            raise NotFound(f"The list keeps no version {version} (see its history for the versions kept).")
        services.army_list_restore(army_list=army_list, version=version, expected_version=expected)
        return self.done(army_list)


@extend_schema(tags=["history"])
class ListUndoApi(BuilderApi):
    @extend_schema(summary="Undo the last change: the version before it comes back as a new version",
                   parameters=[IF_MATCH], request=None,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def post(self, request, public_id):
        army_list, expected = self.writable()
        services.army_list_undo(army_list=army_list, expected_version=expected)
        return self.done(army_list)


@extend_schema(tags=["history"])
class ListRedoApi(BuilderApi):
    @extend_schema(summary="Redo what the last undo took back, as a new version",
                   parameters=[IF_MATCH], request=None,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def post(self, request, public_id):
        army_list, expected = self.writable()
        services.army_list_redo(army_list=army_list, expected_version=expected)
        return self.done(army_list)


# --- book updates -------------------------------------------------------------------------------------------------

class PointsChangeOutputSerializer(serializers.Serializer):
    pointer = serializers.CharField(help_text="The unit's place in the list after the move.")
    name = serializers.CharField()
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    delta = serializers.IntegerField()


class RemovalOutputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=REMOVAL_KINDS)
    name = serializers.CharField()
    pointer = serializers.CharField(help_text="Where it is in the list now (before the move).")
    reason = serializers.CharField()


class RevisionUpdateOutputSerializer(serializers.Serializer):
    book = serializers.CharField()
    from_revision = serializers.IntegerField()
    to_revision = serializers.IntegerField()
    points_before = serializers.IntegerField()
    points_after = serializers.IntegerField()
    delta = serializers.IntegerField()
    card_points_before = serializers.IntegerField()
    card_points_after = serializers.IntegerField()
    summary = serializers.CharField()
    changes = PointsChangeOutputSerializer(many=True, help_text="Units whose points go up or down.")
    removed = RemovalOutputSerializer(many=True, help_text="What the new revision no longer offers: dropped on moving.")


class BookUpdateOutputSerializer(serializers.Serializer):
    revision = serializers.IntegerField(help_text="The revision the list is on.")
    newer_revision = serializers.IntegerField(allow_null=True, help_text="The book's newest revision, if newer.")
    update = RevisionUpdateOutputSerializer(allow_null=True, help_text="What moving changes for this list.")
    problem = serializers.CharField(allow_null=True, help_text="Why the list cannot be moved automatically.")


class MoveInputSerializer(InputSerializer):
    revision = StrictIntegerField(min_value=1, max_value=selectors.MAX_INDEX, required=False,
                                  help_text="The revision to move to; the newest when left out.")


@extend_schema(tags=["history"])
class ListBookUpdateApi(BuilderApi):
    @extend_schema(summary="Is the list's book newer, and what would moving change for this list",
                   responses={200: BookUpdateOutputSerializer, **errors(404)})
    def get(self, request, public_id):
        army_list = self.army_list()
        newer = newer_revision(army_list)
        body = {"revision": army_list.handbook.revision, "newer_revision": newer.revision if newer else None,
                "update": None, "problem": None}
        if newer is not None:
            try:
                body["update"] = revision_update_for(army_list, revision=newer.revision).as_dict()
            except RevisionError as exc:
                body["problem"] = str(exc)
        response = Response(BookUpdateOutputSerializer(body).data)
        response["ETag"] = etag(army_list.version)
        return response

    @extend_schema(summary="Move the list to a newer revision of its book, as a new version (undo goes back)",
                   parameters=[IF_MATCH], request=MoveInputSerializer,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def post(self, request, public_id):
        army_list, expected = self.writable()
        data = self.valid(MoveInputSerializer)
        services.army_list_move_to_revision(army_list=army_list, revision=data.get("revision"),
                                            expected_version=expected)
        return self.done(army_list)


# --- names and notes --------------------------------------------------------------------------------------------

class NameNotesInputSerializer(InputSerializer):
    custom_name = StrictCharField(max_length=MAX_CUSTOM_NAME, required=False, allow_blank=True,
                                  help_text="Your own name for it; empty clears it.")
    notes = StrictCharField(max_length=MAX_ITEM_NOTES, required=False, allow_blank=True,
                            help_text="Your notes on it; empty clears them.")

    def validate(self, data):
        if not data:
            raise serializers.ValidationError("give custom_name, notes or both")
        return data


@extend_schema(tags=["builder"])
class NameNotesApi(BuilderApi):
    @extend_schema(summary="Your own name and notes for a formation or unit (shown in the roster and exports)",
                   parameters=[IF_MATCH], request=NameNotesInputSerializer,
                   responses={200: ListDetailOutputSerializer, **errors(*WRITE_ERRORS)})
    def put(self, request, public_id, formation: int | None = None, unit: int | None = None):
        army_list, expected = self.writable()
        if unit is None:
            target = selectors.list_formation_at(army_list=army_list, index=formation)
        else:
            target = selectors.list_unit_at(army_list=army_list, formation_index=formation, index=unit)
        data = self.valid(NameNotesInputSerializer)
        services.army_list_set_name_notes(army_list=army_list, target=target, custom_name=data.get("custom_name"),
                                          notes=data.get("notes"), expected_version=expected)
        return self.done(army_list)
