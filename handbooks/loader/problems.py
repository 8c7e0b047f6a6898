from dataclasses import dataclass

MAX_PROBLEMS = 100  # per file: a broken file with a million entries must not print a million lines
MAX_MESSAGE_CHARS = 300
MAX_PATH_CHARS = 200


def _cut(text: str, limit: int) -> str:
    text = str(text)
    if not text.isprintable():
        text = text.encode("unicode_escape", "backslashreplace").decode("ascii")
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


@dataclass(frozen=True)
class LoadProblem:
    """One thing wrong with a data file, and where. Long values are cut, so a message stays a line."""

    source: str
    path: str
    message: str

    def __post_init__(self):
        object.__setattr__(self, "path", _cut(self.path, MAX_PATH_CHARS))
        object.__setattr__(self, "message", _cut(self.message, MAX_MESSAGE_CHARS))

    def __str__(self) -> str:
        where = f"{self.source}: {self.path}" if self.path else self.source
        return f"{where}: {self.message}"


def capped(problems: list[LoadProblem]) -> list[LoadProblem]:
    """The first MAX_PROBLEMS problems, and one line saying how many more there were."""
    if len(problems) <= MAX_PROBLEMS:
        return problems
    rest = len(problems) - MAX_PROBLEMS
    return list(problems[:MAX_PROBLEMS]) + [LoadProblem(problems[0].source, "", f"and {rest} more problem(s) "
                                                                                 "not shown")]


class HandbookDataError(Exception):
    """A data file could not be loaded; ``problems`` lists every reason (at most MAX_PROBLEMS of them)."""

    def __init__(self, problems: list[LoadProblem]):
        self.problems = capped(problems)
        super().__init__("\n".join(str(p) for p in problems))


def format_path(parts) -> str:
    """Render a JSON path as ``formations[2].boxes[0].choices[1]``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out
