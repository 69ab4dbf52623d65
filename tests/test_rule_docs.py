"""Rule docstrings are documentation that runs: Bad examples fire, Good ones stay silent."""

from __future__ import annotations

import pytest

from mcplint import docs, registry
from mcplint.testing import lint_text

RULES = registry.all_rules()


def _examples():
    for rule in RULES:
        for index, example in enumerate(docs.examples(rule)):
            yield pytest.param(rule, example, id=f"{rule.code}-{example.kind}-{index}")


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_docstring_has_the_required_sections(rule):
    parts = docs.sections(rule)
    assert parts["summary"].endswith("."), f"{rule.code}: the summary line should be a sentence"
    for section in ("Why", "Bad", "Good"):
        assert section in parts, f"{rule.code}: docstring has no '## {section}' section"
    kinds = {e.kind for e in docs.examples(rule)}
    assert kinds == {"bad", "good"}, f"{rule.code}: needs at least one Bad and one Good example"


@pytest.mark.parametrize("rule,example", list(_examples()))
def test_docstring_example(rule, example):
    findings = lint_text(example.text, example.format, select=[rule.code], version=example.version, lock=example.lock)
    if example.kind == "bad":
        assert findings, f"{rule.code}: a Bad example raised nothing"
    else:
        assert not findings, f"{rule.code}: a Good example raised " + "; ".join(f.message for f in findings)
