"""Every case in fixtures/rules/<rule module>.yaml, run with only that rule enabled."""

from __future__ import annotations

from collections import Counter

import pytest
from ruamel.yaml import YAML

from conftest import FIXTURES
from mcplint import registry
from mcplint.testing import lint_text

CASE_DIR = FIXTURES / "rules"


def _load_cases():
    params = []
    for case_file in sorted(CASE_DIR.glob("*.yaml")):
        spec = YAML(typ="safe", pure=True).load(case_file.read_text("utf-8"))
        for case in spec["cases"]:
            params.append(pytest.param(spec["rule"], case, id=f"{case_file.stem}::{case['name']}"))
    return params


@pytest.mark.parametrize("code,case", _load_cases())
def test_rule_case(code, case):
    findings = lint_text(
        case["doc"], case.get("format", "json"), select=[code],
        version=str(case["protocol"]) if "protocol" in case else None, options={code: case["options"]} if "options" in case else None,
        lock=case.get("lock"),  # pinning rules: the manifest as `mcplint lock` saw it
    )
    expected = case.get("expect") or []
    got = Counter(f.pointer for f in findings)
    want = Counter(e["pointer"] for e in expected)
    assert got == want, "\n".join(f"{f.pointer}: {f.message}" for f in findings) or "no findings"
    for item in expected:
        if "message" in item:
            messages = [f.message for f in findings if f.pointer == item["pointer"]]
            assert any(item["message"] in m for m in messages), (item["message"], messages)
        if "severity" in item:
            levels = [f.severity.value for f in findings if f.pointer == item["pointer"]]
            assert item["severity"] in levels, (item["pointer"], item["severity"], levels)
    assert all(f.code == code for f in findings)


def test_every_rule_has_a_case_file_with_bad_and_good_cases():
    for rule in registry.all_rules():
        if not rule.__module__.startswith("mcplint_rules."):
            continue
        stem = rule.__module__.rsplit(".", 1)[-1]
        case_file = CASE_DIR / f"{stem}.yaml"
        assert case_file.exists(), f"{rule.code} has no case file {case_file.name}"
        spec = YAML(typ="safe", pure=True).load(case_file.read_text("utf-8"))
        assert spec["rule"] == rule.code, f"{case_file.name} names {spec['rule']}, not {rule.code}"
        assert any(c.get("expect") for c in spec["cases"]), f"{case_file.name}: no failing case"
        assert any(not c.get("expect") for c in spec["cases"]), f"{case_file.name}: no passing case"
