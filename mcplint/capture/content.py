"""mcplint's model of what servers put in results: content blocks, resource contents,
CallToolResult, GetPromptResult and ReadResourceResult, per protocol version.

Written from the `ContentBlock` union (TextContent, ImageContent, AudioContent,
ResourceLink, EmbeddedResource), `TextResourceContents`/`BlobResourceContents`,
`Annotations`, `PromptMessage` and the result types of each version's schema.json
(spec-requirements.md §3.7, §3.8). The content rules (MCP720-MCP734) each ask one
question of this model; tests/test_traffic_oracle.py checks that the model and the
official JSON Schemas judge the same messages the same way.

Every check returns problems as ``(path, message)``: ``path`` is a tuple of tokens
relative to the object checked, ``message`` one sentence saying what to do.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

from mcplint import versions
from mcplint.capture.records import CLIENT
from mcplint.capture.content_meta import (  # noqa: F401 (part of this model; rules import them from here)
    LAST_MODIFIED_SINCE, META_SINCE, ROLES, annotation_problems, last_modified_problem, meta_problems)
from mcplint.document.pointer import Pointer
from mcplint.fast_json import fast_loads
from mcplint.tool_fields import json_type, show
from mcplint.versions import V2024_11_05, V2025_03_26, V2025_06_18, V2025_11_25

Problem = tuple[tuple, str]

# Block type -> the first version whose ContentBlock union has it.
BLOCK_TYPES: dict[str, str] = {
    "text": V2024_11_05, "image": V2024_11_05, "audio": V2025_03_26,
    "resource_link": V2025_06_18, "resource": V2024_11_05,
}
CONTENT_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})
_new = tuple.__new__  # Pointer(...) without its Python-level __new__


def block_types(version: str) -> list[str]:
    return [name for name, since in BLOCK_TYPES.items() if version >= since]


# -- where content sits in a result --------------------------------------------------------

def final_result(exchange) -> dict | None:
    """The result a server gave to a client's tools/call, prompts/get or resources/read,
    when it is a final one (not a 2026-07-28 `input_required` or task result)."""
    if exchange.method not in CONTENT_METHODS or exchange.request.sender != CLIENT:
        return None
    result = exchange.response.result
    if result is None:
        return None
    kind = result.get("resultType", "complete")
    return result if kind == "complete" else None


def blocks(exchange, result: dict) -> list[tuple[Pointer, Any]]:
    """(pointer, block) for each content block: tools/call `content[i]`, prompts/get
    `messages[i].content` (a list built at once: every tools/call result is walked)."""
    method = exchange.method
    if method == "tools/call":
        content = result.get("content")
        if isinstance(content, list):
            base = (*exchange.response.ptr, "result", "content")
            return [(_new(Pointer, (*base, i)), block) for i, block in enumerate(content)]
    elif method == "prompts/get":
        messages = result.get("messages")
        if isinstance(messages, list):
            base = (*exchange.response.ptr, "result", "messages")
            return [(_new(Pointer, (*base, i, "content")), message["content"]) for i, message in enumerate(messages)
                    if isinstance(message, dict) and "content" in message]
    return []


def resource_contents(exchange, result: dict) -> Iterator[tuple[Pointer, dict]]:
    """(pointer, contents) for each TextResourceContents/BlobResourceContents object:
    resources/read `contents[i]` and the `resource` of embedded resource blocks."""
    if exchange.method == "resources/read":
        contents = result.get("contents")
        if isinstance(contents, list):
            base = exchange.response.ptr / "result" / "contents"
            for i, item in enumerate(contents):
                if isinstance(item, dict):
                    yield base / i, item
        return
    for ptr, block in blocks(exchange, result):
        if isinstance(block, dict) and block.get("type") == "resource" and isinstance(block.get("resource"), dict):
            yield ptr / "resource", block["resource"]


def typed_blocks(exchange, result: dict, version: str) -> Iterator[tuple[Pointer, dict, str]]:
    """(pointer, block, type) for the blocks whose type this version defines."""
    for ptr, block in blocks(exchange, result):
        if isinstance(block, dict):
            kind = block.get("type")
            if isinstance(kind, str) and BLOCK_TYPES.get(kind, "9999") <= version:
                yield ptr, block, kind


class Walk:
    """One final result, walked once and shared by every content rule (their hooks run one
    after another on the same exchange)."""

    __slots__ = ("exchange", "result", "blocks", "typed", "contents", "plain")

    def __init__(self, exchange, result: dict, version: str) -> None:
        self.exchange, self.result = exchange, result
        self.blocks = blocks(exchange, result)
        self.typed, self.contents, plain = [], [], True
        for ptr, block in self.blocks:
            if type(block) is not dict:
                plain = False
                continue
            kind = block.get("type")
            # Only {"type": "text", "text": "..."} blocks: nothing for most content rules to check.
            plain = plain and kind == "text" and len(block) == 2 and type(block.get("text")) is str
            if kind == "text" or (isinstance(kind, str) and BLOCK_TYPES.get(kind, "9999") <= version):
                self.typed.append((ptr, block, kind))
                if kind == "resource" and isinstance(block.get("resource"), dict):
                    self.contents.append((ptr / "resource", block["resource"]))
        if exchange.method == "resources/read":
            self.contents = list(resource_contents(exchange, result))
        self.plain = plain and not self.contents


_last: list = [None, None, None]  # exchange, version, Walk (or None): a one-entry cache


def walk(exchange, version: str) -> Walk | None:
    """The shared walk of a final tools/call, prompts/get or resources/read result, or None."""
    if _last[0] is exchange and _last[1] == version:
        return _last[2]
    result = final_result(exchange)
    found = Walk(exchange, result, version) if result is not None else None
    _last[:] = [exchange, version, found]
    return found


# -- result shapes (CallToolResult, GetPromptResult, ReadResourceResult) --------------------

def result_shape_problems(method: str, result: dict) -> list[Problem]:
    problems = _result_members(method, result)
    if "_meta" in result and not isinstance(result["_meta"], dict):
        problems.append((("_meta",), f"The result's _meta must be an object, not {json_type(result['_meta'])}"))
    return problems


def _result_members(method: str, result: dict) -> list[Problem]:
    if method == "tools/call":
        problems = _list_member(result, "content", "a tools/call result", "content blocks (it may be empty)")
        if "isError" in result and not isinstance(result["isError"], bool):
            problems.append((("isError",), f"isError must be true or false, not {show(result['isError'])}"))
        return problems
    if method == "prompts/get":
        problems = _list_member(result, "messages", "a prompts/get result", "prompt messages")
        for i, message in enumerate(result.get("messages") or []):
            if not isinstance(message, dict):
                problems.append((("messages", i), "A prompt message must be an object with role and content"))
                continue
            if message.get("role") not in ROLES:
                problems.append((("messages", i, "role") if "role" in message else ("messages", i),
                                 f"A prompt message's role must be \"user\" or \"assistant\", not "
                                 f"{show(message['role']) if 'role' in message else 'missing'}"))
            if "content" not in message:
                problems.append((("messages", i), "A prompt message needs a content block in 'content'"))
        return problems
    return _list_member(result, "contents", "a resources/read result", "resource contents")


def _list_member(result: dict, key: str, what: str, holding: str) -> list[Problem]:
    if key not in result:
        return [((), f"{what[0].upper()}{what[1:]} must have '{key}', an array of {holding}")]
    if not isinstance(result[key], list):
        return [((key,), f"'{key}' must be an array of {holding}, not {json_type(result[key])}")]
    return []


def structured_content_problem(value: Any, version: str) -> str | None:
    """2025-06-18 and 2025-11-25 define structuredContent as a JSON object; 2026-07-28
    allows any JSON value."""
    if versions.is_stateless(version) or version < V2025_06_18 or isinstance(value, dict):
        return None
    return (f"structuredContent must be a JSON object in {version}, not {json_type(value)}; "
            "wrap the value, e.g. {\"result\": ...}")


# -- block type ------------------------------------------------------------------------------

def type_problem(block: Any, version: str) -> Problem | None:
    allowed = ", ".join(block_types(version))
    if not isinstance(block, dict):
        return (), f"A content block must be an object with a 'type' ({allowed}), not {json_type(block)}"
    if "type" not in block:
        return (), f"Content block has no 'type'; set one of {allowed}"
    kind = block["type"]
    if not isinstance(kind, str):
        return ("type",), f"Content block 'type' must be a string ({allowed}), not {show(kind)}"
    since = BLOCK_TYPES.get(kind)
    if since is None:
        return ("type",), f"{show(kind)} is not a content block type; use one of {allowed}"
    if since > version:
        return ("type",), (f"'{kind}' content blocks exist from {since} on, not in {version}; "
                           f"use one of {allowed} or negotiate a newer version")
    return None


# -- required fields and member types ----------------------------------------------------------

_BLOCK_FIELDS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    # type -> (member, JSON type, required)
    "text": (("text", "string", True),),
    "image": (("data", "string", True), ("mimeType", "string", True)),
    "audio": (("data", "string", True), ("mimeType", "string", True)),
    "resource_link": (("uri", "string", True), ("name", "string", True), ("title", "string", False),
                      ("description", "string", False), ("mimeType", "string", False),
                      ("size", "integer", False)),
    "resource": (),
}


def field_problems(block: dict, kind: str, version: str) -> list[Problem]:
    """Missing required members and members of the wrong JSON type in a block of a type
    the version defines (the type itself is type_problem's business)."""
    problems = [p for p in (_member(block, *spec) for spec in _BLOCK_FIELDS[kind]) if p]
    if kind == "resource_link" and version >= V2025_11_25 and "icons" in block and not isinstance(block["icons"], list):
        problems.append((("icons",), f"'icons' must be an array of icons, not {json_type(block['icons'])}"))
    if kind == "resource" and not confusion(block):
        if "resource" not in block:
            problems.append(((), "An embedded resource block needs 'resource': {uri, text} or {uri, blob}"))
        elif not isinstance(block["resource"], dict):
            problems.append((("resource",), f"'resource' must be an object {{uri, text}} or {{uri, blob}}, "
                             f"not {json_type(block['resource'])}"))
    problems.extend(_meta_type(block, version))
    return problems


def contents_problems(contents: dict, version: str) -> list[Problem]:
    """TextResourceContents / BlobResourceContents: a string `uri` and a string `text` or
    `blob` (the schema's anyOf: either branch may match)."""
    problems = [p for p in (_member(contents, "uri", "string", True), _member(contents, "mimeType", "string", False)) if p]
    if not isinstance(contents.get("text"), str) and not isinstance(contents.get("blob"), str):
        present = [k for k in ("text", "blob") if k in contents]
        if present:
            problems.append(((present[0],), f"'{present[0]}' must be a string, not {json_type(contents[present[0]])}"))
        else:
            problems.append(((), "Resource contents need 'text' (a string) or 'blob' (base64)"))
    problems.extend(_meta_type(contents, version))
    return problems


def _member(obj: dict, key: str, kind: str, required: bool) -> Problem | None:
    if key not in obj:
        if not required:
            return None
        kind_of = obj.get("type")
        owner = (f"{'An' if kind_of[:1] in 'aeiou' else 'A'} '{kind_of}' block needs" if isinstance(kind_of, str)
                 else "Resource contents need")
        return (), f"{owner} '{key}' (a{'n' if kind[0] in 'aeiou' else ''} {kind})"
    value = obj[key]
    if json_type(value) == kind or (kind == "integer" and isinstance(value, float) and value.is_integer()):
        return None
    return (key,), f"'{key}' must be a{'n' if kind[0] in 'aeiou' else ''} {kind}, not {show(value)}"


def _meta_type(obj: dict, version: str) -> list[Problem]:
    if version >= META_SINCE and "_meta" in obj and not isinstance(obj["_meta"], dict):
        return [(("_meta",), f"'_meta' must be an object, not {json_type(obj['_meta'])}")]
    return []


def confusion(block: dict) -> Problem | None:
    """A `resource` block written like a resource_link, or the other way round."""
    kind = block.get("type")
    if kind == "resource" and "resource" not in block and any(k in block for k in ("uri", "text", "blob")):
        return (), ("A 'resource' block embeds its contents under 'resource' ({uri, text} or {uri, blob}); "
                    "to point at a resource without its contents use a 'resource_link' block")
    if kind == "resource_link" and "uri" not in block and isinstance(block.get("resource"), dict):
        return ("resource",), ("A 'resource_link' block carries 'uri' and 'name' itself; to embed the "
                               "resource's contents use a 'resource' block")
    return None


# -- double-encoded content and structured-content mirroring ----------------------------------

def double_encoded(text: str) -> int:
    """How many content blocks a text holds when it is a JSON-stringified array of content
    blocks (or a stringified CallToolResult), else 0."""
    head = text[:64].lstrip()
    if not head.startswith(("[", "{")) or '"type"' not in text:
        return 0
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return 0
    if isinstance(value, dict) and isinstance(value.get("content"), list):
        value = value["content"]
    if not isinstance(value, list) or not value:
        return 0
    for item in value:
        if not (isinstance(item, dict) and isinstance(item.get("type"), str) and item["type"] in BLOCK_TYPES
                and _looks_like_block(item)):
            return 0
    return len(value)


def _looks_like_block(item: dict) -> bool:
    kind = item["type"]
    needed = {"text": ("text",), "image": ("data",), "audio": ("data",), "resource": ("resource",),
              "resource_link": ("uri",)}[kind]
    return all(key in item for key in needed)


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but true is not 1."""
    kind = type(a)
    if kind is type(b):  # the common case, first: loops, not generators (a result's every value)
        if kind is dict:
            if a.keys() != b.keys():
                return False
            for key in a:
                if not json_equal(a[key], b[key]):
                    return False
            return True
        if kind is list:
            if len(a) != len(b):
                return False
            for x, y in zip(a, b):
                if not json_equal(x, y):
                    return False
            return True
        if kind is str or kind is int or kind is float or kind is bool or a is None:
            return a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def parsed_text(text: str) -> tuple[bool, Any]:
    """(True, value) when a text block is a JSON document, else (False, None)."""
    try:
        return True, fast_loads(text)
    except ValueError:
        pass
    try:
        return True, json.loads(text)
    except (ValueError, RecursionError):
        return False, None


def at(ptr: Pointer, path: tuple) -> Pointer:
    """``ptr`` extended by a problem's relative path."""
    return Pointer((*ptr, *path)) if path else ptr
