"""Short-hands for writing list documents in tests."""


def unit(box, code, size=None, *upgrades, letter=None):
    doc = {"box": box, "unit": code, "size": size,
           "upgrades": [{"upgrade": u, "quantity": 1} if isinstance(u, str) else {"upgrade": u[0], "quantity": u[1]}
                        for u in upgrades]}
    if letter:
        doc["letter"] = letter
    return doc


def formation(code, *units, allied=False, handbook=None, **extra):
    doc = {"formation": code, "allied": allied, "units": list(units), **extra}
    if handbook:
        doc["handbook"] = {"code": handbook, "revision": 1}
    return doc


def card(code, target=None):
    return {"card": code, **({"target": target} if target else {})}


def listdoc(*formations, support=(), cards=(), book="tb-germany", system="fow4", points_limit=100, variant=None,
            year=None, name="Test force"):
    return {"format": "armybuilder-list", "version": 1, "name": name, "system": system,
            "handbook": {"code": book, "revision": 1}, "points_limit": points_limit, "variant": variant,
            "year": year, "notes": "", "formations": list(formations), "support": list(support), "cards": list(cards)}


def tank_company(*extra_units, **kwargs):
    """The cheapest legal F1: HQ and both black boxes (3 + 9 + 9 = 21 points)."""
    return formation("F1", unit("F1/hq", "HQ1", "1x"), unit("F1/b1", "TNK", "3x"), unit("F1/b2", "TNK", "3x"),
                     *extra_units, **kwargs)
