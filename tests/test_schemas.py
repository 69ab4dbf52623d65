"""mcplint.schemas: dialect choice, the fast validity path, $ref resolution, caching."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from conftest import ROOT, shared_path
from mcplint import schema_refs, schemas
from mcplint import schema_dialects as dialects
from mcplint.schema_dialects import DRAFT4, DRAFT7, DRAFT2020, LENIENT, UNKNOWN

D7 = "http://json-schema.org/draft-07/schema#"
D2020 = "https://json-schema.org/draft/2020-12/schema"
# facts() takes a protocol version; these select the dialect of a schema without $schema
LENIENT_AT, STRICT_AT = "2025-06-18", "2025-11-25"


def _jsonschema_valid(schema, dialect: str, default_formats: bool) -> bool:
    """The oracle: jsonschema's own metaschema validation (LENIENT = draft-07 or 2020-12)."""
    import jsonschema

    classes = {DRAFT7: [jsonschema.Draft7Validator], DRAFT2020: [jsonschema.Draft202012Validator],
               LENIENT: [jsonschema.Draft7Validator, jsonschema.Draft202012Validator]}[dialect]
    for cls in classes:
        checker = cls.FORMAT_CHECKER if default_formats else dialects._format_checker()
        if not list(cls(cls.META_SCHEMA, format_checker=checker).iter_errors(schema)):
            return True
    return False


def _facts_in(schema, dialect: str):
    if dialect == DRAFT7:
        schema = {"$schema": D7, **schema} if isinstance(schema, dict) else schema
    found = schemas.facts(schema, LENIENT_AT if dialect == LENIENT else STRICT_AT)
    assert found.dialect == dialect
    return schema, found


# -- dialects ---------------------------------------------------------------------------------

@pytest.mark.parametrize("schema,version,expected", [
    ({"type": "object"}, "2024-11-05", LENIENT),
    ({"type": "object"}, "2025-06-18", LENIENT),
    ({"type": "object"}, "2025-11-25", DRAFT2020),
    ({"type": "object"}, "2026-07-28", DRAFT2020),
    ({"$schema": D7}, "2026-07-28", DRAFT7),
    ({"$schema": "http://json-schema.org/draft-07/schema"}, "2025-06-18", DRAFT7),
    ({"$schema": "https://json-schema.org/draft-07/schema#"}, "2025-11-25", DRAFT7),
    ({"$schema": D2020}, "2024-11-05", DRAFT2020),
    ({"$schema": "https://json-schema.org/draft/2020-12/schema#"}, "2025-11-25", DRAFT2020),
    ({"$schema": "http://json-schema.org/draft-04/schema#"}, "2025-11-25", DRAFT4),
    ({"$schema": "http://json-schema.org/draft-03/schema#"}, "2025-11-25", UNKNOWN),
    ({"$schema": "https://example.com/dialect"}, "2025-06-18", UNKNOWN),
    ({"$schema": 7}, "2025-11-25", DRAFT2020),  # not a string: the metaschema reports it
])
def test_dialect_selection(schema, version, expected):
    assert dialects.schema_dialect(schema, version)[0] == expected


# -- the fast path against jsonschema -----------------------------------------------------------

