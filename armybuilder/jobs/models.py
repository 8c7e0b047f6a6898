"""One row per background job: what it is, whose it is, how far it got, and what it produced."""
import uuid

from django.conf import settings
from django.db import models


class Job(models.Model):
    QUEUED, RUNNING, SUCCEEDED, FAILED = "queued", "running", "succeeded", "failed"
    STATUSES = [(QUEUED, "Queued"), (RUNNING, "Running"), (SUCCEEDED, "Succeeded"), (FAILED, "Failed")]
    FINISHED = (SUCCEEDED, FAILED)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=60, help_text="A registered job kind, e.g. roster_pdf.")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="jobs")
    # A visitor without an account sees the jobs started in their session.
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED, db_index=True)
    progress = models.PositiveSmallIntegerField(default=0, help_text="0 to 100.")
    message = models.CharField(max_length=300, blank=True, help_text="What the job is doing, or what it did.")
    params = models.JSONField(default=dict, blank=True, help_text="The kind's arguments (JSON).")
    input_file = models.BinaryField(null=True, blank=True, help_text="An uploaded file the job works on.")
    input_name = models.CharField(max_length=200, blank=True)
    result = models.JSONField(null=True, blank=True, help_text="A summary of what the job produced (JSON).")
    result_file = models.BinaryField(null=True, blank=True, help_text="The file the job produced, for download.")
    result_name = models.CharField(max_length=200, blank=True)
    result_content_type = models.CharField(max_length=100, blank=True)
    error = models.TextField(blank=True, help_text="Why the job failed, in words for the person who started it.")
    attempts = models.PositiveSmallIntegerField(default=0)
    # Jobs asking for the same work (the same roster of the same list version) share one row.
    dedupe_key = models.CharField(max_length=200, blank=True, db_index=True)
    request_id = models.CharField(max_length=64, blank=True, help_text="The request that started the job (logs).")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "updated_at"], name="jobs_status_updated")]
        constraints = [
            models.CheckConstraint(condition=models.Q(progress__lte=100), name="job_progress_at_most_100"),
        ]

    def __str__(self):
        return f"{self.kind} {self.id} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in self.FINISHED

    @property
    def has_file(self) -> bool:
        return self.status == self.SUCCEEDED and bool(self.result_name)
