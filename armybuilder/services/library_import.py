"""BattleScribe imports from the web or the API, as background jobs.

The uploaded files (a zipped BSData folder, or .gst/.cat/.gstz/.catz files) are
checked for shape at once, so a wrong upload is refused before any job starts,
packed into one zip stored with the job, and imported by a worker with
``armybuilder.interchange.battlescribe.import_library``: every file is read
before anything is written, and the import is one transaction.
"""
import io
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from armybuilder.interchange.battlescribe import import_library
from armybuilder.jobs.models import Job
from armybuilder.jobs.registry import JobError, JobResult, job_kind
from armybuilder.jobs.services import job_enqueue

LIBRARY_SUFFIXES = {".gst", ".cat", ".gstz", ".catz"}
MAX_UPLOAD_BYTES = 40 * 1024 * 1024  # the whole BSData Flames of War library zips to under 2 MB
MAX_FILES = 400
MAX_UNPACKED_BYTES = 400 * 1024 * 1024
MAX_RATIO = 60.0  # BattleScribe XML compresses 10-20 times; far more is a zip bomb


class UploadError(ValueError):
    """The upload is not a BattleScribe library; the message says what is wrong and with which file."""


@dataclass(frozen=True)
class Upload:
    name: str
    content: bytes


def _library_name(raw: str, where: str) -> str:
    name = PurePosixPath(raw.replace("\\", "/")).name
    if not name or name.startswith(".") or PurePosixPath(name).suffix.lower() not in LIBRARY_SUFFIXES:
        raise UploadError(f"{where}: '{raw[:120]}' is not a BattleScribe file (.gst, .cat, .gstz or .catz)")
    return name


def _members(upload: Upload) -> list[tuple[str, bytes]]:
    """The library files in one upload: the file itself, or each library file inside a zip."""
    if PurePosixPath(upload.name).suffix.lower() != ".zip":
        return [(_library_name(upload.name, upload.name), upload.content)]
    try:
        archive = zipfile.ZipFile(io.BytesIO(upload.content))
    except zipfile.BadZipFile:
        raise UploadError(f"{upload.name}: not a readable zip file") from None
    out, unpacked = [], 0
    with archive:
        infos = [i for i in archive.infolist() if not i.is_dir()
                 and not PurePosixPath(i.filename).name.startswith(".") and "__MACOSX" not in i.filename]
        if len(infos) > MAX_FILES:
            raise UploadError(f"{upload.name}: {len(infos)} files; a library upload may hold at most {MAX_FILES}")
        for info in infos:
            if PurePosixPath(info.filename).suffix.lower() not in LIBRARY_SUFFIXES:
                continue  # READMEs, licences, images: a BSData folder has them, the import does not need them
            name = _library_name(info.filename, upload.name)
            if info.compress_size and info.file_size / info.compress_size > MAX_RATIO:
                raise UploadError(f"{upload.name}: {info.filename} expands {info.file_size // info.compress_size}"
                                  f" times; refused as a zip bomb")
            with archive.open(info) as member:
                data = member.read(MAX_UNPACKED_BYTES - unpacked + 1)
            unpacked += len(data)
            if unpacked > MAX_UNPACKED_BYTES:
                raise UploadError(f"{upload.name}: more than {MAX_UNPACKED_BYTES // (1024 * 1024)} MB unpacked")
            out.append((name, data))
    return out


def battlescribe_upload_pack(uploads: list[Upload]) -> bytes:
    """Check the uploaded files and pack their library files into one zip; UploadError says what is wrong."""
    if not uploads:
        raise UploadError("no file: upload a zipped BSData folder or its .gst and .cat files")
    total = sum(len(u.content) for u in uploads)
    if total > MAX_UPLOAD_BYTES:
        raise UploadError(f"the upload is {total} bytes; at most {MAX_UPLOAD_BYTES} are accepted")
    files: dict[str, bytes] = {}
    for upload in uploads:
        for name, data in _members(upload):
            if name in files:
                raise UploadError(f"two files are named '{name}'")
            files[name] = data
    if not files:
        raise UploadError("the upload holds no BattleScribe file (.gst, .cat, .gstz or .catz)")
    if not any(PurePosixPath(n).suffix.lower() in (".gst", ".gstz") for n in files):
        raise UploadError("the upload has no game system file (.gst or .gstz): a library needs one")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            archive.writestr(name, data)
    return buffer.getvalue()


def battlescribe_import_enqueue(*, owner, uploads: list[Upload]) -> Job:
    """Start importing an uploaded library; UploadError (nothing started) if the files are not one."""
    packed = battlescribe_upload_pack(uploads)
    names = ", ".join(u.name for u in uploads)[:200]
    return job_enqueue(kind="battlescribe_import", owner=owner, input_file=packed, input_name=names,
                       params={"files": len(zipfile.ZipFile(io.BytesIO(packed)).namelist())})


@job_kind("battlescribe_import", title="BattleScribe import", max_attempts=3)
def battlescribe_import(ctx) -> JobResult:
    ctx.progress(2, "Unpacking the upload")
    with tempfile.TemporaryDirectory(prefix="armybuilder-bs-") as folder:
        with zipfile.ZipFile(io.BytesIO(ctx.input_file)) as archive:
            names = archive.namelist()
            for name in names:  # names were checked (plain file names) when the job was started
                (Path(folder) / PurePosixPath(name).name).write_bytes(archive.read(name))
        ctx.progress(5, f"Reading, mapping and loading {len(names)} files")
        report = import_library([Path(folder)])
    lines = report.lines()
    totals = dict(sorted(report.totals().items()))
    summary = {
        "written": report.written, "totals": totals,
        "handbooks": [{"code": r.handbook_code, "source": r.source, "status": r.status}
                      for r in report.catalogues if r.status not in ("library",)],
        "unmapped_errors": len(report.errors), "unmapped": len(report.unmapped), "read_errors": report.read_errors,
    }
    if report.read_errors:
        raise JobError(f"{len(report.read_errors)} file(s) could not be read, so nothing was imported: "
                       + "; ".join(report.read_errors[:5]))
    if not report.ok or not report.written:
        problems = [line for line in lines if "LOAD" in line][:5]
        raise JobError("Some documents could not be loaded, so nothing was imported"
                       + (": " + "; ".join(p.strip() for p in problems) if problems else "."))
    changed = sum(1 for h in summary["handbooks"] if h["status"] in ("created", "revised", "updated"))
    text = "\n".join(lines + [f"total: {', '.join(f'{k} {v}' for k, v in totals.items())}"]) + "\n"
    return JobResult(data=summary, file=text.encode("utf-8"), filename="battlescribe-import-report.txt",
                     content_type="text/plain; charset=utf-8",
                     message=f"Imported {len(summary['handbooks'])} catalogues ({changed} new or changed)")
