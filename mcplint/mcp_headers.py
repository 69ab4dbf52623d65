"""`x-mcp-header` annotations in tool input schemas (2026-07-28, server/tools "x-mcp-header";
Streamable HTTP "Custom Headers from Tool Parameters"), found once per document for the
rules MCP332-MCP334.

Only schema positions are walked (the JSON Schema 2020-12 applicators, and draft-07's
`definitions`/`dependencies`): an `x-mcp-header` inside `default`, `examples`, `const` or
`enum` is instance data, not an annotation. `$ref` is never followed, so the walk ends on
any input; it is bounded in depth and size like the other schema walks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcplint.document.pointer import Pointer
from mcplint.regex_cache import regex

KEY = "x-mcp-header"
PRIMITIVE = frozenset({"string", "integer", "boolean"})
TOKEN = regex(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # RFC 9110 section 5.6.2: 1*tchar
MAX_DEPTH = 64
MAX_NODES = 20_000

_SINGLE = frozenset({"items", "contains", "additionalProperties", "unevaluatedProperties", "unevaluatedItems",
                     "propertyNames", "not", "if", "then", "else", "contentSchema", "additionalItems"})
_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})
_MAP = frozenset({"patternProperties", "dependentSchemas", "$defs", "definitions", "dependencies"})


@dataclass(frozen=True, slots=True)
class Annotation:
    path: tuple  # from the inputSchema to the annotated schema
    via: str | None  # the first keyword other than `properties` on the way there (None: none)
    value: Any  # the annotation's value, as written
    schema: dict  # the annotated (property) schema

    @property
    def reachable(self) -> bool:
        """A property reached from the root through `properties` keys alone."""
        return self.via is None and bool(self.path)


def annotations(schema: Any) -> list[Annotation]:
    """Every `x-mcp-header` at a schema position of ``schema``, in document order."""
    found: list[Annotation] = []
    stack: list[tuple[tuple, str | None, Any]] = [((), None, schema)]
    nodes = 0
    while stack and nodes < MAX_NODES:
        path, via, node = stack.pop()
        if type(node) is not dict or len(path) > 2 * MAX_DEPTH:
            continue
        nodes += 1
        if KEY in node:
            found.append(Annotation(path, via, node[KEY], node))
        children: list[tuple[tuple, str | None, Any]] = []
        for key, value in node.items():
            if key == "properties" and type(value) is dict:
                children.extend(((*path, key, name), via, sub) for name, sub in value.items())
            elif key in _LIST and type(value) is list:
                children.extend(((*path, key, index), via or key, sub) for index, sub in enumerate(value))
            elif key in _SINGLE:
                children.append(((*path, key), via or key, value))
            elif key in _MAP and type(value) is dict:
                children.extend(((*path, key, name), via or key, sub) for name, sub in value.items())
        stack.extend(reversed(children))
    return found


def tool_annotations(doc) -> list[tuple[Pointer, list[Annotation]]]:
    """(pointer of the inputSchema, its annotations) for each tool that has any, once per document."""

    def build():
        entries = []
        text = getattr(getattr(doc, "document", None), "text", None)
        if isinstance(text, str) and KEY not in text and "\\" not in text:
            return entries  # no annotation can be written without its name or an escape: skip the walk
        for ptr, tool in doc.tools():
            schema = tool.get("inputSchema") if isinstance(tool, dict) else None
            if isinstance(schema, dict):
                found = annotations(schema)
                if found:
                    entries.append((ptr / "inputSchema", found))
        return entries

    return doc.memo("x-mcp-header", build)


def at(schema_ptr: Pointer, annotation: Annotation, *more) -> Pointer:
    return Pointer((*schema_ptr, *annotation.path, *more))


def where(annotation: Annotation) -> str:
    """How the annotated schema is reached, for messages: "'region'", "'filter' > 'region'"."""
    if annotation.reachable:
        names = [str(token) for index, token in enumerate(annotation.path) if index % 2 == 1]
        return "property " + " > ".join(repr(name[:40]) for name in names[-3:])
    return f"a schema under '{annotation.via}'" if annotation.path else "the schema root"
