"""Build tool-call arguments from a tool's inputSchema.

``valid_arguments`` fills the *required* properties only, each with the smallest
value the schema clearly accepts: ``const``, the first ``enum`` value, ``default``,
the first of ``examples``, else a placeholder of the declared type that respects
cheap constraints (minimum/maximum, minLength/maxLength, minItems, a few string
formats, a pattern when one of a handful of candidates matches). It returns None when
it cannot build a value it trusts (an unmatched pattern, a remote ``$ref``, a
``not``): calling a tool with a guess is worse than not calling it.

``invalid_cases`` builds the input-validation probes: the valid arguments with one
required property left out, and with one typed property given a value of the wrong
type.
"""

from __future__ import annotations

import math
import re
from typing import Any, Mapping

MAX_DEPTH = 8
_FORMATS = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "00:00:00Z",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "uri": "https://example.com",
    "url": "https://example.com",
    "iri": "https://example.com",
    "uri-reference": "https://example.com",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "duration": "PT1S",
}
_PATTERN_CANDIDATES = ("example", "a", "A", "1", "abc123", "example-1", "example_1", "Example", "x1", "0")
_WRONG = {  # declared type -> a value of another type
    "string": 12345,
    "integer": "not-a-number",
    "number": "not-a-number",
    "boolean": "not-a-boolean",
    "array": "not-an-array",
    "object": "not-an-object",
    "null": "not-null",
}


class _Unbuildable(Exception):
    pass


def valid_arguments(schema: Any) -> dict | None:
    """Required properties with minimal valid values, or None when unsure."""
    if not isinstance(schema, Mapping):
        return None
    try:
        value = _object(schema, schema, 0)
    except (_Unbuildable, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def invalid_cases(schema: Any) -> list[tuple[str, dict]]:
    """[(probe label, arguments)] that violate the schema: a missing required property,
    a wrong type. Empty when the schema gives nothing to violate."""
    if not isinstance(schema, Mapping):
        return []
    schema = _resolve(schema, schema)
    valid = valid_arguments(schema) or {}
    properties = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
    required = [n for n in schema.get("required", ()) if isinstance(n, str)] if isinstance(schema.get("required"), list) else []
    cases: list[tuple[str, dict]] = []
    if required:
        missing = required[0]
        cases.append((f"missing-required:{missing}", {k: v for k, v in valid.items() if k != missing}))
    ordered = required + [n for n in properties if n not in required]
    for name in ordered:
        prop = properties.get(name)
        if not isinstance(prop, Mapping):
            continue
        types = _types(_resolve(prop, schema))
        if not types:
            continue
        candidates = [_WRONG[t] for t in types if t in _WRONG] + [True, ["not-a-scalar"]]
        wrong = next((value for value in candidates if not _accepts(types, value)), None)
        if wrong is None:
            continue
        cases.append((f"wrong-type:{name}", {**valid, name: wrong}))
        break
    return cases


def _types(schema: Mapping) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list):
        return [t for t in declared if isinstance(t, str)]
    return []


def _accepts(types: list[str], value: Any) -> bool:
    if isinstance(value, bool):
        return "boolean" in types
    if isinstance(value, int):
        return bool({"integer", "number"} & set(types))
    if isinstance(value, str):
        return "string" in types
    if isinstance(value, list):
        return "array" in types
    return "object" in types


def _resolve(schema: Mapping, root: Mapping, depth: int = 0) -> Mapping:
    """Follow a local ``$ref`` (``#/$defs/x``, ``#/definitions/x``); others are unbuildable."""
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and depth < MAX_DEPTH:
        ref = schema["$ref"]
        if not ref.startswith("#"):
            raise _Unbuildable(ref)
        target: Any = root
        for part in [p for p in ref[1:].split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, Mapping) or part not in target:
                raise _Unbuildable(ref)
            target = target[part]
        if not isinstance(target, Mapping):
            raise _Unbuildable(ref)
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        depth += 1
    return schema


