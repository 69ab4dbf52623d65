"""Evaluating schemas from untrusted tools safely: nothing is fetched, no pattern runs away.

Tool schemas come from the server being linted, and so do the values checked against
them. Two things in a schema could make mcplint itself hang or leak:

- a ``$ref`` to another document: jsonschema's default registry GETs ``http://`` and
  opens ``file://`` URIs (a silent listener, a FIFO, ``/dev/zero``). Every validator
  here uses ``registry()``, which resolves only inside the schema (``#...``, ``$defs``,
  embedded ``$id``s) and the bundled metaschemas, and refuses everything else;
- ``$ref``s that repeat one another (``{"allOf": [{"$ref": "#/$defs/d1"}, {"$ref": "#/$defs/d1"}]}``
  in a chain of 40 definitions): jsonschema follows every ``$ref`` anew, so checking one
  value visits 2**40 subschemas. ``expansion`` bounds, once per schema, how many subschemas
  one value can meet, and a schema over ``MAX_VISITS`` is not applied;
- a ``pattern`` with catastrophic backtracking (``^(a|a)+$``), or one whose compiled
  form is huge (``(?:a{1000}){1000}``): Python's ``re`` cannot be interrupted, so patterns
  are matched with the ``regex`` module under a per-match timeout, after a static
  estimate of what compiling them costs, on values of bounded size.

All three raise ``Uncheckable``: the check gives no verdict, and the rule that asked says why.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

EXTERNAL_REF = "`$ref` to an external document cannot be checked"
COSTLY_PATTERN = "pattern too costly to check"
EXPANDS = "the schema expands too far to check"

MATCH_TIMEOUT = 0.1  # seconds for one match
PATTERN_TIME_BUDGET = 5.0  # seconds for all matches of one pattern in a run
MAX_SUBJECT = 1_000_000  # characters of a value matched against a pattern
MAX_PATTERN = 10_000  # characters of a pattern
MAX_EXPANSION = 50_000  # counted repetitions the regex module would unroll when compiling
MAX_VISITS = 10_000  # subschemas $refs may add to what one value (at one place) is checked against
MAX_STEPS = 300_000  # keywords applied in checking one value (~13 us each: the seconds one value may take)


class Uncheckable(Exception):
    """A part of a schema mcplint will not evaluate. ``reason`` is EXTERNAL_REF,
    COSTLY_PATTERN or EXPANDS; ``keyword`` the schema keyword ($ref, pattern,
    patternProperties); ``value`` the ref or the pattern."""

    def __init__(self, reason: str, keyword: str, value: str, detail: str = "") -> None:
        super().__init__(f"{reason} ({detail})" if detail else reason)
        self.reason, self.keyword, self.value, self.detail = reason, keyword, value, detail


# -- references -------------------------------------------------------------------------------

def _refuse(uri: str):
    """The registry's retrieve: any document not already in the registry is unresolvable."""
    from referencing.exceptions import NoSuchResource

    raise NoSuchResource(ref=uri)


@lru_cache(maxsize=1)
def registry():
    """A ``referencing.Registry`` that never retrieves anything. jsonschema adds its bundled
    metaschemas to it; embedded ``$id`` resources are found by crawling the root schema."""
    from referencing import Registry

    return Registry(retrieve=_refuse)


def external_refs(schema: Any) -> list[tuple[tuple, str]]:
    """(path of the subschema holding it, ref) for every ``$ref`` that leaves the schema:
    not a fragment (``#...``), not an ``$id`` declared inside it, not a known metaschema."""
    if not isinstance(schema, dict):
        return []
    from mcplint import versions
    from mcplint.schema_refs import EXTERNAL, NETWORK, resolve
    from mcplint.schemas import facts

    found = facts(schema, versions.LATEST)
    return [(ref.path, ref.ref) for ref in found.refs if resolve(schema, found, ref) in (NETWORK, EXTERNAL)]


def location(schema: Any, why: Uncheckable) -> tuple:
    """Path inside ``schema`` of what ``why`` is about (the ``$ref`` or the pattern); the
    root when it cannot be found."""
    if why.reason == EXTERNAL_REF:
        refs = external_refs(schema)
        for path, ref in refs:  # the error names the document, made absolute against any $id
            document = ref.split("#", 1)[0]
            if why.value in (ref, document) or (document and why.value.endswith("/" + document.lstrip("./"))):
                return (*path, "$ref")
        return (*refs[0][0], "$ref") if refs else ()
    return _find(schema, why.keyword, why.value, (), 0) or ()


