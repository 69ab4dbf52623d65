"""The registry: discovery, unique metadata, selection."""

from __future__ import annotations

import re

import pytest

from mcplint import registry
from mcplint.checklist import ITEMS
from mcplint.errors import MCPLintError
from mcplint.findings import Severity
from mcplint.versions import VERSIONS

RULES = registry.all_rules()


def test_builtin_rules_are_discovered():
    assert len(RULES) >= 3
    assert all(r.__module__.startswith("mcplint_rules.") for r in RULES)


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_rule_metadata_is_complete(rule):
    assert re.fullmatch(r"MCP[0-9]{3}", rule.code)
    assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", rule.name)
    assert isinstance(rule.severity, Severity)
    assert rule.category
    assert all(i in ITEMS for i in rule.checklist)
    assert rule.versions and set(rule.versions) <= set(VERSIONS)


def test_selection_by_code_prefix_slug_and_all():
    assert [r.code for r in registry.find("MCP204")] == ["MCP204"]
    assert [r.code for r in registry.find("duplicate-tool-name")] == ["MCP204"]
    assert all(r.code.startswith("MCP2") for r in registry.find("MCP2"))
    assert len(registry.find("ALL")) == len(RULES)
    chosen = registry.select(["MCP2"], ignore=["duplicate-tool-name"])
    assert "MCP204" not in {r.code for r in chosen} and chosen


def test_unknown_selector_is_a_clear_error():
    with pytest.raises(MCPLintError, match="unknown rule 'no-such-rule'"):
        registry.find("no-such-rule")
