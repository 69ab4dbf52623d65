"""Start-up stays lean: heavy libraries are imported only where they are used."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import FIXTURES

# msgspec pays for its import only on big documents and captures (mcplint.fast_json.pays);
# typer only for lines mcplint.entry leaves to it (help, other commands, errors)
HEAVY = ("jsonschema", "pydantic", "ruamel", "rich", "msgspec", "typer")


def imported_modules(*args: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "mcplint", *args], capture_output=True, timeout=60)
    lines = proc.stderr.decode().splitlines()
    return {line.split("|")[-1].strip().split(".")[0] for line in lines if line.startswith("import time:")}


@pytest.mark.parametrize("args,allowed", [
    (("--version",), ()),
    (("check", str(FIXTURES / "manifests" / "clean-server.json"), "--format", "json"), ()),
    (("check", str(FIXTURES / "manifests" / "clean-server.json"), "--format", "sarif"), ()),
    (("check", str(FIXTURES / "manifests" / "clean-server.json")), ()),  # no colour: rich is not needed
])
def test_heavy_imports_only_where_needed(args, allowed):
    modules = imported_modules(*args)
    assert "mcplint" in modules
    unexpected = {m for m in HEAVY if m in modules and m not in allowed}
    assert not unexpected, f"mcplint {' '.join(args)} imported {sorted(unexpected)}"
