"""MCP721's fast path (capture/output_schema.py): for the plain schemas most tools declare, a
test compiled once per schema decides validity without jsonschema. It must agree with
jsonschema on every value, or structured content would be passed (or sent to jsonschema)
wrongly."""

from __future__ import annotations

import jsonschema
import pytest

from mcplint.capture.output_schema import _compiled, _simple

SCHEMAS = [
    {"type": "object", "properties": {"station": {"type": "string"}, "celsius": {"type": "number"}},
     "required": ["station", "celsius"]},
    {"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": False},
    {"type": ["string", "null"]},
    {"type": "array", "items": {"type": "integer"}},
    {"type": "array", "items": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}},
    {"enum": [1, "a", None, True]},
    {"type": "number", "enum": [1, 2.5]},
    {"properties": {"tags": {"type": "array", "items": {"type": "string"}}}},
    {"type": []},
    {"type": "object", "properties": {"x": {"type": ["string", "null"], "description": "d"}, "y": {"type": "boolean"},
                                      "z": {"type": "number", "title": "t"}, "w": {"type": "array"}}},
    {"type": "integer"},
    {},
]
VALUES = [
    {"station": "KSFO", "celsius": 12.5}, {"station": "KSFO"}, {"station": 1, "celsius": 2},
    {"n": 1}, {"n": 1.0}, {"n": 1.5}, {"n": True}, {"n": 1, "extra": 0}, {},
    "text", None, 1, 1.0, 2.5, True, False, [], [1, 2], [1, "2"], [1.0], [{"ok": True}], [{"ok": 1}], [{}],
    {"tags": ["a", "b"]}, {"tags": ["a", 1]}, {"tags": "a"}, "a", [True],
    {"x": None, "y": False, "z": 1, "w": []}, {"x": "s", "z": 2.5}, {"x": 1}, {"y": 0}, {"z": True}, {"z": "1"},
    {"w": {}}, {"y": None},
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=[str(i) for i in range(len(SCHEMAS))])
def test_the_compiled_test_agrees_with_jsonschema(schema):
    assert _simple(schema)
    valid = _compiled(schema)
    checker = jsonschema.Draft202012Validator(schema)
    for value in VALUES:
        assert valid(value) == checker.is_valid(value), (schema, value)


def test_the_compiled_test_is_built_once_and_reused():
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    valid = _compiled(schema)
    schema["required"] = ["b"]  # read when compiled, not at each call
    assert valid({"a": 1}) and not valid({"a": "x"})


def test_schemas_outside_the_fast_path_are_left_to_jsonschema():
    for schema in ({"type": "string", "minLength": 2}, {"anyOf": [{"type": "string"}]},
                   {"type": "object", "additionalProperties": {"type": "string"}}, {"type": "date"}):
        assert not _simple(schema)
