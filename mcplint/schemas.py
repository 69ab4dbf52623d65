"""JSON Schema helpers for the schema rules: one walk per schema (validity fast path and
the facts the rules need), parameter shapes. Dialects and the jsonschema slow path are in
mcplint.schema_dialects, $ref resolution in mcplint.schema_refs, the tool schemas of a
document with their facts in mcplint.schema_entries (imported here for the rules).

Validity is proved by a pure-Python fast path for the common keywords (no import of
``jsonschema``, which costs 100 ms or more); anything it cannot prove valid goes to
``jsonschema``'s metaschema validation, cached by canonical JSON. The fast path never
says "valid" for a schema jsonschema rejects (tests/test_schemas.py checks this).
Network ``$ref``s are never fetched: they are only classified.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

from mcplint.regex_cache import regex
from mcplint.schema_dialects import (
    DRAFT2020, DRAFT7, LENIENT, SIMPLE_TYPES, dialect_for_uri, metaschema_error, regex_ok, schema_dialect,
    uri_reference_ok,
)

MAX_DEPTH = 64


# -- one walk: fast validity proof plus the facts the rules need ------------------------------

# keyword -> how the fast path checks it (and whether it holds subschemas)
_ONE, _MAP, _LIST, _ITEMS, _STR, _BOOL, _NUM, _POS, _NNINT, _FREE = range(10)
_TYPE, _ENUM, _REQ, _PATTERN, _PATPROPS, _LISTVAL, _DEPS, _DEPREQ, _REF, _SCHEMA, _ID, _ANCHOR, _BAIL = range(10, 23)
KEYWORDS: dict[str, int] = {
    **dict.fromkeys(("additionalProperties", "additionalItems", "contains", "propertyNames", "not", "if",
                     "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"), _ONE),
    **dict.fromkeys(("properties", "$defs", "definitions", "dependentSchemas"), _MAP),
    **dict.fromkeys(("allOf", "anyOf", "oneOf", "prefixItems"), _LIST),
    **dict.fromkeys(("title", "description", "$comment", "format", "contentMediaType", "contentEncoding"), _STR),
    **dict.fromkeys(("uniqueItems", "readOnly", "writeOnly", "deprecated"), _BOOL),
    **dict.fromkeys(("maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"), _NUM),
    **dict.fromkeys(("maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties",
                     "maxContains", "minContains"), _NNINT),
    **dict.fromkeys(("default", "const"), _FREE),
    **dict.fromkeys(("$anchor", "$dynamicAnchor"), _ANCHOR),
    **dict.fromkeys(("$dynamicRef", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "id"), _BAIL),
    "items": _ITEMS, "multipleOf": _POS, "type": _TYPE, "enum": _ENUM, "required": _REQ,
    "pattern": _PATTERN, "patternProperties": _PATPROPS, "examples": _LISTVAL, "dependencies": _DEPS,
    "dependentRequired": _DEPREQ, "$ref": _REF, "$schema": _SCHEMA, "$id": _ID,
}
FAST_DIALECTS = frozenset((DRAFT7, DRAFT2020, LENIENT))


class Ref:
    __slots__ = ("path", "ref", "base", "resource")

    def __init__(self, path: tuple, ref: str, base: str, resource: tuple) -> None:
        self.path = path  # of the subschema holding the $ref, relative to the root schema
        self.ref = ref
        self.base = base  # base URI in effect ("" when unknown)
        self.resource = resource  # path of the schema resource the ref sits in

    def __repr__(self) -> str:
        return f"Ref({self.ref!r} at {self.path!r})"


class Facts:
    """What one walk over a root schema found. Paths are tuples relative to the root.
    "Parameters" are the property schemas ``schema_properties`` visits: under
    ``properties`` of the root, of parameters, of their ``items`` and of the objects their
    ``anyOf``/``oneOf``/``allOf`` allow (not the root's: those restate the root's parameters)."""

    __slots__ = ("dialect", "declared", "fast_valid", "strict", "base", "resource", "refs", "idioms",
                 "arrays_without_items", "resources", "anchors", "undescribed", "untyped", "free_form",
                 "hinted", "required_gaps", "base_valid", "draft07", "tuple_items", "names", "texts", "closed_empty")

    def __init__(self, dialect: str, declared: str | None) -> None:
        self.dialect = dialect
        self.declared = declared
        self.fast_valid = dialect in FAST_DIALECTS  # proved valid without jsonschema
        self.strict = dialect == DRAFT2020  # look for draft-07 idioms
        self.base = ""  # walk state: base URI in effect, and the schema resource it belongs to
        self.resource: tuple = ()
        self.refs: list[Ref] = []
        self.idioms: list[tuple[tuple, str]] = []  # (path of the keyword, keyword)
        self.arrays_without_items: list[tuple] = []
        self.resources: dict[str, tuple] = {}  # $id -> path
        self.anchors: set[str] = set()
        self.undescribed: list[tuple[tuple, str]] = []  # parameters: (path, name)
        self.untyped: list[tuple[tuple, str]] = []
        self.free_form: list[tuple[tuple, str]] = []
        self.hinted: list[tuple[tuple, str]] = []  # names that may imply a format (url, path, date...)
        self.required_gaps: list[tuple] = []  # objects whose `required` names are not all in `properties`
        # What the walk finds whatever the dialect; ``settle`` derives the dialect's view from it.
        self.base_valid = True  # fast_valid before the dialect's own checks
        self.draft07: list[tuple[tuple, str]] = []  # the idioms, if the dialect looks for them
        self.tuple_items = False  # an array-form `items` (not valid in 2020-12)
        self.names: list = []  # every parameter's name, and their string titles and descriptions
        self.texts: list[str] = []  # (the name style and text rules' pre-checks over all tools)
        self.closed_empty: list[tuple[tuple, str]] = []  # objects admitting only {}: no properties, closed

    def settle(self) -> "Facts":
        """Set the dialect-dependent facts from what the walk found."""
        self.base_valid = self.fast_valid
        self.fast_valid = self.base_valid and not (self.strict and self.tuple_items)
        self.idioms = self.draft07 if self.strict else []
        return self

    def in_dialect(self, dialect: str) -> "Facts":
        """These facts for the same schema in another default dialect (no second walk)."""
        other = Facts.__new__(Facts)
        for name in Facts.__slots__:
            setattr(other, name, getattr(self, name))
        other.dialect = dialect
        other.strict = dialect == DRAFT2020
        other.fast_valid = self.base_valid  # both default dialects are FAST_DIALECTS
        return other.settle()


def facts(schema: dict, version: str) -> Facts:
    """Facts about a root schema linted at ``version``: one walk, shared by the rules
    through ``tool_schemas`` (and by the schemas of a document with the same JSON text)."""
    found = Facts(*schema_dialect(schema, version))
    base = schema.get("$id")
    found.base = base.split("#", 1)[0] if isinstance(base, str) else ""
    found.resources[found.base] = ()
    _walk(schema, (), found, 0, True)
    return found.settle()


_BRANCH_KEYS = frozenset(("anyOf", "oneOf", "allOf"))
_HINT_NAME = regex(r"ur[li]|href|link|site|homepage|mail|path|file|dir|folder|date|time|stamp", re.I)
_HINTED: dict[str, bool] = {}


def _parameters(properties: dict, path: tuple, f: Facts, depth: int) -> None:
    """Record what the parameter rules need about each property, then walk it."""
    f.names.extend(properties)
    for name, sub in properties.items():
        sub_path = path + (name,)
        if type(sub) is dict:
            description = sub.get("description")
            if type(description) is not str or not description.strip():
                f.undescribed.append((sub_path, name))
            if isinstance(description, str):
                f.texts.append(description)
            if "title" in sub and isinstance(sub["title"], str):
                f.texts.append(sub["title"])
            if "type" in sub:
                kind = sub["type"]
                if (kind == "object" or type(kind) is list) and free_form_object(sub):
                    f.free_form.append((sub_path, name))
                elif kind == "object" and sub.get("additionalProperties") is False and not sub.get("properties") \
                        and not sub.get("patternProperties"):
                    f.closed_empty.append((sub_path, name))
            elif accepts_anything(sub):
                f.free_form.append((sub_path, name))
            elif COMPOSITION.isdisjoint(sub):
                f.untyped.append((sub_path, name))
            hinted = _HINTED.get(name)
            if hinted is None:
                hinted = bool(_HINT_NAME.search(name))
                if len(_HINTED) < 100_000:
                    _HINTED[name] = hinted
            if hinted:
                f.hinted.append((sub_path, name))
        elif sub is True:
            f.free_form.append((sub_path, name))
            continue
        elif sub is False:
            continue
        _walk(sub, sub_path, f, depth, True)


def _walk(node, path: tuple, f: Facts, depth: int, params: bool) -> None:
    """Prove ``node`` valid (fast path) and collect facts. ``params``: its ``properties``
    are parameters."""
    if node is True or node is False:
        return
    if type(node) is not dict or depth > MAX_DEPTH:
        f.fast_valid = False
        return
    saved = None
    if path and "$id" in node and isinstance(node["$id"], str):
        uri, _, fragment = node["$id"].partition("#")
        if uri:
            saved = f.base, f.resource
            f.base = urljoin(f.base, uri) if f.base else uri
            f.resource = path
            f.resources.setdefault(f.base, path)
            f.resources.setdefault(uri, path)
        elif fragment:  # draft-06/07 plain-name fragment id
            f.anchors.add(fragment)
    depth += 1
    is_array = False
    for key, value in node.items():
        kind = KEYWORDS.get(key)
        if kind is None:
            continue
        if kind == _STR:
            if type(value) is not str:
                f.fast_valid = False
        elif kind == _TYPE:
            if type(value) is str:
                if value not in SIMPLE_TYPES:
                    f.fast_valid = False
                is_array = value == "array"
            elif type(value) is list and value and all(type(t) is str and t in SIMPLE_TYPES for t in value) \
                    and len(set(value)) == len(value):
                # (a type naming object too holds a value of any shape, a JSON-patch value: not
                # an array whose elements want describing; MCP314 judges it)
                is_array = "array" in value and "object" not in value
            else:
                f.fast_valid = False
        elif kind == _MAP:
            if type(value) is not dict:
                f.fast_valid = False
            elif params and key == "properties":
                _parameters(value, path + (key,), f, depth)
            else:
                for name, sub in value.items():
                    _walk(sub, path + (key, name), f, depth, False)
            if key == "definitions":
                f.draft07.append((path + (key,), key))
        elif kind == _FREE:
            pass
        elif kind == _NUM:
            if type(value) is not int and type(value) is not float:
                f.fast_valid = False
        elif kind == _REQ:
            if not _string_set(value):
                f.fast_valid = False
        elif kind == _ITEMS:
            if type(value) is list:
                if value:
                    f.tuple_items = True
                else:
                    f.fast_valid = False
                for index, sub in enumerate(value):
                    _walk(sub, path + (key, index), f, depth, False)
            else:
                _walk(value, path + (key,), f, depth, params)
        elif kind == _ONE:
            if key == "additionalItems":
                f.draft07.append((path + (key,), key))
            if value is not True and value is not False:  # (often `additionalProperties: false`)
                _walk(value, path + (key,), f, depth, False)
        elif kind == _ENUM or kind == _LISTVAL:
            if type(value) is not list:
                f.fast_valid = False
        elif kind == _NNINT:
            if type(value) is not int or value < 0:
                f.fast_valid = False
        elif kind == _LIST:
            if type(value) is list and value:
                # a parameter's branches hold parameters (the manifest's walk lists them too); the root's not
                branch_params = params and bool(path) and key in _BRANCH_KEYS
                for index, sub in enumerate(value):
                    _walk(sub, path + (key, index), f, depth, branch_params and index < 100)
            else:
                f.fast_valid = False
        elif kind == _BOOL:
            if type(value) is not bool:
                f.fast_valid = False
        elif kind == _REF:
            if type(value) is str and uri_reference_ok(value):
                f.refs.append(Ref(path, value, f.base, f.resource))
            else:
                f.fast_valid = False
        elif kind == _SCHEMA:
            if path or type(value) is not str or dialect_for_uri(value) is None:
                f.fast_valid = False
        elif kind == _PATTERN:
            if type(value) is not str or not regex_ok(value):
                f.fast_valid = False
        elif kind == _PATPROPS:
            if type(value) is dict:
                for name, sub in value.items():
                    if not regex_ok(name):
                        f.fast_valid = False
                    _walk(sub, path + (key, name), f, depth, False)
            else:
                f.fast_valid = False
        elif kind == _POS:
            if (type(value) is not int and type(value) is not float) or not value > 0:
                f.fast_valid = False
        elif kind == _DEPS:
            f.draft07.append((path + (key,), key))
            if type(value) is dict:
                for name, sub in value.items():
                    if type(sub) is list:
                        if not _string_set(sub):
                            f.fast_valid = False
                    else:
                        _walk(sub, path + (key, name), f, depth, False)
            else:
                f.fast_valid = False
        elif kind == _DEPREQ:
            if type(value) is not dict or not all(_string_set(v) for v in value.values()):
                f.fast_valid = False
        elif kind == _ANCHOR:
            if type(value) is str:
                f.anchors.add(value)
            f.fast_valid = False
        else:  # _ID, _BAIL: rare keywords with subtle rules; leave them to jsonschema
            f.fast_valid = False
    if is_array and "items" not in node and "prefixItems" not in node:
        f.arrays_without_items.append(path)
    if params and "required" in node:
        required, properties = node["required"], node.get("properties")
        if type(required) is list and required:
            if type(properties) is not dict:
                f.required_gaps.append(path)
            else:
                for name in required:  # a loop: cheaper than all() for these short lists
                    if type(name) is not str or name not in properties:
                        f.required_gaps.append(path)
                        break
    if saved is not None:
        f.base, f.resource = saved


def _string_set(value) -> bool:
    if type(value) is not list:
        return False
    for item in value:  # a loop: cheaper than all() for these short lists
        if type(item) is not str:
            return False
    return len(set(value)) == len(value)


# -- validity ---------------------------------------------------------------------------------

def is_valid(schema: Any, f: Facts) -> bool:
    return f.fast_valid or metaschema_error(schema, f.dialect) is None


# -- parameter shapes -------------------------------------------------------------------------

# Keywords that only annotate: a schema made of these (or of unknown extension keys) accepts anything.
ANNOTATIONS = frozenset(("title", "description", "default", "examples", "$comment", "deprecated",
                         "readOnly", "writeOnly", "$schema", "$id", "$anchor", "$dynamicAnchor",
                         "$defs", "definitions"))
COMPOSITION = frozenset(("enum", "const", "$ref", "$dynamicRef", "$recursiveRef", "anyOf", "oneOf",
                         "allOf", "not", "if"))
_OBJECT_SHAPE = frozenset(("properties", "patternProperties", "propertyNames", "unevaluatedProperties",
                           "dependentSchemas", "dependentRequired", "dependencies", "required",
                           "minProperties", "maxProperties", "enum", "const", "$ref", "$dynamicRef",
                           "anyOf", "oneOf", "allOf", "not", "if"))
_EMPTY_IS_NOTHING = frozenset(("properties", "patternProperties", "dependentSchemas", "dependentRequired",
                               "dependencies", "required"))


def accepts_anything(schema: Any) -> bool:
    """``true``, ``{}``, or a schema with nothing but annotations."""
    if schema is True:
        return True
    return isinstance(schema, dict) and all(
        key in ANNOTATIONS or key not in KEYWORDS for key in schema
    )


def types_of(schema: dict) -> tuple[str, ...]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return (kind,)
    if isinstance(kind, list):
        return tuple(t for t in kind if isinstance(t, str))
    return ()


def free_form_object(schema: dict) -> bool:
    """An object schema that constrains neither its keys nor its values."""
    if "object" not in types_of(schema):
        return False
    for key in _OBJECT_SHAPE.intersection(schema):
        if key == "propertyNames" and _any_string(schema[key]):
            continue  # zod's z.record(z.string(), ...): every JSON key is a string
        if schema[key] or key not in _EMPTY_IS_NOTHING:  # an empty `properties` constrains nothing
            return False
    extra = schema.get("additionalProperties", True)
    return extra is True or accepts_anything(extra)


def _any_string(schema: Any) -> bool:
    """``{"type": "string"}`` (with annotations at most), or a schema accepting anything."""
    return accepts_anything(schema) or (isinstance(schema, dict) and schema.get("type") == "string" and all(
        key == "type" or key in ANNOTATIONS for key in schema))


_TOKEN = regex(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def name_tokens(name: str) -> list[str]:
    """Lower-case words of a snake_case, kebab-case or camelCase name: ``startDate`` -> start, date."""
    return [token.lower() for token in _TOKEN.findall(name)]


from mcplint.schema_entries import (  # noqa: E402, F401
    SchemaEntry, input_schemas, violations_once_per_schema, tool_objects, tool_schemas, tool_schemas_any_dialect,
)