TABLE = [
    # (schema, dialect, valid)
    ({"type": "object", "properties": {"x": {"type": "string"}}}, DRAFT2020, True),
    ({"type": "object", "properties": {"x": {"type": "strng"}}}, DRAFT2020, False),
    ({"type": "object", "properties": {"x": {"type": "strng"}}}, LENIENT, False),
    ({"type": "object", "required": "a"}, DRAFT2020, False),
    ({"type": "object", "required": ["a", "a"]}, DRAFT2020, False),
    ({"type": "object", "required": [1]}, DRAFT7, False),
    ({"type": "object", "required": []}, DRAFT7, True),
    ({"type": "object", "properties": {"x": {"minimum": "1"}}}, DRAFT2020, False),
    ({"type": "object", "properties": {"x": {"minimum": True}}}, DRAFT2020, False),
    ({"type": "object", "properties": []}, DRAFT2020, False),
    ({"type": "object", "properties": {"x": 1}}, DRAFT2020, False),
    ({"type": "object", "properties": {"x": True, "y": False}}, DRAFT2020, True),
    ({"type": "array", "items": [{"type": "string"}]}, DRAFT2020, False),
    ({"type": "array", "items": [{"type": "string"}]}, DRAFT7, True),
    ({"type": "array", "items": [{"type": "string"}]}, LENIENT, True),
    ({"type": "array", "items": []}, DRAFT7, False),
    ({"type": "array", "prefixItems": [{"type": "string"}], "items": False}, DRAFT2020, True),
    ({"enum": []}, DRAFT2020, True),
    ({"enum": []}, DRAFT7, True),
    ({"enum": [1, 1]}, DRAFT2020, True),
    ({"enum": "a"}, DRAFT2020, False),
    ({"type": []}, DRAFT2020, False),
    ({"type": ["string", "string"]}, DRAFT2020, False),
    ({"type": ["string", "null"]}, DRAFT2020, True),
    ({"anyOf": []}, DRAFT2020, False),
    ({"anyOf": {"type": "string"}}, DRAFT2020, False),
    ({"minLength": -1}, DRAFT2020, False),
    ({"minLength": 1.5}, DRAFT2020, False),
    ({"minLength": 2.0}, DRAFT2020, True),  # jsonschema counts 2.0 as an integer; fast path defers
    ({"multipleOf": 0}, DRAFT2020, False),
    ({"exclusiveMinimum": True}, DRAFT7, False),
    ({"exclusiveMinimum": True}, LENIENT, False),
    ({"exclusiveMinimum": 0}, DRAFT2020, True),
    ({"pattern": "(["}, DRAFT2020, False),
    ({"pattern": "^\\p{L}+$"}, DRAFT2020, True),  # ECMA-262 syntax is accepted
    ({"patternProperties": {"([": {}}}, DRAFT2020, False),
    ({"$ref": "#/$defs/a b"}, DRAFT2020, False),
    ({"$ref": "://x"}, DRAFT2020, False),
    ({"$ref": "#/$defs/a%20b"}, DRAFT2020, True),
    ({"$ref": 1}, DRAFT2020, False),
    ({"examples": "a"}, DRAFT2020, False),
    ({"description": 1}, DRAFT2020, False),
    ({"title": None}, DRAFT7, False),
    ({"uniqueItems": "true"}, DRAFT2020, False),
    ({"deprecated": 1}, DRAFT2020, False),
    ({"dependencies": {"a": ["b", "b"]}}, DRAFT2020, False),
    ({"dependencies": {"a": "b"}}, DRAFT7, False),
    ({"dependencies": {"a": ["b"], "c": {"type": "string"}}}, DRAFT2020, True),
    ({"dependentRequired": {"a": "b"}}, DRAFT2020, False),
    ({"definitions": {"a": 1}}, DRAFT2020, False),
    ({"$defs": {"a": {"type": "string"}}}, DRAFT2020, True),
    ({"$anchor": "1bad"}, DRAFT2020, False),
    ({"$anchor": "good"}, DRAFT2020, True),
    ({"$id": "https://example.com/s#frag"}, DRAFT2020, False),
    ({"x-mcp-header": 1, "nullable": "yes", "id": 3}, DRAFT2020, True),  # unknown keywords are free
]


@pytest.mark.parametrize("schema,dialect,valid", TABLE, ids=[json.dumps(c[0])[:60] for c in TABLE])
def test_fast_path_is_sound_on_tricky_schemas(schema, dialect, valid):
    schema, found = _facts_in(schema, dialect)
    assert (dialects.metaschema_error(schema, dialect) is None) == valid
    assert schemas.is_valid(schema, found) == valid
    if found.fast_valid:
        assert valid
        # ECMA-262 regex syntax is a deliberate difference from jsonschema's Python `re` check
        assert _jsonschema_valid(schema, dialect, default_formats="\\p{" not in json.dumps(schema))


def test_fast_path_proves_common_schemas_valid():
    corpus_like = {
        "type": "object", "title": "args",
        "properties": {
            "a": {"type": "integer", "minimum": 1, "maximum": 9007199254740991, "description": "A"},
            "b": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "B"},
            "c": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "d": {"type": "string", "enum": ["x", "y"], "format": "uri", "pattern": "^[a-z]+$", "maxLength": 9},
            "e": {"$ref": "#/$defs/E"}, "f": {"type": ["boolean", "string"]}, "g": {"const": 3},
        },
        "required": ["a"], "additionalProperties": False, "$defs": {"E": {"type": "object", "properties": {}}},
    }
    for dialect in (DRAFT7, DRAFT2020, LENIENT):
        assert _facts_in(corpus_like, dialect)[1].fast_valid


