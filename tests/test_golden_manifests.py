"""Realistic manifests, linted end to end through the real command, against golden files.

This is where lines and columns are asserted for every rule at once: each
fixtures/manifests/<name> has <name>.expected.txt with one finding per line,
`CODE line:col-end_line:end_col pointer message`. MCPLINT_UPDATE_GOLDEN=1 rewrites them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import FIXTURES, assert_golden, run_mcplint

MANIFESTS = sorted(p for p in (FIXTURES / "manifests").iterdir() if p.suffix in (".json", ".yaml", ".yml"))


def render(findings: list[dict]) -> str:
    return "".join(
        f"{f['rule']} {f['line']}:{f['column']}-{f['end_line']}:{f['end_column']} {f['pointer']} {f['message']}\n"
        for f in findings
    )


@pytest.mark.parametrize("manifest", MANIFESTS, ids=[p.name for p in MANIFESTS])
def test_manifest_findings_match_golden(manifest):
    proc = run_mcplint("check", str(manifest.relative_to(FIXTURES.parent)), "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    assert_golden(render(findings), manifest.with_name(manifest.name + ".expected.txt"))


def test_clean_manifest_has_no_findings():
    proc = run_mcplint("check", "fixtures/manifests/clean-server.json", "--format", "json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["findings"] == []


def test_msgspec_path_reads_every_manifest_alike():
    """A small manifest is read with the stdlib (msgspec's import costs more than it saves);
    once msgspec is loaded (a big document, a folder with captures) every manifest takes its
    path, and shares schema walks, with the same findings to the column."""
    run_with_msgspec = ("import msgspec.json, runpy, sys; sys.argv[0] = 'mcplint'; "
                        "runpy.run_module('mcplint', run_name='__main__', alter_sys=True)")
    paths = [str(m.relative_to(FIXTURES.parent)) for m in MANIFESTS]
    proc = subprocess.run([sys.executable, "-c", run_with_msgspec, "check", *paths, "--format", "json"],
                          cwd=FIXTURES.parent, capture_output=True, env={**os.environ, "NO_COLOR": "1"}, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    by_path: dict[str, list[dict]] = {path: [] for path in paths}
    for finding in json.loads(proc.stdout)["findings"]:
        by_path[finding["path"]].append(finding)
    for manifest, path in zip(MANIFESTS, paths):
        golden = manifest.with_name(manifest.name + ".expected.txt")
        assert render(by_path[path]) == golden.read_text(encoding="utf-8"), f"{path} reads otherwise with msgspec"
