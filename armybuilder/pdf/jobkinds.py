"""The roster PDF as a background job, for renders that would otherwise hold a request (large lists)."""
from armybuilder.jobs.registry import JobError, JobResult, job_kind
from armybuilder.lists.models import ArmyList
from armybuilder.services.exports import list_pdf
from armybuilder.services.printing.render import PrintOptionsError


@job_kind("roster_pdf", title="Roster PDF", max_attempts=3)
def roster_pdf(ctx) -> JobResult:
    params = ctx.params
    army_list = ArmyList.objects.select_related("system", "handbook").filter(public_id=params["list"]).first()
    if army_list is None:
        raise JobError("The list was deleted before its roster could be printed.")
    ctx.progress(10, f"Printing '{army_list.name}'")
    try:
        exported = list_pdf(army_list, paper=params.get("paper", "a4"), cards=bool(params.get("cards", True)),
                            player=params.get("player", ""), event=params.get("event", ""),
                            list_url=params.get("list_url", ""), extras=tuple(params.get("extras") or ()))
    except PrintOptionsError as exc:
        raise JobError(str(exc)) from exc
    paper, pdf = params.get("paper", "a4"), exported.content
    return JobResult(file=pdf, filename=exported.filename, content_type=exported.content_type,
                     data={"list": str(army_list.public_id), "version": army_list.version, "paper": paper,
                           "bytes": len(pdf)},
                     message=f"Roster of '{army_list.name}' (version {army_list.version}) is ready")
