"""JSON Schema dialects and metaschema validity.

Dialect of a tool schema (spec §JSON Schema usage):

- a declared ``$schema`` naming draft-04, -06, -07, 2019-09 or 2020-12 is honoured
  (``http``/``https`` and a trailing empty fragment are treated alike); any other
  value is an unsupported dialect;
- without ``$schema``, 2025-11-25 and later mean 2020-12; earlier versions name no
  dialect (the protocol's own schema.json is draft-07), so a schema there is accepted
  when it is valid under draft-07 *or* 2020-12 (``LENIENT``).

``metaschema_error`` is the slow path: jsonschema's metaschema validation (imported
only when needed, ~100 ms), cached by canonical JSON. The fast path that proves
common schemas valid without it lives in mcplint.schemas.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from mcplint import versions
from mcplint.regex_cache import regex

DRAFT4, DRAFT6, DRAFT7, DRAFT2019, DRAFT2020 = "draft-04", "draft-06", "draft-07", "2019-09", "2020-12"
LENIENT = "draft-07 or 2020-12"  # no $schema before 2025-11-25
UNKNOWN = "unknown"

_DIALECT_URI = regex(
    r"https?://json-schema\.org/(draft-0[467]|draft/2019-09|draft/2020-12)/schema#?"
)
_DIALECT_BY_PATH = {"draft-04": DRAFT4, "draft-06": DRAFT6, "draft-07": DRAFT7,
                    "draft/2019-09": DRAFT2019, "draft/2020-12": DRAFT2020}
SIMPLE_TYPES = frozenset(("array", "boolean", "integer", "null", "number", "object", "string"))


def dialect_for_uri(uri: str) -> str | None:
    match = _DIALECT_URI.fullmatch(uri)
    return _DIALECT_BY_PATH[match.group(1)] if match else None


def schema_dialect(schema: Any, version: str) -> tuple[str, str | None]:
    """(dialect, declared $schema or None) of a root schema linted at ``version``."""
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    if isinstance(declared, str):
        return dialect_for_uri(declared) or UNKNOWN, declared
    return (DRAFT2020 if version >= versions.V2025_11_25 else LENIENT), None


# -- URI and regex checks shared by the fast path and the jsonschema format checker ----------

@lru_cache(maxsize=1)
def _uri_grammar() -> tuple[re.Pattern, re.Pattern]:
    """RFC 3986 URI and URI-reference (IPv6 literals simplified)."""
    pct = r"%[0-9A-Fa-f]{2}"
    pchar = rf"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|{pct})"
    nocolon = rf"(?:[A-Za-z0-9\-._~!$&'()*+,;=@]|{pct})"
    host = rf"(?:\[[0-9A-Fa-f:.vV]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|{pct})*)"
    authority = rf"(?:(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|{pct})*@)?{host}(?::[0-9]*)?"
    abempty = rf"(?:/{pchar}*)*"
    absolute = rf"/(?:{pchar}+{abempty})?"
    tail = rf"(?:\?(?:{pchar}|[/?])*)?(?:#(?:{pchar}|[/?])*)?"
    uri = rf"[A-Za-z][A-Za-z0-9+.\-]*:(?://{authority}{abempty}|{absolute}|{pchar}+{abempty}|){tail}"
    relative = rf"(?://{authority}{abempty}|{absolute}|{nocolon}+{abempty}|){tail}"
    return regex(uri), regex(rf"{uri}|{relative}")


_ECMA_ONLY = (
    (regex(r"\(\?<(?![=!])"), "(?P<"),  # named group
    (regex(r"\\[pP]\{[^}]*\}"), "."),  # Unicode property escape
    (regex(r"\\u\{[0-9A-Fa-f]+\}"), "."),  # code point escape
    (regex(r"\\c[A-Za-z]"), "."),  # control escape
    (regex(r"\\k<([A-Za-z_][A-Za-z0-9_]*)>"), r"(?P=\1)"),  # named backreference
)


def uri_reference_ok(value: object) -> bool:
    """RFC 3986 URI-reference character syntax (what the metaschemas' format asks)."""
    return not isinstance(value, str) or _uri_grammar()[1].fullmatch(value) is not None


def uri_ok(value: object) -> bool:
    return not isinstance(value, str) or _uri_grammar()[0].fullmatch(value) is not None


@lru_cache(maxsize=4096)
def regex_ok(pattern: str) -> bool:
    """A usable regular expression; ECMA-262-only syntax (what JSON Schema specifies) is
    accepted even though Python's ``re`` lacks it."""
    for candidate in (pattern, ecma_to_python(pattern)):
        try:
            re.compile(candidate)
            return True
        except re.error as err:
            if "look-behind requires fixed-width" in str(err):  # ECMA-262 allows any look-behind
                return True
        except (RecursionError, OverflowError):
            pass
    return False


def ecma_to_python(pattern: str) -> str:
    """``pattern`` with the ECMA-262-only constructs Python lacks rewritten (approximately)."""
    for construct, replacement in _ECMA_ONLY:
        pattern = construct.sub(replacement, pattern)
    return pattern


# -- metaschema validation with jsonschema (slow path) ---------------------------------------

_ERRORS: dict[tuple[str, str], tuple[tuple, str] | None] = {}


def metaschema_error(schema: Any, dialect: str) -> tuple[tuple, str] | None:
    """(path inside the schema, message) of the most relevant metaschema violation under
    ``dialect``, or None when valid. For LENIENT, valid under either draft-07 or 2020-12
    counts; the draft-07 error is reported. Cached by canonical JSON."""
    try:
        text = json.dumps(schema, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr(schema)
    key = (dialect, text)
    if key not in _ERRORS:
        if len(_ERRORS) > 10_000:
            _ERRORS.clear()
        dialects = (DRAFT7, DRAFT2020) if dialect == LENIENT else (dialect,)
        errors = [_first_error(schema, d) for d in dialects]
        _ERRORS[key] = None if None in errors else errors[0]
    return _ERRORS[key]


def _first_error(schema: Any, dialect: str) -> tuple[tuple, str] | None:
    jsonschema = _jsonschema()
    from mcplint.schema_safety import registry

    cls = {
        DRAFT4: jsonschema.Draft4Validator, DRAFT6: jsonschema.Draft6Validator,
        DRAFT7: jsonschema.Draft7Validator, DRAFT2019: jsonschema.Draft201909Validator,
        DRAFT2020: jsonschema.Draft202012Validator,
    }[dialect]
    # The metaschemas' own refs resolve from jsonschema's bundled copies; nothing is fetched.
    validator = cls(cls.META_SCHEMA, format_checker=_format_checker(), registry=registry())
    try:
        error = jsonschema.exceptions.best_match(validator.iter_errors(schema))
    except RecursionError:  # too deep to check: do not claim it is invalid
        return None
    if error is None:
        return None
    path = tuple(error.absolute_path)
    return path, _describe(error, path, dialect)


def _describe(error, path: tuple, dialect: str) -> str:
    instance = error.instance
    if path and path[-1] == "items" and isinstance(instance, list) and dialect == DRAFT2020:
        return "array-form 'items' is draft-07 syntax; in 2020-12 use 'prefixItems' (or declare draft-07)"
    if path and path[-1] == "type" and error.validator == "anyOf":
        return f"{show(instance)} is not a JSON Schema type (one of {', '.join(sorted(SIMPLE_TYPES))})"
    message = error.message
    if message.startswith(repr(instance)):
        message = show(instance) + message[len(repr(instance)):]
    return message


def show(value: Any, limit: int = 60) -> str:
    """A value as short JSON text, for messages."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@lru_cache(maxsize=1)
def _format_checker():
    """Deterministic checks for the only formats the metaschemas use (regex, uri,
    uri-reference), whatever optional format libraries happen to be installed."""
    jsonschema = _jsonschema()
    checker = jsonschema.FormatChecker(formats=())
    checker.checks("regex")(lambda value: not isinstance(value, str) or regex_ok(value))
    checker.checks("uri")(uri_ok)
    checker.checks("uri-reference")(uri_reference_ok)
    return checker


def _jsonschema():
    """Import jsonschema lazily: it costs ~100 ms and most schemas never need it."""
    import jsonschema
    import jsonschema.exceptions

    return jsonschema
