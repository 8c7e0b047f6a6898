"""The staff page that imports a BattleScribe library from uploaded files, as a background job."""
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from armybuilder.services.library_import import MAX_UPLOAD_BYTES, Upload, UploadError, battlescribe_import_enqueue


@login_required
@require_http_methods(["GET", "POST"])
def import_battlescribe(request):
    if not request.user.is_staff:
        raise PermissionDenied("Only staff may import game data: it changes the books everyone builds from.")
    error = ""
    if request.method == "POST":
        uploads = [Upload(name=f.name, content=f.read(MAX_UPLOAD_BYTES + 1)) for f in request.FILES.getlist("files")]
        try:
            job = battlescribe_import_enqueue(owner=request.user, uploads=uploads)
        except UploadError as exc:
            error = str(exc)
        else:
            return redirect("jobs:status", job_id=job.pk)
    return render(request, "web/import_battlescribe.html", {"error": error, "max_mb": MAX_UPLOAD_BYTES // 2**20},
                  status=400 if error else 200)
