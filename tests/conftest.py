"""Shared test helpers: paths, the CLI runner and golden-file comparison."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared"
UPDATE_GOLDEN = bool(os.environ.get("MCPLINT_UPDATE_GOLDEN"))

# A shell without job control starts background commands with Ctrl-C (SIGINT) ignored, and every
# process inherits that, mcplint included: the tests that interrupt an audit would then wait for
# nothing. They test what a terminal gives, so the suite restores it however it was started.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def shared_path(*parts: str) -> Path:
    """A file in ../shared, or skip the test saying why (it is never committed here)."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is not available (../shared is not checked out beside the project)")
    return path


def run_mcplint(*args: str, cwd: Path | None = None, stdin: bytes | None = None, env: dict | None = None):
    """Run the real command in a subprocess, as a user would."""
    inherited = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    full_env = {**inherited, "NO_COLOR": "1", "COLUMNS": "100", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "mcplint", *args],
        cwd=cwd or ROOT, input=stdin, capture_output=True, env=full_env, timeout=120,
    )


def assert_golden(actual: str, golden: Path) -> None:
    """Compare with a golden file; MCPLINT_UPDATE_GOLDEN=1 rewrites it (review the diff)."""
    if UPDATE_GOLDEN or not golden.exists():
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
        if not UPDATE_GOLDEN:
            pytest.fail(f"{golden} did not exist; it was written now, review and commit it")
    assert actual == golden.read_text(encoding="utf-8"), f"output differs from {golden.relative_to(ROOT)}"
