"""A tool's human-facing texts (name, title, description, annotations.title, parameter titles and
descriptions): with their pointers, joined for the text rules' pre-checks, and the non-ASCII ones.
The parameters are those ``manifest``'s walk visits, in the same order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from mcplint.document.manifest import MAX_SCHEMA_DEPTH, _BELOW, _below, _new, _schema_properties
from mcplint.document.pointer import Pointer

if TYPE_CHECKING:
    from mcplint.document.manifest import Manifest


def tool_texts(ptr: Pointer, tool: dict, parameters=None) -> Iterator[tuple[Pointer, str, str]]:
    """Human-facing strings of a tool: (pointer, what it is, text). Covers the name,
    title, description, annotations.title, and parameter titles and descriptions.
    ``parameters`` is the inputSchema's schema_properties, when already walked."""
    return iter(_tool_texts(ptr, tool, parameters))


def joined_texts(doc: Manifest, ptr: Pointer, tool: dict) -> str:
    """The texts of ``doc.texts(ptr, tool)`` joined with newlines, computed once per
    document without building their pointers: the text rules pre-check a tool with it
    and walk ``texts`` only when the tool may have a finding."""
    key = ("joined-texts", id(tool))
    found = doc._cache.get(key)
    if found is None:
        found = doc._cache[key] = "\n".join(_tool_strings(tool))
    return found


def _tool_strings(tool: dict) -> list[str]:
    """The texts ``_tool_texts`` lists, in the same order, alone."""
    strings = [value for value in (tool.get("name"), tool.get("title"), tool.get("description"))
               if isinstance(value, str)]
    annotations = tool.get("annotations")
    if isinstance(annotations, dict) and isinstance(annotations.get("title"), str):
        strings.append(annotations["title"])
    _property_strings(tool.get("inputSchema"), 0, strings)
    _property_strings(tool.get("outputSchema"), 0, strings)
    return strings


def _property_strings(schema: Any, depth: int, strings: list) -> None:
    """Titles and descriptions of the properties ``_schema_properties`` visits, in order."""
    if not isinstance(schema, dict) or depth > MAX_SCHEMA_DEPTH:
        return
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for sub in properties.values():
            if isinstance(sub, dict):
                title = sub.get("title")
                if isinstance(title, str):
                    strings.append(title)
                description = sub.get("description")
                if isinstance(description, str):
                    strings.append(description)
                if not _BELOW.isdisjoint(sub):
                    _property_strings(sub, depth + 1, strings)
    for _, below in _below(schema, depth):
        _property_strings(below, depth + 1, strings)


def non_ascii_texts(doc: Manifest, ptr: Pointer, tool: dict) -> list[tuple[Pointer, str, str]]:
    """The texts of ``doc.texts(ptr, tool)`` that are not ASCII, in order; the parameters'
    pointers are made only when one of their texts is not ASCII (most tools: none). Once
    per tool for all the text rules."""
    key = ("non-ascii-texts", id(tool))
    found = doc._cache.get(key)
    if found is None:
        head = _top_texts(ptr, tool)
        texts = doc._cache.get("text-census")  # it knows the tools with such parameter texts
        if (id(tool) not in texts.odd_parameters) if texts is not None else \
                all(text.isascii() for text in _tool_strings(tool)[len(head):]):  # (the same texts, in order)
            found = [entry for entry in head if not entry[2].isascii()]
        else:
            found = [entry for entry in doc.texts(ptr, tool) if not entry[2].isascii()]
        doc._cache[key] = found
    return found


def _top_texts(ptr: Pointer, tool: dict) -> list[tuple[Pointer, str, str]]:
    """The texts of the tool object itself: name, title, description, annotations.title."""
    texts = []
    for field in ("name", "title", "description"):
        value = tool.get(field)
        if isinstance(value, str):
            texts.append((_new(Pointer, (*ptr, field)), field, value))
    annotations = tool.get("annotations")
    if isinstance(annotations, dict) and isinstance(annotations.get("title"), str):
        texts.append((_new(Pointer, (*ptr, "annotations", "title")), "annotations.title", annotations["title"]))
    return texts


def _tool_texts(ptr: Pointer, tool: dict, parameters) -> list[tuple[Pointer, str, str]]:
    texts = _top_texts(ptr, tool)
    for schema_field in ("inputSchema", "outputSchema"):
        if schema_field == "inputSchema" and parameters is not None:
            walked = parameters
        elif isinstance(tool.get(schema_field), dict):
            walked = []
            _schema_properties(tool[schema_field], _new(Pointer, (*ptr, schema_field)), 0, walked)
        else:
            continue
        for prop_ptr, prop_name, prop in walked:
            if isinstance(prop, dict):
                for field in ("title", "description"):
                    value = prop.get(field)
                    if isinstance(value, str):
                        texts.append((_new(Pointer, (*prop_ptr, field)), f"parameter '{prop_name}' {field}", value))
    return texts
