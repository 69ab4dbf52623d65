"""Validating `structuredContent` against a tool's `outputSchema` (MCP721).

The dialect is the schema's declared `$schema` (the TypeScript SDK declares draft-07),
else 2020-12; before 2025-11-25, where the spec names no dialect, a schema that only
draft-07 accepts is read as draft-07. Formats are annotations (the 2020-12 default),
and `$ref`s resolve only inside the schema: nothing is ever fetched (see
mcplint.schema_safety; a value that reaches an external `$ref` or a pattern too costly to
run, or a schema whose `$ref`s repeat one another too much, raises ``Uncheckable``).
Validators are built once per tool and session and kept on the session.
"""

from __future__ import annotations

from typing import Any, Callable

from mcplint import schema_safety
from mcplint.schema_dialects import DRAFT7, DRAFT2020, LENIENT, UNKNOWN, metaschema_error, schema_dialect, show
from mcplint.schema_expansion import expansion

Check = Callable[[Any], list[tuple[tuple, tuple, str]]]
_CACHE = "_mcp721_validators"  # attribute on the Session: tool name -> (schema, check)


def validator_for_tool(session, tool: str, schema: Any) -> Check | None:
    """A check for ``tool``'s outputSchema, or None when the schema cannot be used (an
    unknown dialect, or invalid under its dialect: the schema rules report those)."""
    cache = session.__dict__.setdefault(_CACHE, {})
    found = cache.get(tool)
    if found is None or found[0] is not schema:
        found = cache[tool] = (schema, _build(schema, session.version))
    return found[1]


def _build(schema: Any, version: str) -> Check | None:
    dialect = _usable_dialect(schema, version)
    if dialect is None:
        return None
    valid = _compiled(schema) if _simple(schema) else None
    validator = None  # jsonschema's, made for the first value the fast path cannot prove valid
    expands = None  # why no value can be checked: the schema's $refs repeat one another too much

    def check(value: Any) -> list[tuple[tuple, tuple, str]]:
        """Errors as (path in the value, path in the schema, message); raises
        schema_safety.Uncheckable."""
        nonlocal validator, expands
        if valid is not None and valid(value):
            return []  # proved valid without jsonschema (the common case, and 10x faster)
        import jsonschema.exceptions

        if validator is None:
            validator = schema_safety.validator(schema, dialect)
            expands = expansion(validator)  # (once per schema, before any value)
        if expands is not None:
            raise schema_safety.Uncheckable(expands.reason, expands.keyword, expands.value, expands.detail)
        try:
            errors = schema_safety.errors(validator, value)
        except schema_safety.Uncheckable as why:
            if why.reason == schema_safety.EXPANDS:  # too many steps: no later value is checked either
                expands = why
            raise
        except (ValueError, TypeError, RecursionError):
            return []  # a missing local $ref, a pattern that does not compile, a runaway schema
        found = []
        for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
            best = jsonschema.exceptions.best_match([error])
            found.append((tuple(best.absolute_path), tuple(best.absolute_schema_path)[:-1], _describe(best)))
        return found

    return check


def _usable_dialect(schema: Any, version: str) -> str | None:
    """The dialect to validate under, or None when the schema cannot be used (an unknown
    dialect, or invalid under its dialect). Validity is ``schemas.is_valid``'s, as the
    manifest rules judge it: the facts walk proves most schemas valid without importing
    jsonschema (~100 ms); the rest go to its metaschema validation."""
    from mcplint import schemas

    dialect, _ = schema_dialect(schema, version)
    if dialect == UNKNOWN:
        return None
    facts = schemas.facts(schema, version) if isinstance(schema, dict) else None  # (not for true/false)

    def valid(under: str) -> bool:
        if facts is None:
            return metaschema_error(schema, under) is None
        return schemas.is_valid(schema, facts if under == dialect else facts.in_dialect(under))

    if dialect == LENIENT:  # read as 2020-12 unless only draft-07 accepts it
        return DRAFT2020 if valid(DRAFT2020) else DRAFT7 if valid(DRAFT7) else None
    return dialect if valid(dialect) else None


def _describe(error) -> str:
    message = error.message
    if message.startswith(repr(error.instance)):
        message = show(error.instance) + message[len(repr(error.instance)):]
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"{message} (at structuredContent{where})" if where else message


# -- a fast path for the plain schemas most tools declare -------------------------------------

_ANNOTATIONS = frozenset(("$schema", "title", "description", "default", "examples", "$comment", "format"))
_HANDLED = frozenset(("type", "properties", "required", "additionalProperties", "items", "enum")) | _ANNOTATIONS
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _simple(schema: Any, depth: int = 0) -> bool:
    """Whether ``_compiled`` decides ``schema`` exactly: only the keywords below, with plain values."""
    if not isinstance(schema, dict) or depth > 32 or not schema.keys() <= _HANDLED:
        return False
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind is not None else []
    if not all(k in _TYPES or k in ("integer", "number") for k in kinds):
        return False
    props = schema.get("properties", {})
    if not isinstance(props, dict) or not all(_simple(p, depth + 1) for p in props.values()):
        return False
    if "items" in schema and not _simple(schema["items"], depth + 1):
        return False
    return (isinstance(schema.get("required", []), list) and isinstance(schema.get("additionalProperties", True), bool)
            and isinstance(schema.get("enum", []), list))


def _compiled(schema: dict) -> Callable[[Any], bool]:
    """A test of whether a value is valid under a ``_simple`` schema: False means "ask
    jsonschema", never "invalid". Built once per schema (the tool's validator keeps it),
    so a call does no keyword lookups."""
    kind = schema.get("type")
    is_type = _type_test(kind if isinstance(kind, list) else [kind]) if kind is not None else None
    enum = schema["enum"] if "enum" in schema else None
    required = tuple(schema.get("required", ()))
    props = {name: _property(sub) for name, sub in schema.get("properties", {}).items()}
    closed = schema.get("additionalProperties", True) is False
    items = _compiled(schema["items"]) if "items" in schema else None

    def valid(value: Any) -> bool:
        if is_type is not None and not is_type(value):
            return False
        if enum is not None and not any(_same(value, option) for option in enum):
            return False
        if isinstance(value, dict):
            for name in required:
                if name not in value:
                    return False
            for name, item in value.items():
                sub = props.get(name)
                if sub is None:
                    if closed:
                        return False
                elif type(sub) is frozenset:
                    if type(item) not in sub:
                        return False
                elif not sub(item):
                    return False
        elif items is not None and isinstance(value, list):
            return all(map(items, value))
        return True

    return valid


def _property(schema: dict) -> Callable[[Any], bool] | frozenset:
    """``_compiled(schema)``, or for a schema of only a type (not "integer") and annotations,
    most properties, the exact Python types it allows: tested inline, no call per value."""
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if kind is None or "integer" in kinds or not schema.keys() <= _ANNOTATIONS | {"type"}:
        return _compiled(schema)
    return _exact_types(kinds)


def _exact_types(kinds: list) -> frozenset:
    return frozenset(_TYPES[k] for k in kinds if k in _TYPES) | (frozenset((int, float)) if "number" in kinds else frozenset())


def _type_test(kinds: list) -> Callable[[Any], bool]:
    """Whether a value is of one of the JSON Schema ``kinds`` (1.0 is an integer, true is not)."""
    exact = _exact_types(kinds)
    if "integer" not in kinds:
        return lambda value: type(value) in exact
    return lambda value: type(value) in exact or type(value) is int or (type(value) is float and value.is_integer())


def _same(a: Any, b: Any) -> bool:
    from mcplint.capture.content import json_equal

    return json_equal(a, b)
