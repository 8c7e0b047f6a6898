"""What the builder draws for a unit (or formation, card, force) of a book imported from BattleScribe: the
choices the data offers under it, group by group, with what is chosen, and the choices under those.

Pure presentation over the engine's evaluation of the whole list (costs, limits and visibility there
depend on everything else in the force).

* A group from which exactly one is chosen is drawn as radio buttons; one whose choices state team counts
  ("2x …", "4x …") is sorted by teams.
* A group of models with a range (3 to 5 tanks) gets size buttons: one click sets the count, the data's
  default model filling it; the mix stays adjustable below.
* An option the data hides is listed (greyed, behind the unit's "show hidden" switch) with what would
  show it, in words.
"""
from dataclasses import dataclass, field

from armybuilder.rules.battlescribe.check import selection_teams, teams_in_name
from armybuilder.rules.battlescribe.choices import alternatives
from armybuilder.rules.battlescribe.evaluate import Evaluation, tidy
from armybuilder.rules.battlescribe.explain import hidden_because
from armybuilder.rules.battlescribe.names import display_name
from armybuilder.rules.battlescribe.offers import Offer, offers

MAX_DEPTH = 6


@dataclass
class ChoiceOption:
    entry: str  # the slot path the action names
    name: str
    points: float
    chosen: int
    most: int | None  # how many may be chosen here (None: no limit)
    hidden: bool
    at: str  # "0,2": child indices from the holder down to the selection this choice is made under
    children: list = field(default_factory=list)  # ChoiceGroup under this option, once chosen
    hidden_because: str = ""  # what would show it, in words
    teams: int = 0  # the team count its name states
    fixed: bool = False  # compulsory and the only way: chosen by itself, nothing to decide

    @property
    def counted(self) -> bool:
        return self.most is None or self.most > 1

    @property
    def points_label(self) -> str:
        return f"{'+' if self.points >= 0 else '−'}{abs(tidy(self.points))} pts"


@dataclass
class SizeButton:
    teams: int
    number: int  # how many of the filling model that makes this size
    selected: bool


@dataclass
class ChoiceGroup:
    name: str
    hint: str
    pick_one: bool
    options: list = field(default_factory=list)
    needs: bool = False  # a minimum not met here
    sizes: list = field(default_factory=list)  # SizeButton: a group of models with a range
    filler: ChoiceOption | None = None  # the model the size buttons set
    key: str = ""  # unique on the page (radio names)
    limits: tuple = (None, None)  # the group's own min and max here
    default: str = ""  # the data's default choice (entry id)

    @property
    def has_hidden(self) -> bool:
        return any(o.hidden and not o.chosen for o in self.options)


@dataclass
class UnitChoices:
    """A unit's choices as drawn: its name (a container's chosen alternative), what it is inside, the groups."""

    name: str
    container: str
    groups: list
    warnings: list = field(default_factory=list)

    @property
    def has_hidden(self) -> bool:
        return _any_hidden(self.groups)


def _any_hidden(groups) -> bool:
    return any(g.has_hidden or any(_any_hidden(o.children) for o in g.options) for g in groups)


def _limit_text(low, high) -> str:
    if low and high and low == high:
        return f"Choose {tidy(low)}"
    if low and high:
        return f"Choose {tidy(low)} to {tidy(high)}"
    if low:
        return f"Choose at least {tidy(low)}"
    if high:
        return f"Up to {tidy(high)}"
    return "Any"


def unit_choice_view(evaluation: Evaluation, sel, *, points: str, key: str) -> UnitChoices:
    """A unit's selection as the builder shows it. A container entry ("[Reconnaissance] Support") is shown as
    the alternative chosen inside it, with that alternative's choices."""
    catalogue = sel.force.catalogue
    inner = {id(a.slot) for a in alternatives(catalogue, sel.entry)}
    for index, child in enumerate(sel.children):
        if id(child.slot) in inner:
            groups = choice_groups(evaluation, child, at=(index,), points=points, key=f"{key}-a")
            return UnitChoices(display_name(evaluation.name(child)), display_name(evaluation.name(sel)), groups,
                               _team_warnings(evaluation, child))
    groups = choice_groups(evaluation, sel, points=points, key=key, unit_roles=bool(inner))
    return UnitChoices(display_name(evaluation.name(sel)), "", groups, _team_warnings(evaluation, sel))