def first_report(session: Any, key: str, tool_name: Any, schema: Any, why: Uncheckable) -> tuple | None:
    """The place in ``schema`` that ``why`` is about, the first time a rule (``key``) meets it
    for this tool in this capture; None after that (an unchecked schema is said once, not per call)."""
    path = location(schema, why)
    seen = session.__dict__.setdefault(key, set())
    if (tool_name, path) in seen:
        return None
    seen.add((tool_name, path))
    return path


def _find(node: Any, keyword: str, value: str, path: tuple, depth: int) -> tuple | None:
    if depth > 64:
        return None
    if isinstance(node, dict):
        if keyword == "patternProperties" and isinstance(node.get(keyword), dict) and value in node[keyword]:
            return (*path, keyword, value)
        if node.get(keyword) == value and keyword != "patternProperties":
            return (*path, keyword)
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return None
    for key, sub in items:
        found = _find(sub, keyword, value, (*path, key), depth + 1)
        if found is not None:
            return found
    return None


# -- patterns ---------------------------------------------------------------------------------

_COSTLY: dict[str, str] = {}  # pattern -> why it is too costly (kept for the run)
_SPENT: dict[str, float] = {}  # pattern -> seconds spent matching it
_SEEN: dict[tuple[str, str], bool] = {}  # (pattern, short subject) -> matched: captures repeat values,
# and a match under a timeout costs ~5 us (the regex module reads the clock), ten times one without


def search(pattern: str, subject: str, keyword: str = "pattern") -> bool:
    """Whether ``pattern`` (ECMA-262 syntax, as JSON Schema specifies) matches somewhere in
    ``subject``. Raises Uncheckable(COSTLY_PATTERN) for a pattern too costly to compile, a
    match that times out (the pattern is then costly for the rest of the run), or a subject
    over MAX_SUBJECT characters; ValueError for a pattern that does not compile."""
    known = _SEEN.get((pattern, subject))
    if known is not None:
        return known
    found = compiled(pattern, keyword)
    if len(subject) > MAX_SUBJECT:
        raise Uncheckable(COSTLY_PATTERN, keyword, pattern, f"a value of {len(subject):,} characters")
    start = time.perf_counter()
    try:
        matched = found.search(subject, timeout=MATCH_TIMEOUT) is not None
    except TimeoutError:
        _COSTLY[pattern] = f"a match took over {MATCH_TIMEOUT:g} s"
        raise Uncheckable(COSTLY_PATTERN, keyword, pattern, _COSTLY[pattern]) from None
    finally:
        if len(_SPENT) > 10_000:
            _SPENT.clear()
        spent = _SPENT[pattern] = _SPENT.get(pattern, 0.0) + time.perf_counter() - start
        if spent > PATTERN_TIME_BUDGET:  # many slow matches: the next ones are not run
            _COSTLY.setdefault(pattern, f"matching it took over {PATTERN_TIME_BUDGET:g} s in all")
    if len(subject) <= 256:
        if len(_SEEN) > 100_000:
            _SEEN.clear()
        _SEEN[pattern, subject] = matched
    return matched


def compiled(pattern: str, keyword: str = "pattern"):
    """``pattern`` compiled by the regex module (cached). Raises Uncheckable when it is too
    costly to compile (or already known too costly to match), ValueError when invalid."""
    if not isinstance(pattern, str):
        raise ValueError("a pattern must be a string")
    if pattern in _COSTLY:
        raise Uncheckable(COSTLY_PATTERN, keyword, pattern, _COSTLY[pattern])
    found = _compile(pattern)
    if isinstance(found, str):
        raise Uncheckable(COSTLY_PATTERN, keyword, pattern, found)
    if isinstance(found, Exception):
        raise ValueError(f"invalid pattern: {found}")
    return found


@lru_cache(maxsize=4096)
def _compile(pattern: str):
    """The compiled pattern, a reason (str) it is too costly to compile, or the error."""
    import regex

    from mcplint.schema_dialects import ecma_to_python

    if len(pattern) > MAX_PATTERN:
        return f"{len(pattern):,} characters long"
    error: Exception | None = None
    for candidate in (pattern, ecma_to_python(pattern)):
        size = _expansion(candidate)
        if size > MAX_EXPANSION:
            return f"its repetition counts expand to about {size:,} items"
        try:
            return regex.compile(candidate)
        except (regex.error, OverflowError, RecursionError, ValueError) as err:
            error = err
    return error


