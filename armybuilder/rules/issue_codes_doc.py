"""The reference page of every issue code, written from the registry (``issue_codes.py``).

    python -m armybuilder.rules.issue_codes_doc docs/issue-codes.md    # write the page
    python -m armybuilder.rules.issue_codes_doc                        # print it

A module of its own so that ``-m`` runs it once: the rules package imports ``issue_codes`` on its way in.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .issue_codes import DOC_PATH, REGISTRY, SYSTEMS, IssueCode

COMMAND = f"python -m armybuilder.rules.issue_codes_doc {DOC_PATH}"


def _escaped(text: str) -> str:
    return text.replace("|", "\\|")


def _cell(templates) -> str:
    if not templates:
        return "–"
    parts = []
    for form, template in templates.items():
        shown = f"`{_escaped(template)}`"
        parts.append(f"*{form}*: {shown}" if form else shown)
    return "<br>".join(parts)


def document() -> str:
    """The page as ``docs/issue-codes.md`` holds it: every code grouped by system, sorted by code."""
    lines = [
        "# Issue codes",
        "",
        "Every code the checks report (the `code` of each issue in a report, in the API and in event submissions),",
        "with its severity, where the rule comes from, and the wording of its message and fix.",
        "",
        "Generated from `armybuilder/rules/issue_codes.py`; do not edit by hand. After changing a code run",
        f"`.venv/bin/{COMMAND}`",
        "(tests/rules/test_issue_codes.py fails while this page differs from what that writes).",
        "",
        "Templates are Python format strings: each `{name}` is filled in when the issue is reported. A code reported",
        "in several situations has one template per situation, named in italics (its *form*). Rule references cite",
        "the rules digests in the project's shared notes: \"L672\" is line 672 of the rulebook text a digest was made",
        "from, \"§1.4\" the digest's section; \"project rule\" marks a rule of this program that no book states.",
        "",
    ]
    by_system: dict[str, list[IssueCode]] = {prefix: [] for prefix in SYSTEMS}
    for code in REGISTRY:
        by_system[code.system].append(code)
    for prefix, heading in SYSTEMS.items():
        codes = sorted(by_system[prefix], key=lambda c: c.code)
        if not codes:
            continue
        lines += [f"## {heading} (`{prefix}.`)", "", "| Code | Severity | Rule | Message | Fix |",
                  "|---|---|---|---|---|"]
        lines += [f"| `{code.code}` | {code.severity} | {_escaped(code.rule)} | {_cell(code.messages)} | "
                  f"{_cell(code.fixes)} |" for code in codes]
        lines.append("")
    lines.append(f"{len(REGISTRY)} codes.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(f"usage: python -m armybuilder.rules.issue_codes_doc [PATH]   (no PATH: print the page; "
              f"the page lives at {DOC_PATH})", file=sys.stderr)
        return 2
    text = document()
    if not argv:
        sys.stdout.write(text)
        return 0
    try:
        Path(argv[0]).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"{argv[0]}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {argv[0]}: {len(REGISTRY)} codes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
