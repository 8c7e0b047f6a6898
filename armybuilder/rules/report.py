"""What the engine says about a force."""
from dataclasses import asdict, dataclass, field

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, slots=True)
class RuleRef:
    """The rule an issue comes from, and where a player can read it."""

    system: str
    name: str
    where: str = ""


@dataclass(frozen=True, slots=True)
class Issue:
    code: str  # stable; every one is an IssueCode of issue_codes.py (FOW_BLACK_BOX_MISSING …)
    severity: str  # error: the list is not legal; warning: legal but worth a look
    message: str
    pointer: str  # JSON pointer into the list document
    rule: RuleRef | None = None
    fix: str | None = None
    box: str | None = None  # the diagram box concerned, when there is one

    def as_dict(self) -> dict:
        data = asdict(self)
        if self.rule is None:
            data["rule"] = None
        return data


@dataclass
class Report:
    system: str
    points_limit: int | None = None
    total_points: int = 0
    unit_points: dict = field(default_factory=dict)  # pointer -> points
    formation_points: dict = field(default_factory=dict)  # pointer -> points of units in the formation
    support_points: int = 0
    card_points: int = 0
    force_points: int = 0  # imported books: the force's own choices (e.g. a required root entry)
    figures: dict = field(default_factory=dict)
    issues: list = field(default_factory=list)
    # What the system's check worked out beyond the report (e.g. a BattleScribe evaluation), for callers
    # that show more; never serialised.
    context: object = field(default=None, repr=False, compare=False)

    @property
    def legal(self) -> bool:
        return not any(i.severity == ERROR for i in self.issues)

    @property
    def errors(self) -> list:
        return [i for i in self.issues if i.severity == ERROR]

    @property
    def warnings(self) -> list:
        return [i for i in self.issues if i.severity == WARNING]

    def codes(self) -> list[str]:
        return [i.code for i in self.issues]

    def add(self, code, pointer: str, *, form: str = "", rule=None, fix=None, box=None, **values) -> None:
        """Report ``code`` (an ``IssueCode`` of ``issue_codes``: its severity and wording come from there),
        its message filled in from the ``form`` template with ``values``; ``fix`` already worded or None."""
        try:
            issue = code.issue_of(pointer, form, rule, fix, box, values)
        except AttributeError:
            if isinstance(code, str):
                raise TypeError(f"Report.add takes an IssueCode constant from armybuilder.rules.issue_codes, "
                                f"not {code!r}") from None
            raise
        self.issues.append(issue)

    def as_dict(self) -> dict:
        return {
            "system": self.system,
            "legal": self.legal,
            "points_limit": self.points_limit,
            "total_points": self.total_points,
            "unit_points": self.unit_points,
            "formation_points": self.formation_points,
            "support_points": self.support_points,
            "card_points": self.card_points,
            "force_points": self.force_points,
            "figures": self.figures,
            "issues": [i.as_dict() for i in self.issues],
        }