def _expansion(pattern: str) -> int:
    """An estimate of how many items the regex module unrolls when compiling ``pattern``:
    counted repeats (``x{n}``, ``x{n,m}``) are expanded to their minimum count, nested
    ones multiply. Read from ``re``'s parser (cheap: it unrolls nothing); a pattern it
    cannot parse is estimated from its counts alone."""
    import re

    try:
        from re import _parser as sre_parse  # type: ignore[attr-defined]
    except ImportError:  # Python < 3.11
        import sre_parse  # type: ignore[no-redef]
    try:
        return _weight(sre_parse.parse(pattern), 0)
    except (re.error, RecursionError, OverflowError, ValueError, TypeError, AttributeError):
        product = 1
        for count in re.findall(r"\{(\d+)", pattern):
            product *= max(1, int(count))
            if product > MAX_EXPANSION:
                break
        return product


def _weight(items, depth: int) -> int:
    if depth > 200:
        raise RecursionError
    total = 0
    for op, arg in items:
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, _high, sub = arg
            total += max(1, low) * _weight(sub, depth + 1)
        elif name == "SUBPATTERN":
            total += _weight(arg[-1], depth + 1)
        elif name == "BRANCH":
            total += sum(_weight(branch, depth + 1) for branch in arg[1])
        elif name in ("ASSERT", "ASSERT_NOT"):
            total += _weight(arg[1], depth + 1)
        elif name == "ATOMIC_GROUP":
            total += _weight(arg, depth + 1)
        elif name == "GROUPREF_EXISTS":
            total += sum(_weight(b, depth + 1) for b in arg[1:] if b is not None)
        else:
            total += 1
        if total > MAX_EXPANSION:
            return total
    return total


# -- expansion --------------------------------------------------------------------------------


# -- jsonschema validators ----------------------------------------------------------------------

def validator(schema: Any, dialect: str, **kwargs):
    """A jsonschema validator for ``schema`` in ``dialect`` (one of mcplint.schema_dialects'
    names) that resolves references only inside the schema and matches patterns through
    ``search``. Its ``iter_errors`` raises Uncheckable (see ``errors``)."""
    return validator_class(dialect)(schema, registry=registry(), **kwargs)


def errors(validator, instance: Any, steps: int = MAX_STEPS) -> list:
    """All of jsonschema's errors for ``instance``. Raises Uncheckable for an external
    ``$ref`` the instance reaches, a pattern too costly to run, or a check that applies
    more than ``steps`` keywords (EXPANDS: what ``expansion`` cannot bound, a recursive
    schema whose $refs repeat one another as deep as the value goes); ValueError for a
    schema that cannot be applied (a missing local ``$ref``, a pattern that does not compile)."""
    from referencing.exceptions import NoSuchResource, Unresolvable, Unretrievable

    outer = _STEPS[:]
    _STEPS[:] = [0, steps]
    try:
        return list(validator.iter_errors(instance))
    except Unresolvable as err:
        # referencing reports a document that ``_refuse`` would not retrieve as a plain
        # Unresolvable naming the ref; a pointer or anchor missing inside the schema as a subclass.
        cause = getattr(err, "_wrapped", err)  # (jsonschema wraps referencing's error)
        ref = str(getattr(cause, "ref", ""))
        if (type(cause) is Unresolvable or isinstance(cause, (NoSuchResource, Unretrievable))) \
                and ref and not ref.startswith("#"):
            raise Uncheckable(EXTERNAL_REF, "$ref", ref) from None
        raise ValueError(f"unresolvable $ref: {cause}") from None
    finally:
        _STEPS[:] = outer


_STEPS = [0, None]  # keywords applied in the current ``errors`` call, and its limit (None: outside one)


def _counted(keyword):
    """jsonschema's function for a keyword, counting its applications against ``errors``' limit."""
    def apply(validator, value, instance, schema):
        steps = _STEPS
        if steps[1] is not None:
            steps[0] += 1
            if steps[0] > steps[1]:
                steps[1] = None  # (raised once: what catches it may still run keywords)
                raise Uncheckable(EXPANDS, "$ref", "", f"checking one value applied over {steps[0] - 1:,} "
                                  "keywords (its $refs repeat one another, or the value is huge)")
        return keyword(validator, value, instance, schema)
    return apply


