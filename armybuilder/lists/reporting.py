"""Plain-text rendering of a report, for the command line and text exports."""
from armybuilder.rules.force import Force
from armybuilder.rules.report import Report
from armybuilder.systems.figures import figure_label


def report_text(force: Force, report: Report) -> str:
    book = force.handbook
    lines = [f"{force.name} — {book.name} (revision {book.revision}), {book.system_name or force.system}"]
    if book.uses_points:
        limit = f" / {report.points_limit}" if report.points_limit is not None else ""
        lines.append(f"Points: {report.total_points}{limit}")
    for key, value in report.figures.items():
        if isinstance(value, (int, float, str)):
            lines.append(f"{figure_label(key)}: {value}")
    errors, warnings = len(report.errors), len(report.warnings)
    verdict = "LEGAL" if report.legal else "NOT LEGAL"
    lines.append(f"{verdict}: {errors} error(s), {warnings} warning(s)")
    for issue in report.issues:
        where = issue.pointer or "/"
        if issue.box:
            where += f" [{issue.box}]"
        lines.append(f"  {issue.severity.upper():7} {issue.code} at {where}")
        lines.append(f"          {issue.message}")
        if issue.fix:
            lines.append(f"          Fix: {issue.fix}")
        if issue.rule:
            lines.append(f"          Rule: {issue.rule.name}" + (f" ({issue.rule.where})" if issue.rule.where else ""))
    return "\n".join(lines)
