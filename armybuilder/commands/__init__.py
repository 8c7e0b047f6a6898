"""What every management command of the project shares:

* argument errors quote at most a short piece of a bad value (argparse echoes the whole value, however
  long), and exit 2 as argparse does;
* an argument that is not text (bytes the terminal could not decode, which Python keeps as lone
  surrogates) is refused with exit 2 before the command runs;
* ``bounded_text(n)``: an argparse type for free text of at most ``n`` characters with no control
  characters, as the web forms take it.
"""
import argparse
import re
from pathlib import PurePath

from django.core.management.base import BaseCommand, CommandError

LONGEST_QUOTED = 60
_QUOTED = re.compile(rf"'([^']{{{LONGEST_QUOTED}}})[^']+'")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def short_message(message: str) -> str:
    return _QUOTED.sub(lambda m: f"'{m.group(1)}…'", message)


def short(value, limit: int = LONGEST_QUOTED) -> str:
    """A value as it may be quoted in a message."""
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _undecodable(value) -> bool:
    text = str(value) if isinstance(value, (str, PurePath)) else None
    if text is None:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def bounded_text(limit: int):
    def parse(value: str) -> str:
        if len(value) > limit:
            raise argparse.ArgumentTypeError(f"at most {limit} characters (this one has {len(value)})")
        if _CONTROL.search(value):
            raise argparse.ArgumentTypeError("no control characters")
        return value.strip()
    parse.__name__ = f"text of at most {limit} characters"
    return parse


class ProjectCommand(BaseCommand):
    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        error = parser.error
        parser.error = lambda message: error(short_message(message))
        return parser

    def execute(self, *args, **options):
        for name, value in options.items():
            values = value if isinstance(value, (list, tuple)) else [value]
            if any(_undecodable(v) for v in values):
                raise CommandError(f"{name}: not valid text (bytes that are not UTF-8)", returncode=2)
        return super().execute(*args, **options)
