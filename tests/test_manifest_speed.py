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

    assert _only_builtin("[console_scripts]\nmcplint = mcplint.entry:main\n\n[mcplint.rules]\ncore = mcplint_rules\n")
    assert not _only_builtin("[mcplint.rules]\ncore = mcplint_rules\nacme = acme_rules\n")
    assert not _only_builtin("[ mcplint.rules ]\nacme = acme_rules\n")
    assert not _only_builtin("[mcplint.rules]\nacme = mcplint_rules_extra\n")


def _reference(raw, manifest, plan, limit):
    """The findings as lint made them before it capped early: every finding located."""
    from mcplint import engine
    from mcplint.findings import capped

    manifest.document.source_map.prepare([v.pointer for _, v in raw])
    findings = [engine._finding(rule, v, manifest, plan) for rule, v in raw]
    pending = {id(f): v for f, (_, v) in zip(findings, raw)}
    findings = capped([f for f in findings if not engine._ignored(f, manifest.document, plan)], limit)
    return [engine._identified(f, pending[id(f)], manifest) if id(f) in pending else f for f in findings]


_tool = st.fixed_dictionaries({
    "name": st.sampled_from(["getUser", "get_user", "x", "DoThing!", "list issues", ""]),
    "description": st.sampled_from(["", "Gets it 🚀", "The best tool ever!!!", "Get the user by id.", "x"]),
    "inputSchema": st.fixed_dictionaries({
        "type": st.just("object"),
        "properties": st.dictionaries(st.sampled_from(["a", "b", "query", "file_path", "0"]),
                                      st.sampled_from([{}, {"type": "string"}, {"type": "array"}, True]),
                                      max_size=3),
        "required": st.lists(st.sampled_from(["a", "zz", "query"]), max_size=2, unique=True),
    }),
}, optional={"annotations": st.fixed_dictionaries({"readOnlyHint": st.booleans()}), "bogus": st.just(1),
             "title": st.sampled_from(["", "Get", "get_user"])})


@settings(max_examples=60, deadline=None)
@given(st.lists(_tool, min_size=1, max_size=8), st.integers(min_value=1, max_value=4), st.booleans(),
       st.sampled_from([None, "/tools/0", "/tools/1/inputSchema"]))
def test_early_cap_keeps_what_capping_every_located_finding_keeps(tools, limit, indent, ignored_prefix):
    import json

    from mcplint import engine, versions
    from mcplint.config import Config
    from mcplint.document.loader import _load_json
    from mcplint.document.manifest import classify

    text = json.dumps({"tools": tools}, indent=1 if indent else None, ensure_ascii=False)
    config = Config()
    if ignored_prefix is not None:
        config.per_file_ignores = {f"*.json#{ignored_prefix}": ["MCP2", "MCP3"]}
    plan = engine.Plan.build(config)
    manifest = classify(_load_json("m.json", text))
    raw = engine.violations(manifest, plan, versions.LATEST)
    fast = engine._capped_early(raw, manifest, plan, limit)
    manifest = classify(_load_json("m.json", text))  # a fresh source map
    assert fast == _reference(engine.violations(manifest, plan, versions.LATEST), manifest, plan, limit)


_json_values = st.recursive(
    st.one_of(st.none(), st.integers(), st.text(max_size=3)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["a", "b", "c", "0"]), inner, max_size=4),
    max_leaves=25,
)
_tokens = st.lists(st.sampled_from(["a", "b", "c", "0", "1", "2", "9", "01"]), max_size=4)


@settings(max_examples=300, deadline=None)
@given(_json_values, st.lists(st.tuples(_tokens, st.booleans()), min_size=1, max_size=6), st.booleans(),
       st.booleans())
def test_source_map_that_stops_after_the_last_wanted_value_gives_the_same_spans(value, wanted, indent, one_by_one):
    import json

    from mcplint.document.jsonmap import JsonSourceMap
    from mcplint.document.pointer import Pointer

    text = json.dumps(value, indent=1 if indent else None)
    full, early = JsonSourceMap(text), JsonSourceMap(text, unique_keys=True)
    pointers = [Pointer(tokens) for tokens, _ in wanted]
    if one_by_one:  # several prepare() calls, as a later lookup makes
        for ptr in pointers:
            early.prepare([ptr])
    else:
        early.prepare(pointers)
    full.prepare(pointers)
    for ptr, at_key in ((Pointer(t), k) for t, k in wanted):
        assert early.span(ptr, key=at_key) == full.span(ptr, key=at_key)
    for ptr in (Pointer(), *(Pointer(t[:-1]) for t, _ in wanted if t)):  # ancestors the walk left early
        assert early.span(ptr) == full.span(ptr)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab\n", max_size=300), st.lists(st.integers(min_value=0, max_value=300), max_size=12),
       st.integers(min_value=0, max_value=3))
def test_line_index_scanned_in_chunks_places_offsets_as_splitting_all_lines_did(text, offsets, repeat_text):
    import bisect

    from mcplint.document.span import LineIndex

    text = text * (1 + repeat_text * 400)  # past the first chunk of 65,536 characters too
    starts = [0] + [i + 1 for i, char in enumerate(text) if char == "\n"]
    index = LineIndex(text)
    for offset in [min(o * (1 + repeat_text * 400), len(text)) for o in offsets]:
        row = bisect.bisect_right(starts, offset) - 1
        assert index.position(offset) == (row + 1, offset - starts[row] + 1)
