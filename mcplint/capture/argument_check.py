"""Validate tools/call arguments against a tool's inputSchema, fast.

A capture can hold 100,000 successful calls, and jsonschema costs tens of microseconds
per call. Most tool schemas use a handful of keywords (type, properties, required,
additionalProperties, enum, bounds, items), so those are compiled into plain Python
checks that agree with jsonschema on every instance; any other keyword makes the whole
schema go through jsonschema. jsonschema also explains a failure, so a call the fast
check rejects is confirmed and described by it. Both paths go through
mcplint.schema_safety: no ``$ref`` is fetched, patterns run under a time budget and a
schema whose ``$ref``s repeat one another too much is not applied, so some calls get no
verdict but an ``Uncheckable`` saying why.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from mcplint import schema_safety
from mcplint.schema_dialects import DRAFT4, DRAFT6, DRAFT7, DRAFT2019, DRAFT2020, UNKNOWN, metaschema_error, schema_dialect
from mcplint.schema_expansion import expansion

Check = Callable[[Any], bool]

ANNOTATIONS = frozenset(("title", "description", "default", "examples", "$schema", "$comment", "deprecated",
                         "readOnly", "writeOnly", "format", "contentMediaType", "contentEncoding"))
_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
}


class _Unsupported(Exception):
    pass


class ArgumentValidator:
    """``valid(arguments)`` and ``error(arguments)`` (jsonschema's best match) for one schema."""

    def __init__(self, schema: Any, dialect: str) -> None:
        self.schema, self.dialect = schema, dialect
        self._slow = None
        self._built = False
        self._expands: schema_safety.Uncheckable | None = None  # why no value can be checked
        try:
            self._fast = None if dialect == DRAFT4 else _compile(schema)
        except (_Unsupported, schema_safety.Uncheckable, ValueError, TypeError, RecursionError):
            self._fast = None

    def valid(self, instance: Any) -> bool | None:
        """True or False; None when the schema cannot be applied (invalid, a missing local
        $ref). Raises schema_safety.Uncheckable when the instance reaches an external $ref
        or a pattern too costly to run."""
        try:
            if self._fast is not None and self._fast(instance):
                return True
        except schema_safety.Uncheckable:
            pass  # jsonschema says the same, or finds another error first
        slow = self._jsonschema()
        if slow is None:
            return None
        try:
            return not self._errors(slow, instance)
        except (ValueError, TypeError, RecursionError):  # a missing local $ref, a pattern that does not compile
            return None

    def quick(self, instance: Any) -> bool | None:
        """``valid`` from the compiled checks alone when they apply (they agree with jsonschema),
        so a verdict costs no jsonschema import; else ``valid``."""
        try:
            if self._fast is not None:
                return bool(self._fast(instance))
        except schema_safety.Uncheckable:
            pass
        return self.valid(instance)

    def error(self, instance: Any):
        """jsonschema's best match among the errors (call after ``valid`` said False)."""
        import jsonschema.exceptions

        return jsonschema.exceptions.best_match(self._errors(self._jsonschema(), instance))

    def _errors(self, slow, instance: Any) -> list:
        """schema_safety.errors, unless the schema expands too far to check: its $refs repeat
        one another (found before any value, or by a value that took too many steps, after
        which no value is checked against it)."""
        why = self._expands
        if why is not None:
            raise schema_safety.Uncheckable(why.reason, why.keyword, why.value, why.detail)
        try:
            return schema_safety.errors(slow, instance)
        except schema_safety.Uncheckable as why:
            if why.reason == schema_safety.EXPANDS:
                self._expands = why
            raise

    def _jsonschema(self):
        if not self._built:
            self._built = True
            dialect = self.dialect if self.dialect in (DRAFT4, DRAFT6, DRAFT7, DRAFT2019) else DRAFT2020
            try:  # an invalid schema is the manifest rules' finding, not a verdict on calls
                self._slow = None if metaschema_error(self.schema, dialect) else schema_safety.validator(self.schema, dialect)
            except Exception:
                self._slow = None
            if self._slow is not None:
                self._expands = expansion(self._slow)
        return self._slow


_CACHE: dict[str, ArgumentValidator | None] = {}


def validator_for(schema: Any, version: str) -> ArgumentValidator | None:
    """A validator for an inputSchema, shared by equal schemas (bounded cache); None for
    a schema in a dialect mcplint cannot run."""
    if not isinstance(schema, (dict, bool)):
        return None
    dialect, _ = schema_dialect(schema, version)
    if dialect == UNKNOWN:
        return None
    try:
        key = dialect + json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError):
        return None
    if key not in _CACHE:
        if len(_CACHE) > 512:
            _CACHE.clear()
        _CACHE[key] = ArgumentValidator(schema, dialect)
    return _CACHE[key]


# -- the fast path ----------------------------------------------------------------------------

_SUPPORTED = frozenset(("type", "properties", "required", "additionalProperties", "enum", "const", "minimum",
                        "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern",
                        "items", "minItems", "maxItems"))


def _compile(schema: Any, depth: int = 0) -> Check:
    if schema is True or schema == {}:
        return lambda v: True
    if schema is False:
        return lambda v: False
    if not isinstance(schema, dict) or depth > 16:
        raise _Unsupported
    for key in schema:
        if key not in _SUPPORTED and key not in ANNOTATIONS and not key.startswith("x-"):
            raise _Unsupported(key)
    checks: list[Check] = []
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not names or not all(isinstance(n, str) and n in _TYPES for n in names):
            raise _Unsupported
        tests = [_TYPES[n] for n in names]
        checks.append(tests[0] if len(tests) == 1 else _any_of(tuple(tests)))
    for key in ("enum", "const"):
        if key in schema:
            options = schema[key] if key == "enum" else [schema[key]]
            if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
                raise _Unsupported  # JSON equality of numbers and booleans differs from Python's
            allowed = frozenset(options)
            checks.append(lambda v, a=allowed: isinstance(v, str) and v in a)
    checks.extend(_number_checks(schema))
    checks.extend(_string_checks(schema))
    checks.extend(_array_checks(schema, depth))
    checks.extend(_object_checks(schema, depth))
    if not checks:
        return lambda v: True
    return _specialized(schema, depth) or (checks[0] if len(checks) == 1 else _all_of(tuple(checks)))


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_OBJECT_KEYS = frozenset(("type", "properties", "required", "additionalProperties"))
_NUMBER_KEYS = frozenset(("type", *_BOUNDS))