_SCALARS = {
    "type": ["string", "object", "array", ["string", "null"], "strng", [], ["a"], 1],
    "required": [["a"], ["a", "b"], [], "a", ["a", "a"], [1]],
    "minimum": [0, 1.5, -3, "1", True], "maximum": [10, "x"], "exclusiveMinimum": [0, True],
    "minLength": [0, 3, -1, 1.5, True], "maxItems": [2, "2"], "minProperties": [1, -2],
    "multipleOf": [1, 0.5, 0, -1, True], "enum": [[1, 2], [], [1, 1], "a"], "const": [1, None, {"a": 1}],
    "pattern": ["^a$", "\\d+", "([", 5], "format": ["uri", "date", 3], "title": ["t", 1],
    "description": ["d", None], "uniqueItems": [True, "yes"], "readOnly": [False, 0], "deprecated": [True, "x"],
    "examples": [[1], "a"], "default": [1, [], None], "$comment": ["c", 2],
    "$ref": ["#/$defs/a", "#", "#/a b", "other.json#/x", "https://ex.com/s.json", "://x", 3, "#anchor"],
    "dependencies": [{"a": ["b"]}, {"a": {"type": "string"}}, {"a": "b"}, {"a": ["b", "b"]}, []],
    "dependentRequired": [{"a": ["b"]}, {"a": "b"}, {"a": [1]}],
    "x-extension": [1, "anything"], "contentMediaType": ["text/plain", 1],
}
_SUBSCHEMA = ("not", "additionalProperties", "additionalItems", "contains", "propertyNames", "if", "then",
              "else", "unevaluatedProperties", "contentSchema")
_MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")


