"""Names as the data writes them, less a list number.

BSData numbers some groups to order them on screen: "1) Tank Platoon", "0) Command Cards [Unit]". That
number is not part of the name. Everything else stays exactly as written: a calibre ("7.62cm Tank-hunter
Platoon", "10.5cm Gun or 15cm Armoured Artillery Battery"), a German division's ordinal ("12.
Volksgrenadierdivision Veteran Scouts") and a numbered box ("01. Formation HQ (Compulsory)": its number
is part of how the data names the box, and "10. …" cannot be told from an ordinal, so it is shown).
"""
from __future__ import annotations

import re

# "1) …": a list number. Only one or two digits, and only with a bracket.
LIST_NUMBER = re.compile(r"^\s*(\d{1,2})\s*\)\s*")
# For ordering only: "1) …" or "01. …" (a dot followed by a space; "7.62cm" is a calibre, not an order).
ORDER_NUMBER = re.compile(r"^\s*(\d{1,2})\s*(?:\)|\.(?=\s))\s*")


def display_name(name: str) -> str:
    """The data's name without a list number ("1) Panzer III Platoon" -> "Panzer III Platoon")."""
    rest = LIST_NUMBER.sub("", name or "", count=1).strip()
    return rest or (name or "")


def order_number(name: str) -> int | None:
    """The number the data orders a group by ("1) …", "02. …"), or None."""
    m = ORDER_NUMBER.match(name or "")
    return int(m.group(1)) if m else None
