"""The msgspec fast path of the JSON loader reads every document exactly as the stdlib path
does (values, their types, duplicates, errors), or leaves it to the stdlib path."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from mcplint import fast_json
from mcplint.document import loader
from mcplint.errors import InputError


def _typed(value):
    """A value with every type spelled out (1 == 1.0 == True in plain comparison)."""
    if isinstance(value, dict):
        return ("dict", [(k, _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(v) for v in value])
    return (type(value).__name__, repr(value))


def _stdlib(text: str):
    """What the loader read before the fast path: the stdlib with its hooks."""
    original = loader._fast_loads
    loader._fast_loads = lambda text: loader._SLOW
    try:
        document = loader._load_json("x.json", text)
        return _typed(document.data), document.duplicate_keys
    except InputError as err:
        return "error", str(err)
    finally:
        loader._fast_loads = original


def _both(text: str):
    original = fast_json.pays
    fast_json.pays = lambda size: True  # (the loader leaves small texts to the stdlib)
    try:
        document = loader._load_json("x.json", text)
        fast = _typed(document.data), document.duplicate_keys
    except InputError as err:
        fast = "error", str(err)
    finally:
        fast_json.pays = original
    return fast, _stdlib(text)


EDGES = [
    '{"a": 1, "a": 2}', '{"a": {"b": 1, "b": 2}}', '{"a:b": 1, "a": 2, "a": 3}', '{"a\\u003a": 1, "a\\u003a": 2}',
    "1e400", "-1e400", "[NaN]", "[Infinity]", "[-Infinity]", '"\\ud800"', '"\\udc00"', '"\\ud800\\udc00"',
    '"x\\ud800y"', "123456789012345678901234567890", "18446744073709551615", "18446744073709551616",
    "-9223372036854775808", "-9223372036854775809", "[1.0, -0.0, 1E2, 0.1, -0, 5e-324, 1e-400]",
    "1.7976931348623157e308", "1.7976931348623159e308", '"a\\u003ab"', "[" * 3000 + "]" * 3000,
    '{"a": "\x01"}', '  {"x": 1}  ', '{"x": 1} x', "[1,]", "{'a': 1}", '"\\x"', "01", "1.", ".5", "-", "[1 2]",
    '{"description": "note: see https://example.com"}', '"' + "9" * 5000 + '"', "9" * 5000, "[true, false, null]",
]


@pytest.mark.parametrize("text", EDGES)
def test_edges_read_as_the_stdlib_reads_them(text):
    fast, slow = _both(text)
    assert fast == slow


_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
)
_values = st.recursive(
    _scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_values, st.booleans())
def test_generated_documents(value, ascii_only):
    fast, slow = _both(json.dumps(value, ensure_ascii=ascii_only))
    assert fast == slow


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(['{"a":', '"a"', ":", ",", "}", "[", "]", "1", "-0", "1e999", "2.5", '"\\u003a"',
                                 '"b"', "NaN", '"\\ud83d"', '"\\ude00"', "18446744073709551616", " ", "null"]),
                max_size=12))
def test_token_soup(tokens):
    fast, slow = _both("".join(tokens))
    assert fast == slow
