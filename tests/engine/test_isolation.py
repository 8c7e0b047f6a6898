"""The engine is plain Python: it imports no Django, ORM or project app, and its tests touch no database."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Run in a fresh interpreter: the test process has Django loaded already. Importing ``django`` (or DRF, Celery,
# the handbooks app, or any armybuilder package but ``armybuilder.rules``) raises there, and the ``armybuilder``
# package is a bare namespace so that its ``__init__`` (which starts the Celery app) does not run.
PROBE = r"""
import importlib, importlib.abc, pkgutil, sys, types

BLOCKED = ("django", "rest_framework", "celery", "handbooks")


class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top in BLOCKED or (top == "armybuilder" and name != "armybuilder"
                              and not name.startswith("armybuilder.rules")):
            raise ImportError(f"the engine imported {name}")
        return None


sys.meta_path.insert(0, Refuse())
package = types.ModuleType("armybuilder")
package.__path__ = [sys.argv[1]]
sys.modules["armybuilder"] = package
rules = importlib.import_module("armybuilder.rules")
names = [m.name for m in pkgutil.walk_packages(rules.__path__, "armybuilder.rules.")]
for name in names:
    importlib.import_module(name)
print(len(names))
"""


def test_every_engine_module_imports_with_django_unavailable():
    env = {"PATH": "/usr/bin:/bin"}  # no DJANGO_SETTINGS_MODULE, no PYTHONPATH
    done = subprocess.run([sys.executable, "-c", PROBE, str(ROOT / "armybuilder")], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    modules = sorted(p for p in (ROOT / "armybuilder" / "rules").rglob("*.py") if p.name != "__init__.py")
    assert int(done.stdout.strip()) >= len(modules)  # every module was imported, not only the package


def test_the_probe_would_catch_an_engine_module_that_imports_django(tmp_path):
    # The same probe over a copy of the package with one offending import must fail, or the test above proves nothing.
    fake = tmp_path / "armybuilder" / "rules"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "sneaky.py").write_text("from django.db import models\n")
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "armybuilder")], capture_output=True,
                          text=True, env={"PATH": "/usr/bin:/bin"}, cwd=tmp_path, timeout=120)
    assert done.returncode != 0 and "the engine imported django" in done.stderr


def test_the_engine_tests_cannot_reach_the_database():
    from django.db import connection

    with pytest.raises(RuntimeError, match="Database access not allowed"):
        connection.ensure_connection()
