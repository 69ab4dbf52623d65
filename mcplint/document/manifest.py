"""Typed view of a manifest: which shape it has and where its tools, prompts, resources and
resource templates are."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from mcplint.document import listing
from mcplint.document.census import Census
from mcplint.document.loader import Document
from mcplint.document.pointer import Pointer

EXPECTED = (
    "expected a tools/list result ({\"tools\": [...]}), a prompts/list, resources/list or "
    "resources/templates/list result ({\"prompts\": [...]}, {\"resources\": [...]}, {\"resourceTemplates\": [...]}), "
    "a JSON-RPC response wrapping one, a server listing combining them, an array of tools, or a single tool object"
)


@dataclass
class Manifest:
    document: Document
    shape: str  # "result" | "response" | "array" | "tool" | "listing" (several lists in one object)
    tools_pointer: Pointer  # the tools array (where it would be, when absent); for shape "tool", the tool itself
    # The list members present (tools, prompts, resources, resourceTemplates) -> their pointers;
    # for "result"/"response" built without it, the tools array alone; empty for "array"/"tool".
    lists: dict[str, Pointer] | None = None
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    kind = "manifest"

    def __post_init__(self) -> None:
        if self.lists is None:
            self.lists = {"tools": self.tools_pointer} if self.shape in ("result", "response") else {}

    def memo(self, key, build):
        """A value computed once per document and shared by every rule (``build()`` makes it)."""
        try:
            return self._cache[key]
        except KeyError:
            value = self._cache[key] = build()
            return value

    def memoized(self, key):
        """What ``memo`` computed for ``key`` so far, or None."""
        return self._cache.get(key)

    def texts(self, ptr: Pointer, tool: dict) -> list[tuple[Pointer, str, str]]:
        """``tool_texts`` of one tool, walked once per document for all rules."""
        key = ("texts", id(tool))
        found = self._cache.get(key)  # no memo(): a closure per call costs more than the walk
        if found is None:
            from mcplint.document.tool_texts import _tool_texts

            found = self._cache[key] = _tool_texts(ptr, tool, self.parameters(ptr, tool))
        return found

    def parameters(self, ptr: Pointer, tool: dict) -> list[tuple[Pointer, str, object]]:
        """``schema_properties`` of the tool's inputSchema, walked once per document."""
        key = ("parameters", id(tool))
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = []
            _schema_properties(tool.get("inputSchema"), _new(Pointer, (*ptr, "inputSchema")), 0, found)
        return found

    @property
    def path(self) -> str:
        return self.document.path

    @property
    def method(self) -> str | None:
        """The list method whose result the document is (shapes "result" and "response")."""
        if self.shape in ("result", "response") and len(self.lists) == 1:
            return listing.METHODS[next(iter(self.lists))]
        return None

    @property
    def result(self) -> tuple[Pointer, dict] | None:
        """The tools/list result object, for the shapes that have one (not for the results
        of the other list methods, nor a combined listing)."""
        if self.method != "tools/list":
            return None
        if self.shape == "result":
            return Pointer(), self.document.data
        return Pointer(("result",)), self.document.data["result"]

    def tools(self) -> list[tuple[Pointer, Any]]:
        """Every entry of the tools array (dicts or not), with its pointer."""
        found = self._cache.get("tools")
        if found is None:
            found = self._cache["tools"] = self._list_tools()
        return found

    def _list_tools(self) -> list[tuple[Pointer, Any]]:
        if self.shape == "tool":
            return [(self.tools_pointer, self.document.data)]
        if self.shape != "array" and "tools" not in self.lists:
            return []
        tools = self.value_at(self.tools_pointer)
        if not isinstance(tools, list):
            return []
        base = tuple(self.tools_pointer)
        return [(_new(Pointer, (*base, index)), tool) for index, tool in enumerate(tools)]

    def tool_objects(self) -> list[tuple[Pointer, dict]]:
        """The entries of the tools array that are objects, listed once for all rules."""
        found = self._cache.get("tool-objects")
        if found is None:
            found = self._cache["tool-objects"] = [(p, t) for p, t in self.tools() if isinstance(t, dict)]
        return found

    def census(self) -> "Census":
        """What fields and annotations the tool objects hold (``census.Census``), once per document."""
        found = self._cache.get("census")
        if found is None:
            found = self._cache["census"] = Census(self.tool_objects())
        return found

    def prompts(self) -> list[tuple[Pointer, Any]]:
        """Every entry of the prompts array (dicts or not), with its pointer."""
        return self.entries("prompts")

    def resources(self) -> list[tuple[Pointer, Any]]:
        """Every entry of the resources array (dicts or not), with its pointer."""
        return self.entries("resources")

    def resource_templates(self) -> list[tuple[Pointer, Any]]:
        """Every entry of the resourceTemplates array (dicts or not), with its pointer."""
        return self.entries("resourceTemplates")

    def entries(self, member: str) -> list[tuple[Pointer, Any]]:
        """Every entry of the list ``member`` (prompts, resources, resourceTemplates)."""
        ptr = self.lists.get(member)
        if ptr is None:
            return []
        return self.memo(("entries", member), lambda: listing.entries(self.list_value(member), ptr))

    def list_value(self, member: str) -> Any:
        """The value of the list member (None when the document lacks it, as a capture's
        list result may)."""
        ptr = self.lists.get(member)
        if ptr is None or ptr[-1] not in self.value_at(ptr.parent):
            return None
        return self.value_at(ptr)

    def listing_texts(self) -> list[tuple[Pointer, str, str]]:
        """Human-facing strings of every prompt, resource and resource template:
        (pointer, what it is, text), as ``texts`` gives them for a tool."""
        if len(self.lists) == 1 and "tools" in self.lists or not self.lists:  # most documents: tools only
            return []
        return self.memo("listing-texts", lambda: listing.texts(self))

    def value_at(self, ptr: Pointer) -> Any:
        value = self.document.data
        for token in ptr:
            value = value[int(token) if isinstance(value, list) else token]
        return value

    def tool_name_at(self, ptr: Pointer) -> str | None:
        """Name of the tool that ``ptr`` points into, if any."""
        depth = len(self.tools_pointer) + (0 if self.shape == "tool" else 1)
        if len(ptr) < depth or not ptr.startswith(self.tools_pointer):
            return None
        try:
            tool = self.value_at(Pointer(ptr[:depth]))
        except (KeyError, IndexError, TypeError, ValueError):
            return None
        name = tool.get("name") if isinstance(tool, dict) else None
        return name if isinstance(name, str) else None

    def entry_name_at(self, ptr: Pointer) -> str | None:
        """Name of the prompt, resource or resource template that ``ptr`` points into, if any
        (its array index sits where a tool's does: see ``fingerprints.logical_pointer``)."""
        for member, list_ptr in self.lists.items():
            if member != "tools" and len(ptr) > len(list_ptr) and ptr.startswith(list_ptr):
                try:
                    entry = self.value_at(Pointer(ptr[: len(list_ptr) + 1]))
                except (KeyError, IndexError, TypeError, ValueError):
                    return None
                name = entry.get("name") if isinstance(entry, dict) else None
                return name if isinstance(name, str) else None
        return None


