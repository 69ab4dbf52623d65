"""Build tool-call arguments from a tool's inputSchema.

``valid_arguments`` fills the *required* properties only, each with the smallest
value the schema clearly accepts: ``const``, the first ``enum`` value, ``default``,
the first of ``examples``, else a placeholder of the declared type that respects
cheap constraints (minimum/maximum, minLength/maxLength, minItems, a few string
formats, a pattern when one of a handful of candidates matches). A string property
with a well-known name and nothing else to go by gets the value real servers accept
for it (``timezone`` "UTC", ``language`` "en", ``currency`` "USD", ``country`` "US"). It returns None when
it cannot build a value it trusts (an unmatched pattern, a remote ``$ref``, a
``not``): calling a tool with a guess is worse than not calling it.

``invalid_cases`` builds the input-validation probes: the valid arguments with one
required property left out, and with one typed property given a falsy value (null, "", 0;
never to a boolean or untyped property, see ``_WRONG``) of the wrong
type.

The schema comes from the server under audit, so any JSON value can arrive here: every
shape ends in arguments or in None, never in an exception, and what is built is bounded
(MAX_VALUES values, strings of MAX_STRING characters). Patterns are matched through
mcplint.schema_safety; ``unbuildable_reason`` says why no arguments were built (a
pattern too costly to check, a `$ref` to an external document).
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from mcplint import schema_safety
from mcplint.schema_dialects import show

MAX_DEPTH = 8
MAX_VALUES = 2_000  # values built for one call, all levels together
MAX_STRING = 4_096  # characters of a built string
MAX_REQUIRED = 256  # required properties of one object
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
# A string property named so (case, "_" and "-" ignored), with no const, enum, default,
# examples or format: a value every server that takes it accepts. Only names whose
# values are standard codes or reserved examples (RFC 2606 domains, RFC 5737 addresses).
_NAMED = {
    **dict.fromkeys(("timezone", "tz", "timezonename", "tzname", "ianatimezone", "timezoneid"), "UTC"),
    **dict.fromkeys(("language", "lang", "locale", "languagecode", "langcode", "hl", "lng"), "en"),
    **dict.fromkeys(("currency", "currencycode", "basecurrency", "fromcurrency"), "USD"),
    "tocurrency": "EUR", "targetcurrency": "EUR", "quotecurrency": "EUR",
    **dict.fromkeys(("country", "countrycode", "countryiso", "gl"), "US"),
    **dict.fromkeys(("email", "emailaddress"), "user@example.com"),
    **dict.fromkeys(("url", "uri", "link", "website", "homepage"), "https://example.com"),
    **dict.fromkeys(("domain", "hostname", "host"), "example.com"),
    **dict.fromkeys(("ip", "ipaddress", "ipv4"), "192.0.2.1"),
    **dict.fromkeys(("uuid", "guid"), "00000000-0000-4000-8000-000000000000"),
    **dict.fromkeys(("date", "startdate", "enddate", "fromdate", "todate"), "2024-01-01"),
    **dict.fromkeys(("datetime", "timestamp", "since", "until"), "2024-01-01T00:00:00Z"),
    **dict.fromkeys(("encoding", "charset"), "utf-8"),
    **dict.fromkeys(("mimetype", "contenttype", "mediatype"), "text/plain"),
}
_PATTERN_CANDIDATES = ("example", "a", "A", "1", "abc123", "example-1", "example_1", "Example", "x1", "0")
# The input-validation probe's wrong-type values: null, then "" and 0. Each is falsy in Python
# and JavaScript alike, so a server that validates nothing and tests `if args.get(name)` reads
# "no", never "yes, do it" (a string such as "not-a-boolean" is truthy: a lax server ran
# `terraform apply` on it). Boolean and untyped properties are never given a wrong value: any
# value may be a switch's "yes", and a falsy one the "go" of an inverted switch (dry_run: null).
# A schema with only such properties gets an unknown extra property (null) when it forbids
# additionalProperties, else no wrong-type case; a missing required argument always comes first.
_WRONG = (None, "", 0)
UNKNOWN_PROPERTY = "mcplint_probe_unknown"


class _Unbuildable(Exception):
    pass


# Anything else a hostile schema can make Python raise while it is read (a NaN bound,
# an infinite one, a huge multipleOf ratio): no arguments, never a crash.
_ODD_SHAPES = (_Unbuildable, RecursionError, TypeError, ValueError, OverflowError, ZeroDivisionError,
               ArithmeticError, AttributeError, KeyError, IndexError)


def valid_arguments(schema: Any) -> dict | None:
    """Required properties with minimal valid values, or None when unsure."""
    return _build(schema)[0]


def unbuildable_reason(schema: Any) -> str:
    """Why ``valid_arguments`` gave None, for the audit report."""
    return _build(schema)[1] or "no valid arguments could be built from its inputSchema"


def _build(schema: Any) -> tuple[dict | None, str]:
    if not isinstance(schema, Mapping):
        return None, ""
    try:
        value = _Builder(schema).object(schema, 0)
    except _ODD_SHAPES as why:
        reason = str(why.args[0]) if isinstance(why, _Unbuildable) and why.args else ""
        known = reason.startswith((schema_safety.COSTLY_PATTERN, schema_safety.EXTERNAL_REF))
        return None, reason if known else ""
    return (value, "") if isinstance(value, dict) else (None, "")


def invalid_cases(schema: Any) -> list[tuple[str, dict]]:
    """[(probe label, arguments)] that violate the schema: a missing required property,
    a wrong type. Empty when the schema gives nothing to violate."""
    if not isinstance(schema, Mapping):
        return []
    try:
        return _invalid_cases(schema)
    except _ODD_SHAPES:
        return []


def _invalid_cases(schema: Mapping) -> list[tuple[str, dict]]:
    schema = _resolve(schema, schema)
    valid = valid_arguments(schema) or {}
    properties = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
    required = _names(schema.get("required"))
    cases: list[tuple[str, dict]] = []
    if required:
        missing = required[0]
        cases.append((f"missing-required:{missing}", {k: v for k, v in valid.items() if k != missing}))
    ordered = required + [n for n in properties if isinstance(n, str) and n not in required]
    for name in ordered:
        prop = properties.get(name)
        if not isinstance(prop, Mapping):
            continue
        try:
            prop = _resolve(prop, schema)
        except _Unbuildable:
            continue
        types = _types(prop)
        if not types or "boolean" in types or any(isinstance(v, bool) for v in _sendable(prop)):
            continue
        wrong = next((value for value in _WRONG if not _accepts(types, value)), _NO_VALUE)
        if wrong is _NO_VALUE:
            continue
        cases.append((f"wrong-type:{name}", {**valid, name: wrong}))
        break
    else:
        if schema.get("additionalProperties") is False and UNKNOWN_PROPERTY not in properties:
            cases.append(("unknown-property", {**valid, UNKNOWN_PROPERTY: None}))
    return cases


_NO_VALUE = object()


def _sendable(prop: Mapping) -> list:
    """const, default and enum values: a boolean among them makes the property a switch."""
    values = [prop.get("const"), prop.get("default")]
    return values + (prop["enum"] if isinstance(prop.get("enum"), list) else [])


def _names(required: Any) -> list[str]:
    """The string entries of a `required` list (anything else in it is ignored)."""
    if not isinstance(required, list):
        return []
    return list(dict.fromkeys(n for n in required if isinstance(n, str)))


def _types(schema: Mapping) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list):
        return [t for t in declared if isinstance(t, str)]
    return []


def _accepts(types: list[str], value: Any) -> bool:
    if value is None:
        return "null" in types
    if isinstance(value, bool):
        return "boolean" in types
    if isinstance(value, int):
        return bool({"integer", "number"} & set(types))
    if isinstance(value, str):
        return "string" in types
    if isinstance(value, list):
        return "array" in types
    return "object" in types


def _resolve(schema: Any, root: Mapping, depth: int = 0) -> Any:
    """Follow a local ``$ref`` (``#/$defs/x``, ``#/definitions/x``); others are unbuildable."""
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and depth < MAX_DEPTH:
        ref = schema["$ref"]
        if not ref.startswith("#"):
            raise _Unbuildable(f"{schema_safety.EXTERNAL_REF} ({ref[:200]})")
        target: Any = root
        for part in [p for p in ref[1:].split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(target, list) and part.isdigit() and int(part) < len(target):
                target = target[int(part)]
            elif isinstance(target, Mapping) and part in target:
                target = target[part]
            else:
                raise _Unbuildable(ref)
        if target is True:
            target = {}
        if not isinstance(target, Mapping):
            raise _Unbuildable(ref)
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        depth += 1
    return schema


class _Builder:
    """Builds one set of arguments, counting the values it makes against MAX_VALUES."""

    def __init__(self, root: Mapping) -> None:
        self.root = root
        self.left = MAX_VALUES

    def value(self, schema: Any, depth: int, name: str = "") -> Any:
        self.left -= 1
        if depth > MAX_DEPTH or self.left < 0:
            raise _Unbuildable("too deep or too large")
        if schema is True or (isinstance(schema, Mapping) and not schema):
            return _named(name) or "example"  # anything is accepted: the well-known value is the likeliest
        if not isinstance(schema, Mapping):
            raise _Unbuildable("not a schema")
        schema = _resolve(schema, self.root)
        if "const" in schema:
            return schema["const"]
        if isinstance(schema.get("enum"), list):
            if not schema["enum"]:
                raise _Unbuildable("an empty enum accepts nothing")
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
                        combined = {**base, **option} if isinstance(option, Mapping) else option
                        return self.value(combined, depth + 1, name)
                    except _Unbuildable as why:
                        if str(why).startswith(schema_safety.COSTLY_PATTERN):
                            raise
                        continue
                raise _Unbuildable(key)
        if isinstance(schema.get("allOf"), list):
            merged = {k: v for k, v in schema.items() if k != "allOf"}
            for part in schema["allOf"]:
                if isinstance(part, Mapping):
                    part = _resolve(part, self.root)
                    merged = {**merged, **part, "required": _names(merged.get("required")) + _names(part.get("required"))}
                elif part is False:
                    raise _Unbuildable("allOf with false")
            return self.value(merged, depth + 1, name)
        types = [t for t in _types(schema) if t != "null"] or _types(schema)
        kind = types[0] if types else ("object" if "properties" in schema else None)
        if kind is None and (isinstance(schema.get("format"), str) and schema["format"] in _FORMATS or _named(name)):
            kind = "string"  # {"format": "uuid"} or a bare "timezone": a string is what is meant
        if kind == "object":
            return self.object(schema, depth)
        if kind == "array":
            return self.array(schema, depth)
        if kind == "string":
            return _string(schema, name)
        if kind in ("integer", "number"):
            return _number(schema, kind)
        if kind == "boolean":
            return False
        if kind == "null":
            return None
        if kind is None:
            return "example"
        raise _Unbuildable(f"type {kind[:40]!r}")

    def object(self, schema: Mapping, depth: int) -> dict:
        schema = _resolve(schema, self.root)
        if not isinstance(schema, Mapping):
            raise _Unbuildable("not a schema")
        properties = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
        required = _names(schema.get("required"))
        if len(required) > MAX_REQUIRED:
            raise _Unbuildable("too many required properties")
        return {name: self.value(properties.get(name, True), depth + 1, name) for name in required}

    def array(self, schema: Mapping, depth: int) -> list:
        count = schema.get("minItems", 0)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0 or count > 16:
            raise _Unbuildable("minItems")
        high = schema.get("maxItems")
        if isinstance(high, int) and not isinstance(high, bool) and high < count:
            raise _Unbuildable("maxItems below minItems")
        prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
        items = schema.get("items", True)
        values = [self.value(prefix[i] if i < len(prefix) else items, depth + 1) for i in range(count)]
        if schema.get("uniqueItems") is True and len({repr(v) for v in values}) != len(values):
            raise _Unbuildable("uniqueItems")
        return values


def _named(name: str) -> str | None:
    """The well-known value for a property name ("timeZone", "country_code"), else None."""
    if not isinstance(name, str) or len(name) > 64:
        return None
    return _NAMED.get(name.lower().replace("_", "").replace("-", ""))


def _string(schema: Mapping, name: str = "") -> str:
    low, high = _count(schema.get("minLength"), 0), _count(schema.get("maxLength"), None)
    if low > MAX_STRING or (high is not None and high < low):
        raise _Unbuildable("length")
    fmt = schema.get("format")
    named = _named(name)
    if isinstance(fmt, str) and fmt in _FORMATS:
        candidates = [_FORMATS[fmt]]
    else:
        candidates = [named, "example"] if named else ["example"]
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            candidates = [c for c in (*candidates, *_PATTERN_CANDIDATES) if schema_safety.search(pattern, c)]
        except schema_safety.Uncheckable as why:
            raise _Unbuildable(f"{why.reason} ({show(pattern)}: {why.detail})") from None
        except ValueError:
            raise _Unbuildable("pattern") from None
    for candidate in candidates:
        if candidate == named and not low <= len(candidate) <= (high if high is not None else MAX_STRING):
            continue  # a well-known value that does not fit: the placeholder, padded or cut
        if len(candidate) < low:
            if pattern is not None or fmt in _FORMATS:
                continue
            candidate = candidate + "x" * (low - len(candidate))
        if high is not None and len(candidate) > high:
            if pattern is not None or fmt in _FORMATS:
                continue
            candidate = candidate[:high]
        return candidate
    raise _Unbuildable("string")


def _count(value: Any, default: int | None) -> int | None:
    """A length bound: a non-negative integer (a float with no fraction counts), else ``default``."""
    if isinstance(value, float) and value.is_integer() and math.isfinite(value):
        value = int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else default


def _number(schema: Mapping, kind: str) -> int | float:
    low, high = schema.get("minimum"), schema.get("maximum")
    xlow, xhigh = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    step = schema.get("multipleOf")
    step = step if _is_number(step) and step > 0 else None
    value: float = 1
    if _is_number(low) and value < low:
        value = low
    if _is_number(xlow) and value <= xlow:
        value = math.floor(xlow) + 1 if kind == "integer" or step is None else xlow + (step or 1)
    if _is_number(high) and value > high:
        value = high
    if _is_number(xhigh) and value >= xhigh:
        value = math.ceil(xhigh) - 1 if kind == "integer" else xhigh - 0.5
    if step is not None and value % step:
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
    """A finite JSON number (Python's json reads NaN and Infinity too)."""
    return isinstance(value, int) and not isinstance(value, bool) or isinstance(value, float) and math.isfinite(value)
