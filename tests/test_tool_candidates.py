"""A tool rule's ``candidates`` (the census-based pre-checks that spare 10,000 calls) may leave
out only tools ``check_tool`` finds nothing in: on every manifest we have, in every version,
each rule finds through its candidates exactly what it finds calling check_tool on every tool."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from conftest import FIXTURES
from mcplint import engine, versions
from mcplint.config import Config
from mcplint.document.loader import load_document
from mcplint.document.manifest import classify
from mcplint.rule import RuleContext, ToolRule

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def _documents() -> list[tuple[str, bytes]]:
    found = [(str(path), path.read_bytes()) for path in sorted((FIXTURES / "manifests").glob("*.*"))
             if path.suffix in (".json", ".yaml", ".yml")]
    if CORPUS.is_dir():
        found += [(str(path), path.read_bytes()) for path in sorted((CORPUS / "manifests").rglob("*"))
                  if path.suffix in (".json", ".yaml", ".yml")]
    for case_file in sorted((FIXTURES / "rules").glob("*.yaml")):  # every rule's good and bad cases
        for i, case in enumerate(YAML(typ="safe", pure=True).load(case_file.read_text("utf-8"))["cases"]):
            fmt = case.get("format", "json")
            if fmt in ("json", "yaml"):
                found.append((f"{case_file.stem}-{i}.{fmt}", case["doc"].encode("utf-8")))
    return found


def _manifests():
    for name, raw in _documents():
        try:
            manifest = classify(load_document(name, raw))
        except Exception:  # noqa: BLE001 - a case about unreadable input: nothing to compare
            continue
        if manifest is not None:
            yield name, manifest


def _mismatches(plan, rules) -> tuple[list, int]:
    """(name, version, code) where a rule's candidates find other than every tool does, and
    how many comparisons had findings at all."""
    wrong, with_findings = [], 0
    for name, manifest in _manifests():
        for version in versions.VERSIONS:
            for rule in rules:
                if version not in rule.versions:
                    continue
                ctx = RuleContext(version, plan.options[rule.code], name, manifest, None)
                every = [(v.pointer, v.message) for ptr, tool in manifest.tool_objects() if isinstance(tool, dict)
                         for v in rule.check_tool(ptr, tool, ctx)]
                picked = [(v.pointer, v.message) for ptr, tool in rule.candidates(manifest, ctx)
                          for v in rule.check_tool(ptr, tool, ctx)]
                if picked != every:
                    wrong.append((name, version, rule.code))
                with_findings += bool(every)
    return wrong, with_findings


def _picky(plan) -> list[ToolRule]:
    return [rule for rule in plan.rules if isinstance(rule, ToolRule)
            and (type(rule).candidates is not ToolRule.candidates or rule.fields is not None)]


def test_candidates_leave_out_only_tools_without_findings():
    plan = engine.Plan.build(Config(select=["ALL"]))
    rules = _picky(plan)
    assert len(rules) >= 10, "the census pre-checks this test guards are gone"
    wrong, with_findings = _mismatches(plan, rules)
    assert not wrong
    assert with_findings > 100  # the rules did find things, so the comparison had teeth


@pytest.mark.parametrize("code", ["MCP410", "MCP414"])
def test_the_comparison_catches_a_pre_check_that_drops_tools(code, monkeypatch):
    plan = engine.Plan.build(Config(select=[code]))
    monkeypatch.setattr(type(plan.rules[0]), "candidates", lambda self, doc, ctx: [])
    wrong, _ = _mismatches(plan, plan.rules)
    assert wrong