def classify(document: Document) -> Manifest | None:
    """Recognise a manifest by its shape; None when it is not one."""
    data = document.data
    if isinstance(data, dict):
        if _is_mcpb(data):
            return None
        found = listing.members(data)
        if found:
            return _listing(document, Pointer(), found)
        result = data.get("result")
        if "jsonrpc" in data and isinstance(result, dict):
            found = listing.members(result)
            if found:
                return _listing(document, Pointer(("result",)), found)
        if "name" in data and "inputSchema" in data:
            return Manifest(document, "tool", Pointer())
        return None
    if isinstance(data, list) and data and all(
        isinstance(item, dict) and ("name" in item or "inputSchema" in item) for item in data
    ) and any(not _TOOL_KEYS.isdisjoint(item) for item in data):
        return Manifest(document, "array", Pointer())
    return None


# An array of named objects is a tool array only if some item has a key only tools have: a table
# of languages ({"id", "name", "exts"}, semgrep's lang.json) or of anything else named is not.
_TOOL_KEYS = frozenset({"inputSchema", "description", "outputSchema", "annotations", "title"})


def _is_mcpb(data: dict) -> bool:
    """An MCP Bundle (Desktop Extension) manifest.json: it declares its tools by name and
    description only, by design; a listing comes from the server it starts."""
    return "manifest_version" in data and isinstance(data.get("server"), dict)


