"""The argument check's one-function shapes (``argument_check._specialized``: an object of
properties, a number with bounds) must answer as the per-keyword checks they stand for."""

from __future__ import annotations

import math

import pytest

from mcplint.capture import argument_check

SCHEMAS = [
    {"type": "object", "properties": {"station_id": {"type": "string"},
                                      "hours": {"type": "integer", "minimum": 1, "maximum": 48}},
     "required": ["station_id"], "additionalProperties": False},
    {"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}},
     "additionalProperties": {"type": "boolean"}, "description": "d"},
    {"type": "object", "required": ["a", "b"]},
    {"type": "object", "properties": {"inner": {"type": "object", "properties": {"x": {"type": "integer"}},
                                                "required": ["x"]}}},
    {"type": "integer"}, {"type": "number", "minimum": -1.5, "title": "t"}, {"type": "integer", "maximum": 0},
]
VALUES = [
    {}, {"station_id": "K"}, {"station_id": "K", "hours": 0}, {"station_id": "K", "hours": 48}, {"station_id": 1},
    {"station_id": "K", "hours": 2.0}, {"station_id": "K", "hours": 2.5}, {"station_id": "K", "hours": True},
    {"station_id": "K", "other": 1}, {"n": 0.5}, {"n": 0}, {"n": 1}, {"n": math.nan}, {"flag": True}, {"flag": 1},
    {"a": 1, "b": 2}, {"a": 1}, {"inner": {"x": 1}}, {"inner": {}}, {"inner": {"x": "1"}}, {"inner": 3},
    0, 1, -1, 1.0, 1.5, -1.5, -2, math.nan, math.inf, -math.inf, True, False, None, "1", [], [1],
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=[str(i) for i in range(len(SCHEMAS))])
def test_the_one_function_shapes_answer_as_the_keyword_checks(monkeypatch, schema):
    fast = argument_check._compile(schema)
    assert argument_check._specialized(schema, 0) is not None  # the shape is one of them
    monkeypatch.setattr(argument_check, "_specialized", lambda schema, depth: None)
    plain = argument_check._compile(schema)
    for value in VALUES:
        assert fast(value) is plain(value), (schema, value)
