"""Tournaments under /api/v1/events/: events (organisers create and change them), registrations, submissions,
review, lock, re-check, and each submission's files. The same services and the same visibility rule as the
pages (armybuilder/services/events/selectors.py): a submission nobody may see yet answers 404, like a missing one.
"""
from django.http import Http404, HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.downloads import attachment
from armybuilder.lists.selectors import army_list_get_for_user
from armybuilder.services.events import selectors, services
from armybuilder.services.events.exports import submission_filename, submission_json, submission_pdf, submission_ros
from armybuilder.services.events.models import Event, Registration, Submission
from handbooks.models import GameSystem

from .fields import InputSerializer, StrictBooleanField, StrictCharField, StrictChoiceField, StrictIntegerField
from .files import NOT_EXPORTABLE, PDF, ROS, NotExportable, PdfRenderer, PdfThrottle, XmlRenderer
from .openapi import BODY_ERRORS, errors
from .pagination import Pagination

MAX_POINTS = 100_000


# --- output ---------------------------------------------------------------------------------------

class EventOutputSerializer(serializers.ModelSerializer):
    id = serializers.UUIDField(source="public_id", read_only=True)
    system = serializers.SlugRelatedField(read_only=True, slug_field="code")
    organisers = serializers.SerializerMethodField()

    class Meta:
        model = Event
        fields = ["id", "name", "date", "place", "system", "points_limit", "card_points", "formation_limit",
                  "allowed_books", "allowed_nations", "allowed_periods", "allowed_points_sets",
                  "current_revision_only", "deadline", "reveal_at", "late_changes", "public", "organisers",
                  "created_at", "updated_at"]

    def get_organisers(self, obj) -> list[str]:
        return [o.user.get_username() for o in obj.organisers.all()]  # prefetched with their users


class SubmissionOutputSerializer(serializers.ModelSerializer):
    id = serializers.UUIDField(source="public_id", read_only=True)
    event = serializers.UUIDField(source="registration.event.public_id", read_only=True)
    player = serializers.CharField(source="registration.player.username", read_only=True)
    name = serializers.CharField(read_only=True, help_text="The list's name as submitted.")
    status = serializers.CharField(read_only=True, help_text="submitted, approved, rejected or locked.")

    class Meta:
        model = Submission
        fields = ["id", "event", "player", "number", "name", "list_public_id", "list_version", "code", "points",
                  "card_points", "formations", "legal", "errors", "warnings", "status", "comment", "reopened",
                  "verdict_changed", "submitted_at", "checked_at"]


class SubmissionDetailOutputSerializer(SubmissionOutputSerializer):
    document = serializers.JSONField(read_only=True, help_text="The list document as it was submitted.")
    units = serializers.JSONField(read_only=True)

    class Meta(SubmissionOutputSerializer.Meta):
        fields = SubmissionOutputSerializer.Meta.fields + ["units", "document"]


class RegistrationOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Shown to organisers only (they reopen by it); null for others.",
                                  allow_null=True)
    player = serializers.CharField()
    status = serializers.CharField(allow_null=True, help_text="Organisers and the player only; null for others.")
    reopened = serializers.BooleanField(allow_null=True)
    current = SubmissionOutputSerializer(allow_null=True, help_text="The latest submission, when the caller may "
                                         "see it.")


class RecheckOutputSerializer(serializers.Serializer):
    player = serializers.CharField()
    submission = serializers.UUIDField()
    was_legal = serializers.BooleanField()
    legal = serializers.BooleanField()
    changed = serializers.BooleanField()
    errors_before = serializers.IntegerField()
    errors_after = serializers.IntegerField()


class LockOutputSerializer(serializers.Serializer):
    locked = serializers.IntegerField(help_text="How many submissions were locked.")


# --- input ----------------------------------------------------------------------------------------

class CodeListField(serializers.ListField):
    child = StrictCharField(max_length=120)

    def __init__(self, **kwargs):
        super().__init__(required=False, max_length=services.MAX_CODES, **kwargs)


