"""Validating `structuredContent` against a tool's `outputSchema` (MCP721).

The dialect is the schema's declared `$schema` (the TypeScript SDK declares draft-07),
else 2020-12; before 2025-11-25, where the spec names no dialect, a schema that only
draft-07 accepts is read as draft-07. Formats are annotations (the 2020-12 default),
and `$ref`s resolve only inside the schema: nothing is ever fetched. Validators are
built once per tool and session and kept on the session.
"""

from __future__ import annotations

from typing import Any, Callable

from mcplint.schema_dialects import (
    DRAFT4, DRAFT6, DRAFT7, DRAFT2019, DRAFT2020, LENIENT, UNKNOWN, metaschema_error, schema_dialect, show,
)

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
    dialect, _ = schema_dialect(schema, version)
    if dialect == UNKNOWN:
        return None
    if dialect == LENIENT:
        dialect = DRAFT7 if metaschema_error(schema, DRAFT2020) and not metaschema_error(schema, DRAFT7) else DRAFT2020
    if metaschema_error(schema, dialect):
        return None
    import jsonschema
    from referencing import Registry

    cls = {
        DRAFT4: jsonschema.Draft4Validator, DRAFT6: jsonschema.Draft6Validator,
        DRAFT7: jsonschema.Draft7Validator, DRAFT2019: jsonschema.Draft201909Validator,
        DRAFT2020: jsonschema.Draft202012Validator,
    }[dialect]
    validator = cls(schema, registry=Registry())  # an empty registry: never fetch a $ref

    def check(value: Any) -> list[tuple[tuple, tuple, str]]:
        try:
            errors = list(validator.iter_errors(value))
        except (jsonschema.exceptions._WrappedReferencingError, RecursionError):
            return []  # an unresolvable $ref or a runaway schema: nothing reliable to say
        found = []
        for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
            best = jsonschema.exceptions.best_match([error])
            found.append((tuple(best.absolute_path), tuple(best.absolute_schema_path)[:-1], _describe(best)))
        return found

    return check


def _describe(error) -> str:
    message = error.message
    if message.startswith(repr(error.instance)):
        message = show(error.instance) + message[len(repr(error.instance)):]
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"{message} (at structuredContent{where})" if where else message