@lru_cache(maxsize=None)
def validator_class(dialect: str):
    import jsonschema

    from mcplint.schema_dialects import DRAFT4, DRAFT6, DRAFT7, DRAFT2019

    base = {DRAFT4: jsonschema.Draft4Validator, DRAFT6: jsonschema.Draft6Validator,
            DRAFT7: jsonschema.Draft7Validator, DRAFT2019: jsonschema.Draft201909Validator,
            }.get(dialect, jsonschema.Draft202012Validator)
    keywords = {"pattern": _pattern, "patternProperties": _pattern_properties,
                "additionalProperties": _additional_properties}
    if "unevaluatedProperties" in base.VALIDATORS:
        keywords["unevaluatedProperties"] = _unevaluated_properties
    return jsonschema.validators.extend(base, {name: _counted(keyword)
                                               for name, keyword in {**base.VALIDATORS, **keywords}.items()})


def _pattern(validator, pattern, instance, schema):
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator, patterns, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if search(pattern, key, "patternProperties"):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _extras_msg(extras: list) -> tuple[str, str]:
    return ", ".join(repr(extra) for extra in extras), "was" if len(extras) == 1 else "were"


def _additional(instance: dict, schema: dict) -> list:
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return [key for key in instance if key not in properties
            and not any(search(p, key, "patternProperties") for p in patterns)]


def _additional_properties(validator, extra_schema, instance, schema):
    """jsonschema's additionalProperties, deciding which properties match patternProperties
    through ``search``."""
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    extras = _additional(instance, schema)
    if validator.is_type(extra_schema, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], extra_schema, path=extra)
    elif not extra_schema and extras:
        if "patternProperties" in schema:
            patterns = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in sorted(extras))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {patterns}")
        else:
            yield ValidationError("Additional properties are not allowed (%s %s unexpected)"
                                  % _extras_msg(sorted(extras, key=str)))


def _unevaluated_properties(validator, unevaluated, instance, schema):
    """jsonschema's unevaluatedProperties, with the evaluated keys found by ``_evaluated``."""
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    evaluated = set(_evaluated(validator, instance, schema, 0))
    rejected = [key for key in instance if key not in evaluated
                and next(validator.descend(instance[key], unevaluated, path=key, schema_path=key), None)]
    if rejected and unevaluated is False:
        yield ValidationError("Unevaluated properties are not allowed (%s %s unexpected)"
                              % _extras_msg(sorted(rejected, key=str)))
    elif rejected:
        yield ValidationError("Unevaluated properties are not valid under the given schema "
                              "(%s %s unevaluated and invalid)" % _extras_msg(rejected))


def _evaluated(validator, instance: dict, schema, depth: int) -> list:
    """The keys of ``instance`` that ``schema`` evaluates (jsonschema's
    find_evaluated_property_keys_by_schema, matching patternProperties through ``search``)."""
    if not isinstance(schema, dict) or depth > 64:
        return []
    keys: list = []  # (``_resolver`` is private, but jsonschema's own helper follows refs the same way)
    for keyword in ("$ref", "$dynamicRef"):
        if isinstance(schema.get(keyword), str):
            resolved = validator._resolver.lookup(schema[keyword])
            inner = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            keys += _evaluated(inner, instance, resolved.contents, depth + 1)
    if isinstance(schema.get("properties"), dict):
        keys += schema["properties"].keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if keyword in schema:
            keys += (key for key, value in instance.items()
                     if next(validator.descend(value, schema[keyword]), None) is None)
    if isinstance(schema.get("patternProperties"), dict):
        keys += (key for key in instance
                 if any(search(p, key, "patternProperties") for p in schema["patternProperties"]))
    if isinstance(schema.get("dependentSchemas"), dict):
        for name, sub in schema["dependentSchemas"].items():
            if name in instance:
                keys += _evaluated(validator, instance, sub, depth + 1)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for sub in schema.get(keyword, []) if isinstance(schema.get(keyword), list) else []:
            if next(validator.descend(instance, sub), None) is None:
                keys += _evaluated(validator, instance, sub, depth + 1)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys += _evaluated(validator, instance, schema["if"], depth + 1)
            if "then" in schema:
                keys += _evaluated(validator, instance, schema["then"], depth + 1)
        elif "else" in schema:
            keys += _evaluated(validator, instance, schema["else"], depth + 1)
    return keys