class EventInputSerializer(InputSerializer):
    name = StrictCharField(max_length=120)
    date = serializers.DateField()
    place = StrictCharField(max_length=200, required=False, allow_blank=True)
    system = StrictCharField(max_length=120, help_text="Game system code, e.g. fow4.")
    points_limit = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_POINTS)
    card_points = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_POINTS)
    formation_limit = StrictIntegerField(required=False, allow_null=True, min_value=1, max_value=50)
    allowed_books = CodeListField()
    allowed_nations = CodeListField()
    allowed_periods = CodeListField()
    allowed_points_sets = CodeListField()
    current_revision_only = StrictBooleanField(required=False)
    deadline = serializers.DateTimeField()
    reveal_at = serializers.DateTimeField()
    late_changes = StrictBooleanField(required=False)
    public = StrictBooleanField(required=False)

    def validate_system(self, value):
        system = GameSystem.objects.filter(code=value).first()
        if system is None:
            raise serializers.ValidationError(f"No game system '{value}'.")
        return system


class EventUpdateInputSerializer(EventInputSerializer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["system"]
        for field in self.fields.values():
            field.required = False

    def validate(self, data):
        if not data:
            raise serializers.ValidationError("Nothing to change: send at least one field.")
        return data


class OrganiserInputSerializer(InputSerializer):
    username = StrictCharField(max_length=150)


class SubmitInputSerializer(InputSerializer):
    list = serializers.UUIDField(help_text="The id of one of your lists (of the event's system).")


class ReviewInputSerializer(InputSerializer):
    decision = StrictChoiceField(choices=["approve", "reject"])
    comment = StrictCharField(required=False, allow_blank=True, max_length=services.MAX_COMMENT)


# --- views ----------------------------------------------------------------------------------------

class EventApi(APIView):
    permission_classes = [IsAuthenticated]

    def valid(self, serializer_class) -> dict:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def event(self) -> Event:
        return selectors.event_get(public_id=self.kwargs["event_id"])

    def organised(self) -> Event:
        return selectors.event_get_organised(public_id=self.kwargs["event_id"], user=self.request.user)


def event_response(event: Event, status_code=200) -> Response:
    event = Event.objects.select_related("system").prefetch_related("organisers__user").get(pk=event.pk)
    return Response(EventOutputSerializer(event).data, status=status_code)


@extend_schema(tags=["events"])
class EventCollectionApi(EventApi):
    pagination_class = Pagination

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(summary="Events (anyone: their pages hold no list before the reveal)",
                   responses={200: EventOutputSerializer(many=True), **errors(400, 404)})
    def get(self, request):
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.events_listed(request.user).prefetch_related("organisers__user")
                                           .order_by("-date", "name", "pk"), request, view=self)
        return paginator.get_paginated_response(EventOutputSerializer(page, many=True).data)

    @extend_schema(summary="Create an event (you become its organiser)", request=EventInputSerializer,
                   responses={201: EventOutputSerializer, **errors(*BODY_ERRORS, 403)})
    def post(self, request):
        data = self.valid(EventInputSerializer)
        return event_response(services.event_create(user=request.user, **data), 201)