def _random_schema(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth and roll < 0.1:
        return rng.choice([True, False])
    if depth and roll < 0.13:
        return rng.choice([1, "string", None, []])
    schema = {}
    for _ in range(rng.randint(0, 4 if depth < 3 else 2)):
        kind = rng.random()
        if kind < 0.55 or depth >= 3:
            key = rng.choice(list(_SCALARS))
            schema[key] = rng.choice(_SCALARS[key])
        elif kind < 0.7:
            schema[rng.choice(_SUBSCHEMA)] = _random_schema(rng, depth + 1)
        elif kind < 0.85:
            key = rng.choice(_MAPS)
            names = rng.choice([["a"], ["a", "b"], ["^x", "(["]])
            schema[key] = {n: _random_schema(rng, depth + 1) for n in names} if rng.random() < 0.95 else []
        elif kind < 0.93:
            schema[rng.choice(_LISTS)] = [_random_schema(rng, depth + 1) for _ in range(rng.randint(0, 2))]
        else:
            schema["items"] = (_random_schema(rng, depth + 1) if rng.random() < 0.6
                               else [_random_schema(rng, depth + 1) for _ in range(rng.randint(0, 2))])
    return schema


def test_fast_path_never_says_valid_when_jsonschema_rejects():
    rng = random.Random(20261122)
    proved = 0
    for _ in range(1500):
        schema = _random_schema(rng)
        for dialect in (DRAFT7, DRAFT2020, LENIENT):
            candidate, found = _facts_in(schema, dialect)
            if found.fast_valid:
                proved += 1
                assert _jsonschema_valid(candidate, dialect, default_formats=False), (dialect, candidate)
                assert _jsonschema_valid(candidate, dialect, default_formats=True), (dialect, candidate)
    assert proved > 500  # the generator exercises the fast path, not just the fallback


def test_every_metaschema_keyword_is_handled_by_the_fast_path():
    """A keyword the metaschemas constrain but the fast path skipped would be unsound."""
    import jsonschema

    constrained: set[str] = set()
    for cls in (jsonschema.Draft7Validator, jsonschema.Draft202012Validator):
        constrained.update(cls.META_SCHEMA.get("properties", {}))
    from jsonschema_specifications import REGISTRY

    for uri in REGISTRY:
        if "2020-12/meta/" in uri:
            constrained.update(REGISTRY.contents(uri).get("properties", {}))
    assert constrained - set(schemas.KEYWORDS) == set()


URI_REFS = ["#/$defs/A", "#", "#foo", "https://ex.com/a.json#/x", "common.json#/$defs/A", "../x.json",
            "urn:example:id", "#/$defs/with%20space", "#/$defs/a~1b", "a:b", "", "//host/p",
            "://x", "#/a b", "#/a[b]", "%zz", "http://[::1]:80/x", "#/a%2"]


@pytest.mark.parametrize("ref", URI_REFS)
def test_uri_reference_check_is_no_looser_than_rfc3986_validator(ref):
    validator = pytest.importorskip("rfc3986_validator")
    if dialects.uri_reference_ok(ref):
        assert validator.validate_rfc3986(ref, rule="URI_reference")


# -- caching and the lazy import ------------------------------------------------------------------

def test_identical_schemas_are_validated_once():
    dialects._ERRORS.clear()
    first = {"type": "object", "properties": {"x": {"type": "strng"}}}
    second = json.loads(json.dumps(first))
    assert dialects.metaschema_error(first, DRAFT2020) == dialects.metaschema_error(second, DRAFT2020)
    assert len(dialects._ERRORS) == 1


def test_error_points_inside_the_schema_and_reads_as_json():
    path, message = dialects.metaschema_error({"properties": {"x": {"minimum": True}}}, DRAFT2020)
    assert path == ("properties", "x", "minimum")
    assert message == "true is not of type 'number'"


def test_schema_facts_are_computed_once_per_document_and_version():
    from mcplint.document.loader import load_document
    from mcplint.document.manifest import classify

    text = '{"tools": [{"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}]}'
    doc = classify(load_document("case.json", text.encode()))
    entries = schemas.tool_schemas(doc, STRICT_AT)
    assert [e.field for e in entries] == ["inputSchema", "outputSchema"]
    assert schemas.tool_schemas(doc, STRICT_AT) is entries
    assert entries[0].facts.dialect == DRAFT2020
    assert schemas.tool_schemas(doc, LENIENT_AT)[0].facts.dialect == LENIENT
    assert str(entries[1].at(("properties", "x"))) == "/tools/0/outputSchema/properties/x"


def test_corpus_lints_without_importing_jsonschema():
    corpus = shared_path("corpus", "manifests")
    code = (
        "import sys; from mcplint.entry import main\n"
        f"sys.argv = ['mcplint', 'check', {str(corpus)!r}, '--select', 'MCP3', '--format', 'json']\n"
        "try:\n    main()\n"
        "except SystemExit:\n    pass\n"
        "print('jsonschema' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stderr.strip().splitlines()[-1] == "False", done.stderr


# -- $ref resolution -------------------------------------------------------------------------------

@pytest.mark.parametrize("ref,expected", [
    ("#/$defs/A", schema_refs.LOCAL), ("#/$defs/B", schema_refs.MISSING), ("#", schema_refs.LOCAL),
    ("#/properties/a/items/0", schema_refs.LOCAL), ("#/properties/a/items/5", schema_refs.MISSING),
    ("#/$defs/x~1y", schema_refs.LOCAL), ("#/$defs/sp%20ace", schema_refs.LOCAL), ("#anc", schema_refs.LOCAL),
    ("#nope", schema_refs.MISSING), ("https://example.com/s.json", schema_refs.NETWORK),
    ("other.json#/x", schema_refs.EXTERNAL), ("urn:x:y", schema_refs.EXTERNAL),
    ("http://json-schema.org/draft-07/schema#", schema_refs.LOCAL),
    ("https://example.com/inner#/$defs/I", schema_refs.LOCAL),
])
def test_resolve(ref, expected):
    schema = {
        "type": "object", "properties": {"a": {"items": [{"type": "string"}]}, "r": {"$ref": ref}},
        "$defs": {"A": {"$anchor": "anc"}, "x/y": {}, "sp ace": {},
                  "In": {"$id": "https://example.com/inner", "$defs": {"I": {}}}},
    }
    found = schemas.facts(schema, STRICT_AT)
    [entry] = [r for r in found.refs if r.path == ("properties", "r")]
    assert schema_refs.resolve(schema, found, entry) == expected


def test_name_tokens():
    assert schemas.name_tokens("file_path") == ["file", "path"]
    assert schemas.name_tokens("startDate") == ["start", "date"]
    assert schemas.name_tokens("imageURL") == ["image", "url"]
    assert schemas.name_tokens("getUserByID") == ["get", "user", "by", "id"]
    assert schemas.name_tokens("get-tiny-image") == ["get", "tiny", "image"]
