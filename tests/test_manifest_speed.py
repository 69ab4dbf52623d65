"""Shortcuts the manifest engine takes for speed give what the long way gives."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mcplint import schemas, versions
from mcplint.schema_dialects import DRAFT2020, LENIENT

_leaf = st.one_of(st.booleans(), st.just({}), st.just({"type": "string"}), st.just({"type": "array"}))
_schema = st.recursive(
    _leaf,
    lambda inner: st.one_of(
        st.dictionaries(st.sampled_from(["properties", "definitions", "$defs", "dependencies"]),
                        st.dictionaries(st.sampled_from(["a", "b", "url"]), inner, max_size=2), max_size=2),
        st.fixed_dictionaries({"items": st.lists(inner, max_size=2) | inner}),
        st.fixed_dictionaries({"additionalItems": inner, "type": st.just("array")}),
        st.fixed_dictionaries({"anyOf": st.lists(inner, min_size=1, max_size=2)}),
        st.fixed_dictionaries({"type": st.just("object"), "required": st.just(["a", "z"]),
                               "properties": st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2)}),
    ),
    max_leaves=12,
)
_declared = st.sampled_from([None, "https://json-schema.org/draft/2020-12/schema",
                             "http://json-schema.org/draft-07/schema#", "https://example.com/unknown", 5])


def _state(facts: schemas.Facts) -> dict:
    state = {name: getattr(facts, name) for name in schemas.Facts.__slots__ if name != "refs"}
    state["refs"] = [(r.path, r.ref, r.base, r.resource) for r in facts.refs]
    return state


@settings(max_examples=300, deadline=None)
@given(_schema, _declared)
def test_facts_in_the_other_dialect_equal_a_second_walk(schema, declared):
    if not isinstance(schema, dict):
        schema = {"items": schema}
    if declared is not None:
        schema = {**schema, "$schema": declared}
    for old, new, dialect in ((versions.V2025_06_18, versions.V2025_11_25, DRAFT2020),
                              (versions.V2025_11_25, versions.V2025_06_18, LENIENT)):
        first = schemas.facts(schema, old)
        derived = first if first.declared is not None else first.in_dialect(dialect)
        assert _state(derived) == _state(schemas.facts(schema, new))


def test_plugin_look_leaves_anything_unusual_to_importlib_metadata():
    from mcplint.registry import _only_builtin

    assert _only_builtin("[console_scripts]\nmcplint = mcplint.cli:main\n\n[mcplint.rules]\ncore = mcplint_rules\n")
    assert not _only_builtin("[mcplint.rules]\ncore = mcplint_rules\nacme = acme_rules\n")
    assert not _only_builtin("[ mcplint.rules ]\nacme = acme_rules\n")
    assert not _only_builtin("[mcplint.rules]\nacme = mcplint_rules_extra\n")