def _team_warnings(evaluation: Evaluation, sel) -> list[str]:
    """A chosen size that states a team count, beside models that add up to another count."""
    out = []
    for child in sel.children:
        stated = teams_in_name(evaluation.name(child))
        models = sum(s.number for s in child.walk() if s is not child and s.entry.type == "model"
                     and not teams_in_name(evaluation.name(s)))
        if stated and models and models != stated:
            out.append(f"{display_name(evaluation.name(child))} is {stated} teams, but {models} models are chosen "
                       "in it: check the counts.")
    return out


def choice_groups(evaluation: Evaluation, container, *, at: tuple = (), points: str, depth: int = 0,
                  skip_roles=("unit", "card"), key: str = "c", unit_roles: bool = False) -> list[ChoiceGroup]:
    """The groups of choices under a bound selection (or force), in the data's order. ``unit_roles``: show
    unit entries too (a container's alternatives, when none is chosen yet)."""
    if depth > MAX_DEPTH:
        return []
    if unit_roles:
        skip_roles = tuple(r for r in skip_roles if r != "unit")
    catalogue = container.catalogue if not hasattr(container, "slot") else container.force.catalogue
    chosen_at = {}
    for index, child in enumerate(container.children):
        chosen_at.setdefault(id(child.slot), (index, child))
    groups: dict[int, ChoiceGroup] = {}
    loose = ChoiceGroup("Options", "", False, key=f"{key}-o")
    order: list = []
    for offer in offers(evaluation, container):
        if offer.slot.entry.role in skip_roles:
            continue
        top = offer.slot.groups[0] if offer.slot.groups else None
        if top is None:
            group = loose
            if loose not in order:
                order.append(loose)
        else:
            group = groups.get(id(top))
            if group is None:
                limit = dict(offer.group_limits).get(top)
                low, high = (limit.low, limit.high) if limit else (None, None)
                group = ChoiceGroup(display_name(top.entry.name), _limit_text(low, high), high == 1,
                                    key=f"{key}-g{len(groups)}", limits=(low, high), default=top.entry.default)
                groups[id(top)] = group
                order.append(group)
        option = _option(evaluation, offer, chosen_at, at, points, depth, key)
        if offer.hidden and not offer.chosen:
            option.hidden_because = hidden_because(catalogue, offer.slot.entry)
        group.options.append(option)
    violations = evaluation.violations()
    for group in order:
        paths = {o.entry for o in group.options}
        group.needs = any(v.kind == "min" and v.at is container and getattr(v.slot, "path", None) in paths
                          for v in violations if v.slot is not None)
        visible = [o for o in group.options if not o.hidden]
        if group.pick_one and visible and all(o.teams for o in visible):
            group.options.sort(key=lambda o: (o.hidden, o.teams, o.points))
        _size_buttons(group)
    return [g for g in order if g.options]


def _size_buttons(group: ChoiceGroup) -> None:
    """A group of models chosen by count within a range (3 to 5 tanks): buttons that set the size at once."""
    low, high = group.limits
    models = [o for o in group.options if not o.hidden and o.counted]
    if not low or not high or high <= low or high - low > 12 or len(models) != len(group.options) or not models:
        return
    if any(o.children for o in models):
        return
    default = group.default
    filler = next((o for o in models if default and o.entry.split("::")[-1] == default), None) or \
        next((o for o in models if o.chosen), models[0])
    others = sum(o.chosen for o in models if o is not filler)
    total = others + filler.chosen
    group.filler = filler
    group.sizes = [SizeButton(n, n - others, n == total) for n in range(int(low), int(high) + 1) if n - others >= 0]


def _option(evaluation: Evaluation, offer: Offer, chosen_at: dict, at: tuple, points: str, depth: int,
            key: str) -> ChoiceOption:
    most = offer.limit.high
    for _, limit in offer.group_limits:
        if limit.high is not None:
            most = limit.high if most is None else min(most, limit.high)
    name = display_name(offer.name)
    option = ChoiceOption(entry=offer.slot.path, name=name, points=offer.cost.get(points, 0),
                          chosen=offer.chosen, most=int(most) if most is not None else None, hidden=offer.hidden,
                          at=",".join(map(str, at)), teams=teams_in_name(name),
                          fixed=(not offer.slot.groups and offer.limit.low is not None and offer.limit.low >= 1
                                 and offer.limit.high == offer.limit.low and offer.chosen == offer.limit.low))
    found = chosen_at.get(id(offer.slot))
    if found is not None:
        index, child = found
        option.name = display_name(evaluation.name(child))
        option.children = choice_groups(evaluation, child, at=(*at, index), points=points, depth=depth + 1,
                                        key=f"{key}-{index}")
    return option


__all__ = ["ChoiceGroup", "ChoiceOption", "SizeButton", "UnitChoices", "choice_groups", "selection_teams",
           "unit_choice_view"]
