from dataclasses import dataclass


@dataclass(frozen=True)
class LoadProblem:
    """One thing wrong with a data file, and where."""

    source: str
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.source}: {self.path}" if self.path else self.source
        return f"{where}: {self.message}"


class HandbookDataError(Exception):
    """A data file could not be loaded; ``problems`` lists every reason."""

    def __init__(self, problems: list[LoadProblem]):
        self.problems = problems
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