def _specialized(schema: dict, depth: int) -> Check | None:
    """One function for the commonest shapes (an object of properties, a number with bounds),
    the same test as the checks ``_compile`` built and validated, with no call per keyword:
    the arguments of every call of a capture go through them. None for other shapes."""
    keys = {key for key in schema if key not in ANNOTATIONS and not key.startswith("x-")}
    kind = schema.get("type")
    if kind == "object" and keys <= _OBJECT_KEYS:
        props = {name: _compile(sub, depth + 1) for name, sub in schema.get("properties", {}).items()}
        extra = schema.get("additionalProperties", True)
        other = _compile(extra, depth + 1) if extra is not True else None
        return _object_test(props, other, frozenset(schema.get("required", ())), False)
    if (kind == "integer" or kind == "number") and keys <= _NUMBER_KEYS:
        integer = kind == "integer"
        low, high, above, below = (schema.get(key) for key in _BOUNDS)

        def check_number(v) -> bool:
            if isinstance(v, bool):
                return False
            if not isinstance(v, int):
                if not isinstance(v, float) or (integer and not v.is_integer()):
                    return False
            # Each bound holds only when its comparison does: NaN fails them all, as in the checks
            # this stands for (a False is no verdict: jsonschema then decides).
            return ((low is None or v >= low) and (high is None or v <= high) and (above is None or v > above)
                    and (below is None or v < below))
        return check_number
    return None


# Plain loops: a generator per call (all(... for ...)) costs more than the checks themselves.
def _all_of(checks: tuple) -> Check:
    def check(v) -> bool:
        for f in checks:
            if not f(v):
                return False
        return True
    return check


def _any_of(checks: tuple) -> Check:
    def check(v) -> bool:
        for f in checks:
            if f(v):
                return True
        return False
    return check


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _number_checks(schema: dict) -> list[Check]:
    found: list[Check] = []
    for key, test in (("minimum", lambda v, b: v >= b), ("maximum", lambda v, b: v <= b),
                      ("exclusiveMinimum", lambda v, b: v > b), ("exclusiveMaximum", lambda v, b: v < b)):
        if key in schema:
            bound = schema[key]
            if not _is_number(bound):
                raise _Unsupported  # draft-04's boolean exclusive bounds
            found.append(lambda v, b=bound, t=test: not _is_number(v) or t(v, b))
    return found


def _string_checks(schema: dict) -> list[Check]:
    found: list[Check] = []
    for key, test in (("minLength", lambda n, b: n >= b), ("maxLength", lambda n, b: n <= b)):
        if key in schema:
            bound = schema[key]
            if not isinstance(bound, int) or isinstance(bound, bool):
                raise _Unsupported
            found.append(lambda v, b=bound, t=test: not isinstance(v, str) or t(len(v), b))
    if "pattern" in schema:
        pattern = schema["pattern"]
        if not isinstance(pattern, str):
            raise _Unsupported
        schema_safety.compiled(pattern, "pattern")  # compiles now: raises for a pattern too costly or invalid
        found.append(lambda v, p=pattern: not isinstance(v, str) or schema_safety.search(p, v))
    return found


def _array_checks(schema: dict, depth: int) -> list[Check]:
    found: list[Check] = []
    if "items" in schema:
        if isinstance(schema["items"], list):
            raise _Unsupported  # tuple form differs between drafts
        item = _compile(schema["items"], depth + 1)
        def check_items(v, f=item) -> bool:
            if isinstance(v, list):
                for x in v:
                    if not f(x):
                        return False
            return True
        found.append(check_items)
    for key, test in (("minItems", lambda n, b: n >= b), ("maxItems", lambda n, b: n <= b)):
        if key in schema:
            bound = schema[key]
            if not isinstance(bound, int) or isinstance(bound, bool):
                raise _Unsupported
            found.append(lambda v, b=bound, t=test: not isinstance(v, list) or t(len(v), b))
    return found


def _object_checks(schema: dict, depth: int) -> list[Check]:
    found: list[Check] = []
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        raise _Unsupported
    compiled = {name: _compile(sub, depth + 1) for name, sub in properties.items()}
    extra = schema.get("additionalProperties", True)
    extra_check = _compile(extra, depth + 1) if extra is not True else None
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise _Unsupported
    if compiled or extra_check is not None:
        found.append(_object_test(compiled, extra_check, frozenset(), True))
    if required:
        names = frozenset(required)
        found.append(lambda v, r=names: not isinstance(v, dict) or r.issubset(v.keys()))
    return found


def _object_test(props: dict, other: Check | None, names: frozenset, otherwise: bool) -> Check:
    """An object's members against ``props`` (``other`` for the rest) and its ``names`` present;
    ``otherwise`` for a value that is not an object."""
    def check(v) -> bool:
        if not isinstance(v, dict):
            return otherwise
        for key, value in v.items():
            test = props.get(key)
            if test is not None:
                if not test(value):
                    return False
            elif other is not None and not other(value):
                return False
        return not names or names.issubset(v.keys())
    return check