@extend_schema(tags=["events"])
class EventDetailApi(EventApi):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(summary="An event and its rules pack", responses={200: EventOutputSerializer, **errors(404)})
    def get(self, request, event_id):
        return event_response(self.event())

    @extend_schema(summary="Change an event (organisers)", request=EventUpdateInputSerializer,
                   responses={200: EventOutputSerializer, **errors(*BODY_ERRORS, 403, 404)})
    def patch(self, request, event_id):
        event = self.organised()
        data = self.valid(EventUpdateInputSerializer)
        return event_response(services.event_update(event=event, user=request.user, **data))

    @extend_schema(summary="Delete an event with its registrations and submissions (organisers)", request=None,
                   responses={204: OpenApiResponse(description="Deleted."), **errors(403, 404)})
    def delete(self, request, event_id):
        services.event_delete(event=self.organised(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["events"])
class EventOrganiserApi(EventApi):
    @extend_schema(summary="Add a co-organiser (organisers)", request=OrganiserInputSerializer,
                   responses={201: EventOutputSerializer, **errors(*BODY_ERRORS, 403, 404)})
    def post(self, request, event_id):
        event = self.organised()
        services.event_add_organiser(event=event, by=request.user, username=self.valid(OrganiserInputSerializer)[
            "username"])
        return event_response(event, 201)


def _registration_data(registration: Registration, viewer: selectors.Viewer) -> dict:
    mine = viewer.registration is not None and viewer.registration.pk == registration.pk
    private = viewer.organiser or mine
    current = registration.current
    return {"id": registration.pk if viewer.organiser else None, "player": registration.player.get_username(),
            "status": registration.status if private else None,
            "reopened": registration.reopened if private else None,
            "current": SubmissionOutputSerializer(current).data if current is not None and viewer.sees(current)
            else None}


@extend_schema(tags=["events"])
class RegistrationApi(EventApi):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(summary="Registered players; their lists only where the caller may see them",
                   responses={200: RegistrationOutputSerializer(many=True), **errors(404)})
    def get(self, request, event_id):
        event = self.event()
        viewer = selectors.event_viewer(event, request.user)
        registrations = (Registration.objects.filter(event=event)
                         .select_related("player", "current__registration__event", "current__registration__player")
                         .defer("current__document").order_by("player__username"))
        return Response([_registration_data(r, viewer) for r in registrations])

    @extend_schema(summary="Register yourself", request=None,
                   responses={201: RegistrationOutputSerializer, **errors(400, 403, 404)})
    def post(self, request, event_id):
        event = self.event()
        registration = services.event_register(event=event, player=request.user)
        viewer = selectors.event_viewer(event, request.user)
        return Response(_registration_data(registration, viewer), status=201)


@extend_schema(tags=["events"])
class ReopenApi(EventApi):
    @extend_schema(summary="Let one player submit once after the deadline (organisers)", request=None,
                   responses={200: RegistrationOutputSerializer, **errors(400, 403, 404)})
    def post(self, request, event_id, registration_id):
        event = self.organised()
        registration = selectors.registration_get_organised(pk=registration_id, user=request.user)
        if registration.event_id != event.pk:
            raise Http404("No such registration.")
        services.registration_reopen(registration=registration, by=request.user)
        return Response(_registration_data(registration, selectors.event_viewer(event, request.user)))


@extend_schema(tags=["events"])
class SubmissionCollectionApi(EventApi):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(summary="Current submissions the caller may see (before the reveal: only your own; "
                           "organisers: all)", responses={200: SubmissionOutputSerializer(many=True), **errors(404)})
    def get(self, request, event_id):
        event = self.event()
        viewer = selectors.event_viewer(event, request.user)
        if viewer.sees_submissions_of_others():
            shown = selectors.event_revealed_submissions(event, viewer)
        else:
            shown = [viewer.registration.current] if viewer.registration and viewer.registration.current else []
        for submission in shown:
            submission.registration.event = event
        return Response(SubmissionOutputSerializer(shown, many=True).data)

    @extend_schema(summary="Submit one of your lists (a frozen copy is kept; until the deadline you may submit "
                           "again)", request=SubmitInputSerializer,
                   responses={201: SubmissionDetailOutputSerializer, **errors(*BODY_ERRORS, 403, 404)})
    def post(self, request, event_id):
        event = self.event()
        viewer = selectors.event_viewer(event, request.user)
        if viewer.registration is None:
            raise Http404("You are not registered for this event.")
        data = self.valid(SubmitInputSerializer)
        army_list = army_list_get_for_user(user=request.user, public_id=data["list"])
        submission = services.submission_create(registration=viewer.registration, army_list=army_list,
                                                by=request.user)
        return Response(SubmissionDetailOutputSerializer(submission).data, status=201)


class SubmissionApi(APIView):
    permission_classes = [AllowAny]

    def submission(self) -> Submission:
        return selectors.submission_get_visible(public_id=self.kwargs["submission_id"], user=self.request.user)


@extend_schema(tags=["events"])
class SubmissionDetailApi(SubmissionApi):
    @extend_schema(summary="A submission with its frozen document (visible to its player and the organisers; "
                           "after the reveal also to the players, or to all for a public event)",
                   responses={200: SubmissionDetailOutputSerializer, **errors(404)})
    def get(self, request, submission_id):
        return Response(SubmissionDetailOutputSerializer(self.submission()).data)


@extend_schema(tags=["events"])
class SubmissionReviewApi(SubmissionApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Approve or reject the player's latest submission, with a comment (organisers)",
                   request=ReviewInputSerializer,
                   responses={200: SubmissionDetailOutputSerializer, **errors(*BODY_ERRORS, 403, 404)})
    def post(self, request, submission_id):
        submission = self.submission()
        serializer = ReviewInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        submission = services.submission_review(submission=submission, by=request.user,
                                                approve=data["decision"] == "approve",
                                                comment=data.get("comment", ""))
        return Response(SubmissionDetailOutputSerializer(submission).data)


def _file(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = attachment(filename)
    return response


@extend_schema(tags=["events"])
class SubmissionJsonApi(SubmissionApi):
    @extend_schema(summary="The submitted list document (JSON list format)",
                   responses={(200, "application/json"): OpenApiResponse(description="The list document."),
                              **errors(404)})
    def get(self, request, submission_id):
        submission = self.submission()
        return _file(submission_json(submission), "application/json; charset=utf-8",
                     submission_filename(submission, "json"))


@extend_schema(tags=["events"])
class SubmissionRosApi(SubmissionApi):
    renderer_classes = [XmlRenderer, JSONRenderer]

    @extend_schema(summary="The submitted list as a BattleScribe roster (lists on BattleScribe data)",
                   responses={(200, "application/xml"): ROS, **errors(404),
                              (409, "application/json"): NOT_EXPORTABLE})
    def get(self, request, submission_id):
        submission = self.submission()
        try:
            content = submission_ros(submission)
        except services.EventError as exc:
            raise NotExportable(str(exc)) from None
        return _file(content, "application/xml", submission_filename(submission, "ros"))


@extend_schema(tags=["events"])
class SubmissionPdfApi(SubmissionApi):
    renderer_classes = [PdfRenderer, JSONRenderer]
    throttle_classes = [PdfThrottle]

    @extend_schema(summary="The submitted list's roster",
                   responses={(200, "application/pdf"): PDF, **errors(400, 404, 429)})
    def get(self, request, submission_id):
        submission = self.submission()
        return _file(submission_pdf(submission), "application/pdf", submission_filename(submission, "pdf"))


@extend_schema(tags=["events"])
class LockApi(EventApi):
    @extend_schema(summary="Lock every submission: nothing more can be submitted (organisers)", request=None,
                   responses={200: LockOutputSerializer, **errors(403, 404)})
    def post(self, request, event_id):
        return Response({"locked": services.event_lock_all(event=self.organised(), by=request.user)})


@extend_schema(tags=["events"])
class RecheckApi(EventApi):
    @extend_schema(summary="Check every current submission again (after a data update); says whose verdict "
                           "changed (organisers)", request=None,
                   responses={200: RecheckOutputSerializer(many=True), **errors(403, 404)})
    def post(self, request, event_id):
        results = services.event_recheck_all(event=self.organised(), by=request.user)
        return Response([{"player": r.player, "submission": r.submission.public_id, "was_legal": r.was_legal,
                          "legal": r.legal, "changed": r.changed, "errors_before": r.errors_before,
                          "errors_after": r.errors_after} for r in results])
