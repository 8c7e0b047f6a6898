"""Background jobs in the API: a job's status, its file, and starting the jobs the API offers.

GET /api/v1/jobs/{id} answers the status (poll it; ``Retry-After`` says how soon);
GET /api/v1/jobs/{id}/result the file of a succeeded job. Someone else's job is a 404.
"""
from django.http import HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.jobs.models import Job
from armybuilder.jobs.selectors import job_get_for_user, job_result_file, job_status
from armybuilder.services.library_import import MAX_UPLOAD_BYTES, Upload, UploadError, battlescribe_import_enqueue
from armybuilder.services.printing.render import PAPERS
from armybuilder.services.printing.services import roster_pdf_job_start

from .exceptions import ProblemsError
from .fields import InputSerializer, StrictBooleanField, StrictCharField, StrictChoiceField
from .files import _FileRenderer
from .lists import ListApi
from .openapi import BODY_ERRORS, errors
from .throttles import ScopedUserThrottle

POLL_SECONDS = 1


class JobOutputSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.CharField(help_text="What the job does, e.g. roster_pdf, battlescribe_import.")
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=[s for s, _ in Job.STATUSES])
    progress = serializers.IntegerField(min_value=0, max_value=100)
    message = serializers.CharField(allow_blank=True, help_text="What it is doing, or what it did.")
    error = serializers.CharField(allow_blank=True, help_text="Why it failed (status failed).")
    result = serializers.JSONField(allow_null=True, help_text="A summary of what it produced.")
    attempts = serializers.IntegerField()
    result_url = serializers.CharField(allow_null=True, help_text="Where to download its file, once it has one.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


def job_data(job: Job) -> dict:
    data = job_status(job)
    data["result_url"] = reverse("api:job-result", kwargs={"job_id": job.pk}) if data["has_file"] else None
    return JobOutputSerializer(data).data


def job_response(job: Job, status_code: int = 200) -> Response:
    response = Response(job_data(job), status=status_code)
    response["Location"] = reverse("api:job-detail", kwargs={"job_id": job.pk})
    if not job.finished:
        response["Retry-After"] = str(POLL_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class JobThrottle(ScopedUserThrottle):
    scope = "jobs"


class AnyFileRenderer(_FileRenderer):
    media_type = "*/*"
    format = "file"


@extend_schema(tags=["jobs"])
class JobDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="A background job's status (poll it until status is succeeded or failed)",
                   responses={200: JobOutputSerializer, **errors(404)})
    def get(self, request, job_id):
        return job_response(job_get_for_user(user=request.user, job_id=job_id))


@extend_schema(tags=["jobs"])
class JobResultApi(APIView):
    permission_classes = [IsAuthenticated]
    renderer_classes = [AnyFileRenderer, JSONRenderer]

    @extend_schema(operation_id="jobs_result", summary="The file a succeeded job produced",
                   responses={(200, "application/octet-stream"): OpenApiResponse(OpenApiTypes.BINARY),
                              **errors(404)})
    def get(self, request, job_id):
        content, filename, content_type = job_result_file(job_get_for_user(user=request.user, job_id=job_id))
        response = HttpResponse(content, content_type=content_type)
        safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in filename)[:120] or "result"
        response["Content-Disposition"] = f'attachment; filename="{safe}"'
        return response


# --- starting jobs --------------------------------------------------------------------------------

class RosterJobInputSerializer(InputSerializer):
    paper = StrictChoiceField(choices=sorted(PAPERS), required=False, default="a4")
    cards = StrictBooleanField(required=False, default=True, help_text="false: the roster without unit cards.")
    player = StrictCharField(required=False, allow_blank=True, max_length=120, default="")
    event = StrictCharField(required=False, allow_blank=True, max_length=120, default="")


@extend_schema(tags=["jobs"])
class ListRosterJobApi(ListApi):
    throttle_classes = [JobThrottle]

    @extend_schema(operation_id="lists_roster_job", summary="Render the list's roster PDF in the background",
                   description="Answers 202 with the job; poll GET /api/v1/jobs/{id}, then download its result. "
                               "The same list version and options share one job. GET roster.pdf still answers "
                               "the PDF directly.",
                   request=RosterJobInputSerializer,
                   responses={202: JobOutputSerializer, **errors(*BODY_ERRORS, 403, 404, 429)})
    def post(self, request, public_id):
        army_list = self.army_list()
        data = self.valid(RosterJobInputSerializer)
        job = roster_pdf_job_start(army_list=army_list, owner=request.user, **data)
        return job_response(job, 202)


class LibraryUploadParser(MultiPartParser):
    media_type = "multipart/form-data"


@extend_schema(tags=["jobs"])
class BattleScribeImportApi(APIView):
    """Staff only: the import changes game data for everyone."""

    permission_classes = [IsAdminUser]
    parser_classes = [LibraryUploadParser]
    throttle_classes = [JobThrottle]

    @extend_schema(operation_id="imports_battlescribe",
                   summary="Import a BattleScribe library (a zipped BSData folder, or .gst/.cat files) in the "
                           "background",
                   description="Multipart form with one or more `files`. The files are checked at once (400 with "
                               "what is wrong); the import runs as a job (202): every file is read before anything "
                               "is written, and nothing is written if any document cannot be loaded. The job's "
                               "result is the import report.",
                   request={"multipart/form-data": {"type": "object", "properties": {
                       "files": {"type": "array", "items": {"type": "string", "format": "binary"}}}}},
                   responses={202: JobOutputSerializer, **errors(400, 403, 413, 415, 429)})
    def post(self, request):
        uploads = [Upload(name=f.name, content=f.read(MAX_UPLOAD_BYTES + 1))
                   for f in request.FILES.getlist("files") + request.FILES.getlist("file")]
        try:
            job = battlescribe_import_enqueue(owner=request.user, uploads=uploads)
        except UploadError as exc:
            raise ProblemsError([{"pointer": "/files", "message": str(exc)}]) from exc
        return job_response(job, 202)
