"""mcplint.entry reads the everyday `mcplint check` line without typer: wherever it reads a line
at all, it must hand `check` exactly the parameters the typer app (mcplint/cli.py) would."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import pytest
import typer

from conftest import FIXTURES
from mcplint import entry
from mcplint.cli import app
from mcplint.commands import check as check_module

CLEAN = str(FIXTURES / "manifests" / "clean-server.json")


def typer_params(args: list[str], monkeypatch) -> dict | None:
    """The parameters typer hands `check` for `mcplint check ARGS`, or None when it refuses the line."""
    got = []
    monkeypatch.setattr(check_module, "run_check_command", lambda **params: got.append(params) or 0)
    try:
        app(["check", *args], prog_name="mcplint", standalone_mode=False)
    except (typer.Exit, SystemExit):
        pass
    except Exception:  # click's usage errors
        return None
    return got[0] if got else None


def check_command():
    return typer.main.get_command(app).commands["check"]


def spellings() -> list[tuple[str, object]]:
    """(spelling, a value typer accepts for it, or None for a flag) for every option of `check`."""
    out = []
    for param in check_command().params:
        if param.param_type_name != "option":
            continue
        names = [*param.opts, *param.secondary_opts]
        if param.is_flag:
            out += [(name, None) for name in names]
        else:
            choices = getattr(param.type, "choices", None)
            value = "json" if "json" in (choices or ()) else "never" if choices else "MCP1,MCP2" if param.multiple else "some/file.yaml"
            out += [(name, value) for name in names]
    return out


def lines() -> list[list[str]]:
    """Command lines of every shape: each option spelled every way, repeated, mixed with paths."""
    found: list[list[str]] = [[], [CLEAN], ["-"], ["a.json", "b.yaml"], ["--", "-odd.json", "--verbose"]]
    for name, value in spellings():
        if value is None:
            found += [[name], [name, CLEAN], [CLEAN, name, "x.json"], [name, name], [f"{name}=1"]]
        else:
            found += [[name, value], [CLEAN, name, value, "x.json"], [name, value, name, "second"],
                      [name], [name, ""], [name, "-x"], [name, "JSON"], [name, "--verbose"]]
            if name.startswith("--"):
                found += [[f"{name}={value}"], [f"{name}="]]
            else:
                found += [[f"{name}{value}"], [f"{name}={value}"]]
    found += [["-qv", CLEAN], ["-fjson", CLEAN], ["--help"], ["-h"], ["--frmat", "json"], ["--servers", "--no-servers"],
              ["--no-servers", "--servers"], ["--statistics", "-f", "json"], ["--quiet", "--format", "github", CLEAN]]
    return found


@pytest.mark.parametrize("args", lines(), ids=lambda args: " ".join(args) or "(none)")
def test_the_quick_reader_hands_check_what_typer_would(args, monkeypatch):
    quick = entry.read_check_line(args)
    if quick is not None:
        assert quick == typer_params(args, monkeypatch)


def test_the_quick_reader_reads_the_everyday_lines():
    """Otherwise it could give every line to typer and the test above would pass vacuously."""
    for args in ([CLEAN], [], ["--quiet", "--skip-non-manifests", "a.json", "b.json"], ["-f", "sarif", "-o", "r.sarif", "."],
                 ["--format=json", "--select", "MCP1", "--ignore=MCP101", "--fail-on", "warning", "x"],
                 ["--config", "c.yaml", "--baseline", "b.json", "-v", "--", "-x.json"], ["--servers-only", "--audit"]):
        assert entry.read_check_line(args) is not None, args


def test_every_option_of_check_is_known_to_the_quick_reader():
    """A new option added to `check` in mcplint/cli.py must be added to mcplint.entry (until then
    the reader gives every line using it to typer, which is correct but slow)."""
    typer_options = {name: param.name for param in check_command().params if param.param_type_name == "option"
                     for name in (*param.opts, *param.secondary_opts)}
    quick_options = {name: key for name, (key, _) in itertools.chain(entry.CHECK_OPTIONS.items(), entry.CHECK_FLAGS.items())}
    assert quick_options == typer_options
    assert set(entry.CHECK_DEFAULTS) == {param.name for param in check_command().params}
    for param in check_command().params:
        choices = getattr(param.type, "choices", None)
        if choices:
            kind = entry.CHECK_OPTIONS[param.opts[0]][1]
            assert tuple(getattr(c, "value", c) for c in choices) == kind


def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mcplint", *args], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "NO_COLOR": "1", **env})


@pytest.mark.parametrize("args,fragment", [
    (("check", "--format", "xml", CLEAN), "Invalid value for '--format'"),
    (("check", "--nope", CLEAN), "No such option: --nope"),
    (("check", "--statistics", "-f", "json", CLEAN), "mcplint: error: --statistics applies to --format rich"),
])
def test_lines_the_reader_leaves_to_typer_or_refuses_still_fail_with_exit_code_2(args, fragment):
    proc = run(*args)
    assert proc.returncode == 2 and fragment in proc.stderr and "Traceback" not in proc.stderr, proc.stderr[-800:]
