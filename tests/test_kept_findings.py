"""mcplint.capture.kept caps a capture's findings as they come; the outcome must be what
deduplicating, dropping per-file-ignores and then ``cap_per_rule`` give on the whole list."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings, strategies as st

from mcplint.capture.kept import KeptFindings
from mcplint.document.pointer import Pointer
from mcplint.findings import cap_per_rule
from mcplint.per_file_ignores import ignored
from mcplint.rule import Violation

RULES = {code: SimpleNamespace(code=code) for code in ("MCP101", "MCP202", "MCP303")}
# MCP202 is silenced under /3 in every file
PLAN = SimpleNamespace(per_file_ignores=[(__import__("re").compile(".*"), "/3", {"MCP202"})], used_ignores=set(),
                       ignores_by_path={}, root=__import__("pathlib").Path("."))

entries = st.lists(st.tuples(st.sampled_from(sorted(RULES)), st.integers(0, 6), st.integers(0, 2),
                             st.sampled_from(["a", "b", "c"])), max_size=60)


def reference(items: list, limit: int) -> tuple[list, dict]:
    unique, seen = [], set()
    for entry in items:
        rule, violation, _ = entry
        key = (rule.code, violation.pointer, violation.message)
        if key in seen or ignored(rule.code, str(violation.pointer), "x.jsonl", PLAN):
            continue
        seen.add(key)
        unique.append(entry)
    return cap_per_rule(unique, lambda entry: entry[0].code, limit)


@settings(max_examples=300, deadline=None)
@given(entries, st.integers(1, 4))
def test_capping_as_they_come_equals_capping_at_the_end(found, limit):
    items = [(RULES[code], Violation(Pointer((a, b)), f"message {b}"), tool) for code, a, b, tool in found]
    kept = KeptFindings("x.jsonl", PLAN, limit)
    kept.extend(items)
    assert kept.selected() == reference(items, limit)


@settings(max_examples=200, deadline=None)
@given(entries, st.integers(1, 4), st.booleans())
def test_making_entries_lazily_keeps_what_appending_keeps_and_makes_only_those(found, limit, with_ignores):
    plan = PLAN if with_ignores else SimpleNamespace(per_file_ignores=[], used_ignores=set(), ignores_by_path={}, root=PLAN.root)
    items = [(RULES[code], Violation(Pointer((a, b)), f"message {b}"), tool) for code, a, b, tool in found]
    eager, lazy, made = KeptFindings("x.jsonl", plan, limit), KeptFindings("x.jsonl", plan, limit), []
    eager.extend(items)
    for item in items:
        lazy.append_lazily(item[0], item[1].pointer, item[1].message, lambda item=item: made.append(item) or item)
    assert lazy.selected() == eager.selected()
    kept, left_out = eager.selected()
    assert len(made) == len(kept) + len(left_out)  # nothing past a rule's first left out is made
