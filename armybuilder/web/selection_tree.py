"""What the builder draws for a unit (or formation, card, force) of a book imported from BattleScribe: the
choices the data offers under it, group by group, with what is chosen, and the choices under those.

Pure presentation over the engine's evaluation of the whole list (costs, limits and visibility there
depend on everything else in the force).
"""
from dataclasses import dataclass, field

from armybuilder.rules.battlescribe.check import display_name
from armybuilder.rules.battlescribe.evaluate import Evaluation, tidy
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

    @property
    def counted(self) -> bool:
        return self.most is None or self.most > 1

    @property
    def points_label(self) -> str:
        return f"{'+' if self.points >= 0 else '−'}{abs(tidy(self.points))} pts"


@dataclass
class ChoiceGroup:
    name: str
    hint: str
    pick_one: bool
    options: list = field(default_factory=list)
    needs: bool = False  # a minimum not met here


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


def choice_groups(evaluation: Evaluation, container, *, at: tuple = (), points: str, depth: int = 0,
                  skip_roles=("unit", "card")) -> list[ChoiceGroup]:
    """The groups of choices under a bound selection (or force), in the data's order."""
    if depth > MAX_DEPTH:
        return []
    chosen_at = {}
    for index, child in enumerate(container.children):
        chosen_at.setdefault(id(child.slot), (index, child))
    groups: dict[int, ChoiceGroup] = {}
    loose = ChoiceGroup("Options", "", False)
    order: list = []
    for offer in offers(evaluation, container):
        if offer.slot.entry.role in skip_roles:
            continue
        if offer.hidden and not offer.chosen:
            continue
        top = offer.slot.groups[0] if offer.slot.groups else None
        if top is None:
            group = loose
            if not order or order[-1] is not loose:
                if loose not in order:
                    order.append(loose)
        else:
            group = groups.get(id(top))
            if group is None:
                limit = dict(offer.group_limits).get(top)
                low, high = (limit.low, limit.high) if limit else (None, None)
                group = ChoiceGroup(display_name(top.entry.name), _limit_text(low, high), high == 1)
                groups[id(top)] = group
                order.append(group)
        group.options.append(_option(evaluation, offer, chosen_at, at, points, depth))
    for group in order:
        group.needs = any(v.kind == "min" and v.at is container for v in evaluation.violations()
                          if v.slot is not None and any(o.entry == getattr(v.slot, "path", None) for o in group.options))
    return [g for g in order if g.options]


def _option(evaluation: Evaluation, offer: Offer, chosen_at: dict, at: tuple, points: str, depth: int) -> ChoiceOption:
    most = offer.limit.high
    for _, limit in offer.group_limits:
        if limit.high is not None:
            most = limit.high if most is None else min(most, limit.high)
    option = ChoiceOption(entry=offer.slot.path, name=display_name(offer.name), points=offer.cost.get(points, 0),
                          chosen=offer.chosen, most=int(most) if most is not None else None, hidden=offer.hidden,
                          at=",".join(map(str, at)))
    found = chosen_at.get(id(offer.slot))
    if found is not None:
        index, child = found
        option.name = display_name(evaluation.name(child))
        option.children = choice_groups(evaluation, child, at=(*at, index), points=points, depth=depth + 1)
    return option
