"""mcplint.document.value_count: the cheap bound never refuses a document within the limit, and
the count is exact where it decides."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from mcplint.document.value_count import holds_too_many

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet=",:[]{}\"\\ab", max_size=8),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(alphabet=",:[a", max_size=4), inner, max_size=6),
    max_leaves=60,
)


def values(data) -> int:
    if isinstance(data, dict):
        return 1 + sum(values(v) for v in data.values())
    if isinstance(data, list):
        return 1 + sum(values(v) for v in data)
    return 1


@settings(max_examples=400, deadline=None)
@given(JSON, st.integers(min_value=0, max_value=80), st.booleans(), st.booleans())
def test_the_answer_is_the_exact_count_against_the_limit(data, limit, spaced, as_bytes):
    text = json.dumps(data, separators=(", ", ": ") if spaced else (",", ":"))
    assert holds_too_many(text.encode() if as_bytes else text, data, limit) == (values(data) > limit)


def test_separators_inside_strings_only_make_it_count_exactly():
    # the cheap bound counts the commas of the strings too; the walk then finds 3 values
    data = ["," * 50, ":" * 50]
    assert not holds_too_many(json.dumps(data), data, limit=3)
    assert holds_too_many(json.dumps(data), data, limit=2)


def test_a_listing_of_empty_tools_at_and_past_the_limit():
    at_limit = {"tools": [{}] * 8}  # 10 values: the document, the list and 8 tools
    assert not holds_too_many(json.dumps(at_limit), at_limit, limit=10)
    assert holds_too_many(json.dumps(at_limit), at_limit, limit=9)


def test_yaml_is_counted_without_the_json_bound():
    # block style: no '[', ',' or ':' before the items, so the JSON bound (1) would wrongly clear it
    data = ["x"] * 20
    assert holds_too_many("- x\n" * 20, data, limit=19, json=False)
    assert not holds_too_many("- x\n" * 20, data, limit=21, json=False)


def test_yaml_aliases_are_counted_expanded():
    shared = ["x"] * 10
    data = {"a": shared, "b": shared, "c": shared}  # what `a: &l [...]`, `b: *l`, `c: *l` builds
    assert holds_too_many("a: &l [x]\nb: *l\nc: *l\n", data, limit=30, json=False)
    assert not holds_too_many("a: &l [x]\nb: *l\nc: *l\n", data, limit=34, json=False)
