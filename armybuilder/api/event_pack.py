"""The printed pack of an event in the API, for its organisers (everyone else: 404, like a missing event).

POST /api/v1/events/{id}/pack        build it (202 and the job; 200 when the pack of these submissions is built)
GET  /api/v1/events/{id}/pack        the latest build: its job (poll it), whether it is up to date, its files
GET  /api/v1/events/{id}/pack.pdf    cover, contents and every approved roster with its unit cards
GET  /api/v1/events/{id}/pack.csv    players, lists, points and verification codes, for pairing tools
GET  /api/v1/events/{id}/pack.zip    every list as JSON (and .ros when its books came from BattleScribe data)
"""
from django.http import Http404, HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.downloads import attachment
from armybuilder.jobs.models import Job
from armybuilder.services.events import selectors
from armybuilder.services.events.pack import services as pack
from armybuilder.services.printing.render import PAPERS

from .fields import InputSerializer, StrictChoiceField
from .files import _FileRenderer
from .jobs import POLL_SECONDS, JobOutputSerializer, JobThrottle, job_data
from .openapi import BODY_ERRORS, errors


class PackInputSerializer(InputSerializer):
    paper = StrictChoiceField(choices=sorted(PAPERS), required=False, default="a4")


class PackFilesSerializer(serializers.Serializer):
    pdf = serializers.CharField()
    csv = serializers.CharField()
    zip = serializers.CharField()


class PackOutputSerializer(serializers.Serializer):
    job = JobOutputSerializer(help_text="The latest build; poll this endpoint while its status is queued or running.")
    up_to_date = serializers.BooleanField(help_text="false: a submission changed since; build again.")
    files = PackFilesSerializer(allow_null=True, help_text="Where to download the finished pack.")


def _files(event_id) -> dict:
    return {part: reverse(f"api:event-pack-{part}", kwargs={"event_id": event_id}) for part in ("pdf", "csv", "zip")}


def _job_body(job: Job, event_id) -> dict:
    data = job_data(job)
    # The job's own result URL is its starter's only; every organiser downloads through the pack's URLs.
    data["result_url"] = _files(event_id)["pdf"] if job.status == Job.SUCCEEDED else None
    return data


def _pack_response(state: pack.PackState, event_id, status_code: int = 200) -> Response:
    job = state.job
    response = Response({"job": _job_body(job, event_id), "up_to_date": state.up_to_date,
                         "files": _files(event_id) if job.status == Job.SUCCEEDED else None}, status=status_code)
    if not job.finished:
        response["Retry-After"] = str(POLL_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class _PackApi(APIView):
    permission_classes = [IsAuthenticated]

    def organised(self):
        return selectors.event_get_organised(public_id=self.kwargs["event_id"], user=self.request.user)


@extend_schema(tags=["events"])
class EventPackApi(_PackApi):
    def get_throttles(self):
        return [JobThrottle()] if self.request.method == "POST" else super().get_throttles()

    @extend_schema(operation_id="events_pack_status", summary="The event's printed pack: its latest build (organisers)",
                   description="404 until a build was started. Poll while job.status is queued or running "
                               "(Retry-After); files are there once it succeeded.",
                   responses={200: PackOutputSerializer, **errors(404)})
    def get(self, request, event_id):
        event = self.organised()
        state = pack.event_pack_state(event=event, user=request.user)
        if state.job is None:
            raise Http404("This event's pack was never built: POST to this URL to build it.")
        return _pack_response(state, event_id)

    @extend_schema(operation_id="events_pack_build",
                   summary="Build the printed pack: PDF, CSV and ZIP of every approved list (organisers)",
                   description="Answers 202 with the job while it runs (poll GET on this URL, or the Location). "
                               "The same approved submissions give the same pack back: 200 once it is built. "
                               "Rosters already drawn for these submissions come from the cache.",
                   request=PackInputSerializer,
                   responses={200: PackOutputSerializer, 202: PackOutputSerializer,
                              **errors(*BODY_ERRORS, 404, 429)})
    def post(self, request, event_id):
        event = self.organised()
        serializer = PackInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        job = pack.event_pack_start(event=event, user=request.user, paper=serializer.validated_data["paper"])
        # The job was just found or made for the submissions as they are: it is the up-to-date one.
        response = _pack_response(pack.PackState(job=job, up_to_date=True), event_id,
                                  200 if job.status == Job.SUCCEEDED else 202)
        response["Location"] = reverse("api:event-pack", kwargs={"event_id": event_id})
        return response


class _AnyFile(_FileRenderer):
    media_type = "*/*"
    format = "file"


def _file_view(part: str, media_type: str, summary: str):
    class Renderer(_FileRenderer):
        pass

    Renderer.media_type, Renderer.format = media_type, part

    @extend_schema(tags=["events"])
    class PackFileApi(_PackApi):
        renderer_classes = [Renderer, _AnyFile, JSONRenderer]

        @extend_schema(operation_id=f"events_pack_{part}", summary=summary,
                       responses={(200, media_type): OpenApiResponse(OpenApiTypes.BINARY), **errors(404)})
        def get(self, request, event_id):
            event = self.organised()
            content, filename, content_type = pack.event_pack_file(event=event, user=request.user, part=part)
            response = HttpResponse(content, content_type=content_type)
            response["Content-Disposition"] = attachment(filename)
            response["Cache-Control"] = "private, no-store"
            return response

    PackFileApi.__name__ = PackFileApi.__qualname__ = f"EventPack{part.capitalize()}Api"
    return PackFileApi


EventPackPdfApi = _file_view("pdf", "application/pdf",
                             "The pack's PDF: cover, contents and every approved roster with its cards (organisers)")
EventPackCsvApi = _file_view("csv", "text/csv",
                             "The pack's CSV: players, lists, points and verification codes (organisers)")
EventPackZipApi = _file_view("zip", "application/zip",
                             "The pack's ZIP: every approved list as JSON and .ros (organisers)")
