"""Realistic manifests, linted end to end through the real command, against golden files.

This is where lines and columns are asserted for every rule at once: each
fixtures/manifests/<name> has <name>.expected.txt with one finding per line,
`CODE line:col-end_line:end_col pointer message`. MCPLINT_UPDATE_GOLDEN=1 rewrites them.
"""

from __future__ import annotations

import json

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