def _listing(document: Document, base: Pointer, found: list[str]) -> Manifest:
    """A list result (``base`` empty), a JSON-RPC response wrapping one (``base`` /result), or
    a server listing holding several lists; a tools/list result is built as it always was."""
    tools_pointer = base / "tools"
    if found == ["tools"]:
        return Manifest(document, "response" if base else "result", tools_pointer)
    shape = "listing" if len(found) > 1 else "response" if base else "result"
    return Manifest(document, shape, tools_pointer, {member: base / member for member in found})


def describe(data: Any) -> str:
    """A short description of what a non-manifest document holds, for error messages."""
    if isinstance(data, dict) and _is_mcpb(data):
        return "an MCP Bundle (Desktop Extension) manifest, not a listing: lint its server's tools/list"
    if isinstance(data, dict):
        keys = ", ".join(repr(k) for k in list(data)[:5])
        more = ", ..." if len(data) > 5 else ""
        return f"an object with keys {keys}{more}" if data else "an empty object"
    if isinstance(data, list):
        return "an empty array" if not data else "an array whose items are not tool objects"
    return f"a {type(data).__name__} value" if data is not None else "null"


# -- walking what tools contain ---------------------------------------------------

MAX_SCHEMA_DEPTH = 64


# A Pointer built in one step (what ``Pointer.__truediv__`` does), for the hot walks below.
_new = tuple.__new__


def schema_properties(schema: Any, ptr: Pointer, depth: int = 0) -> Iterator[tuple[Pointer, str, Any]]:
    """Every property schema under ``properties`` (recursing into nested objects and
    array ``items``): yields (pointer to the property schema, property name, schema)."""
    found: list[tuple[Pointer, str, Any]] = []
    _schema_properties(schema, ptr, depth, found)
    return iter(found)


BRANCHES = ("anyOf", "oneOf", "allOf")
_BELOW = frozenset(("properties", "items", *BRANCHES))  # a schema without these has no parameters below
MAX_BRANCHES = 100


def _below(schema: dict, depth: int) -> list[tuple[tuple, dict]]:
    """(steps, schema) of what holds more parameters besides ``properties``: ``items``, and the
    objects a parameter's value may be (desktop-commander's write_pdf.content); not the root's
    branches, which restate its parameters for each variant. The three walks below share it."""
    found = []
    items = schema.get("items")
    if isinstance(items, dict):
        found.append((("items",), items))
    if depth:
        for key in BRANCHES:
            branches = schema.get(key)
            if isinstance(branches, list):
                found += [((key, i), branch) for i, branch in enumerate(branches[:MAX_BRANCHES])
                          if isinstance(branch, dict) and not _BELOW.isdisjoint(branch)]
    return found


def _schema_properties(schema: Any, ptr: Pointer, depth: int, found: list) -> None:
    """``schema_properties``, appended to ``found`` (a list, not nested generators: faster)."""
    if not isinstance(schema, dict) or depth > MAX_SCHEMA_DEPTH:
        return
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            sub_ptr = _new(Pointer, (*ptr, "properties", name))
            found.append((sub_ptr, name, sub))
            if isinstance(sub, dict) and not _BELOW.isdisjoint(sub):  # else nothing below
                _schema_properties(sub, sub_ptr, depth + 1, found)
    for step, below in _below(schema, depth):
        _schema_properties(below, _new(Pointer, (*ptr, *step)), depth + 1, found)


def property_schemas(schema: Any) -> list[tuple[str, Any]]:
    """(property name, schema) of what ``schema_properties`` yields, in the same order,
    without building pointers: for checks that need a pointer only for a finding."""
    found: list[tuple[str, Any]] = []
    _property_schemas(schema, 0, found)
    return found


def _property_schemas(schema: Any, depth: int, found: list) -> None:
    """``_schema_properties`` without the pointers."""
    if not isinstance(schema, dict) or depth > MAX_SCHEMA_DEPTH:
        return
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            found.append((name, sub))
            if isinstance(sub, dict) and not _BELOW.isdisjoint(sub):
                _property_schemas(sub, depth + 1, found)
    for _, below in _below(schema, depth):
        _property_schemas(below, depth + 1, found)
