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


# Schemas whose usability (valid under their dialect, and which dialect) the facts walk may
# decide instead of jsonschema's metaschema validation: each must get the answer the
# metaschema path gives.
USABILITY = [
    *SCHEMAS,
    {"type": "object", "required": ["a", "a"]},  # not unique: invalid in both drafts
    {"type": "object", "required": [1]},
    {"type": "array", "items": [{"type": "string"}]},  # array-form items: draft-07 only
    {"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "items": [{"type": "string"}]},
    {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "array", "items": [{"type": "string"}]},
    {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"},
    {"type": "object", "title": 3},
    {"type": "strin"},
    {"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}},
    {"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"type": "integer"}}},
    {"type": "object", "minProperties": -1},
]


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
@pytest.mark.parametrize("schema", USABILITY, ids=[str(i) for i in range(len(USABILITY))])
def test_the_facts_walk_picks_the_dialect_the_metaschemas_pick(schema, version):
    from mcplint.capture.output_schema import _usable_dialect
    from mcplint.schema_dialects import DRAFT7, DRAFT2020, LENIENT, UNKNOWN, metaschema_error, schema_dialect

    dialect, _ = schema_dialect(schema, version)
    if dialect == UNKNOWN:
        expected = None
    else:
        if dialect == LENIENT:
            dialect = DRAFT7 if metaschema_error(schema, DRAFT2020) and not metaschema_error(schema, DRAFT7) else DRAFT2020
        expected = None if metaschema_error(schema, dialect) else dialect
    assert _usable_dialect(schema, version) == expected