def _value(schema: Any, root: Mapping, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise _Unbuildable("too deep")
    if schema is True or schema == {}:
        return "example"
    if not isinstance(schema, Mapping):
        raise _Unbuildable("not a schema")
    schema = _resolve(schema, root)
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    if "default" in schema:
        return schema["default"]
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    if "not" in schema:
        raise _Unbuildable("not")
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            base = {k: v for k, v in schema.items() if k != key}
            ranked = sorted(options, key=lambda o: isinstance(o, Mapping) and o.get("type") == "null")
            for option in ranked:
                try:
                    return _value({**base, **option} if isinstance(option, Mapping) else option, root, depth + 1)
                except _Unbuildable:
                    continue
            raise _Unbuildable(key)
    if isinstance(schema.get("allOf"), list):
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            if isinstance(part, Mapping):
                part = _resolve(part, root)
                merged = {**merged, **part, "required": [*merged.get("required", []), *part.get("required", [])]}
        return _value(merged, root, depth + 1)
    types = [t for t in _types(schema) if t != "null"] or _types(schema)
    kind = types[0] if types else ("object" if "properties" in schema else None)
    if kind == "object":
        return _object(schema, root, depth)
    if kind == "array":
        return _array(schema, root, depth)
    if kind == "string":
        return _string(schema)
    if kind in ("integer", "number"):
        return _number(schema, kind)
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    if kind is None:
        return "example"
    raise _Unbuildable(f"type {kind!r}")


def _object(schema: Mapping, root: Mapping, depth: int) -> dict:
    schema = _resolve(schema, root)
    properties = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
    required = schema.get("required") if isinstance(schema.get("required"), list) else []
    value = {}
    for name in required:
        if not isinstance(name, str):
            continue
        value[name] = _value(properties.get(name, True), root, depth + 1)
    return value


def _array(schema: Mapping, root: Mapping, depth: int) -> list:
    count = schema.get("minItems", 0)
    if not isinstance(count, int) or count < 0 or count > 16:
        raise _Unbuildable("minItems")
    prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
    items = schema.get("items", True)
    values = [_value(prefix[i] if i < len(prefix) else items, root, depth + 1) for i in range(count)]
    if schema.get("uniqueItems") and len({repr(v) for v in values}) != len(values):
        raise _Unbuildable("uniqueItems")
    return values


def _string(schema: Mapping) -> str:
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    fmt = schema.get("format")
    candidates = [_FORMATS[fmt]] if isinstance(fmt, str) and fmt in _FORMATS else ["example"]
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            compiled = re.compile(pattern)
        except re.error:
            raise _Unbuildable("pattern") from None
        candidates = [c for c in (*candidates, *_PATTERN_CANDIDATES) if compiled.search(c)]
    for candidate in candidates:
        if isinstance(low, int) and len(candidate) < low:
            if pattern is not None or fmt in _FORMATS:
                continue
            candidate = candidate + "x" * (low - len(candidate))
        if isinstance(high, int) and len(candidate) > high:
            if pattern is not None or fmt in _FORMATS:
                continue
            candidate = candidate[:high]
        return candidate
    raise _Unbuildable("string")


def _number(schema: Mapping, kind: str) -> int | float:
    low, high = schema.get("minimum"), schema.get("maximum")
    xlow, xhigh = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    step = schema.get("multipleOf")
    value: float = 1
    if _is_number(low) and value < low:
        value = low
    if _is_number(xlow) and value <= xlow:
        value = math.floor(xlow) + 1 if kind == "integer" or step is None else xlow + (step or 1)
    if _is_number(high) and value > high:
        value = high
    if _is_number(xhigh) and value >= xhigh:
        value = math.ceil(xhigh) - 1 if kind == "integer" else xhigh - 0.5
    if _is_number(step) and step > 0 and value % step:
        value = math.ceil(value / step) * step
    if kind == "integer":
        if value != int(value):
            value = math.ceil(value)
        value = int(value)
    for bound, ok in ((low, lambda b: value >= b), (high, lambda b: value <= b),
                      (xlow, lambda b: value > b), (xhigh, lambda b: value < b)):
        if _is_number(bound) and not ok(bound):
            raise _Unbuildable("range")
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
