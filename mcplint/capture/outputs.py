"""What a tools/call answer shows a person or a model: the strings worth scanning
for escape sequences, injection phrasing, secrets and stack traces.

``output_texts(message)`` walks the text of content blocks (and of embedded text
resources), every string inside `structuredContent`, and the JSON-RPC error's
message and string data. Binary payloads (image/audio `data`, resource `blob`),
URIs and MIME types are not text anyone reads and are skipped.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from mcplint.document.pointer import Pointer
from mcplint.regex_cache import regex

MAX_STRINGS = 2000  # strings taken from one structuredContent or error data (a huge array is sampled)
MAX_DEPTH = 32
_BLOCKS = tuple(f"content block {i + 1}" for i in range(32))
_new = tuple.__new__  # Pointer(...) without its Python-level __new__


_last: list = [None, ()]  # the latest response walked, and its texts: four rules read the same one


def output_texts(message) -> tuple[tuple[Pointer, str, str], ...]:
    """(pointer, what, text) for each human/model-facing string of a tools/call response,
    each text once (structuredContent often repeats the text block: it is scanned once)."""
    if _last[0] is message:
        return _last[1]
    found: list = []
    seen: set[str] = set()
    result = message.result
    base = message.ptr
    if result is not None:
        content = result.get("content")
        if isinstance(content, list):
            for i, block in enumerate(content):
                if not isinstance(block, dict):
                    continue
                text = block.get("text")
                what = _BLOCKS[i] if i < len(_BLOCKS) else f"content block {i + 1}"
                if isinstance(text, str) and text not in seen:
                    seen.add(text)
                    found.append((_new(Pointer, (*base, "result", "content", i, "text")), what, text))
                resource = block.get("resource")
                if isinstance(resource, dict):
                    text = resource.get("text")
                    if isinstance(text, str) and text not in seen:
                        seen.add(text)
                        found.append((_new(Pointer, (*base, "result", "content", i, "resource", "text")),
                                      f"embedded resource in {what}", text))
        if "structuredContent" in result:
            structured = result["structuredContent"]
            at = _new(Pointer, (*base, "result", "structuredContent"))
            if not _flat_strings(structured, at, found, seen):
                _add_new(found, seen, _strings(structured, at, "structuredContent"))
    elif message.error is not None:
        error = message.error
        if isinstance(error.get("message"), str) and error["message"] not in seen:
            seen.add(error["message"])
            found.append((_new(Pointer, (*base, "error", "message")), "error message", error["message"]))
        if "data" in error:
            _add_new(found, seen, _strings(error["data"], base / "error" / "data", "error data"))
    texts = tuple(found)
    _last[0], _last[1] = message, texts
    return texts


def _flat_strings(value: Any, at: Pointer, found: list, seen: set) -> bool:
    """``_strings`` of one flat object (most structuredContent: no object or array inside)
    added to ``found``, without the walk; False, adding nothing, for any other value."""
    if type(value) is not dict or len(value) > MAX_STRINGS:
        return False
    strings = []
    for key, item in value.items():
        kind = type(item)
        if kind is str:
            strings.append((key, item))
        elif kind is dict or kind is list:
            return False
    for key, item in strings:
        if item not in seen:
            seen.add(item)
            found.append((_new(Pointer, (*at, key)), f"structuredContent string at /{key}", item))
    return True


def _add_new(found: list, seen: set, items) -> None:
    for item in items:
        if item[2] not in seen:
            seen.add(item[2])
            found.append(item)


def is_error_output(message) -> bool:
    """A JSON-RPC error or a result with `isError: true`."""
    result = message.result
    return message.error is not None or (result is not None and result.get("isError") is True)


def strings_in(value: Any, ptr: Pointer, what: str) -> Iterator[tuple[Pointer, str, str]]:
    """(pointer, description, text) for the strings anywhere in ``value`` (bounded like outputs)."""
    return _strings(value, ptr, what)


def _strings(value: Any, ptr: Pointer, what: str) -> Iterator[tuple[Pointer, str, str]]:
    # Depth first, in document order; a node's pointer is built only when it is a string or
    # a container (a million numbers cost no pointers).
    budget = MAX_STRINGS
    base = len(ptr)
    stack: list = [(value, ptr, None, 0)]  # (node, its pointer or its parent's, its key, depth)
    pop, push = stack.pop, stack.extend
    while stack and budget > 0:
        node, at, key, depth = pop()
        if isinstance(node, str):
            budget -= 1
            if key is not None:
                at = _new(Pointer, (*at, key))
            rest = "/".join(map(str, at[base:]))
            yield at, f"{what} string at /{rest}" if rest else f"{what} string at the top level", node
        elif depth < MAX_DEPTH and isinstance(node, dict):
            if key is not None:
                at = _new(Pointer, (*at, key))
            push([(v, at, k, depth + 1) for k, v in reversed(node.items())])
        elif depth < MAX_DEPTH and isinstance(node, list):
            if key is not None:
                at = _new(Pointer, (*at, key))
            push([(node[i], at, i, depth + 1) for i in range(len(node) - 1, -1, -1)])


def _relative(at: Pointer, base: Pointer) -> str:
    rest = "/".join(str(part) for part in list(at)[len(base):])
    return "/" + rest if rest else "the top level"


# -- stack traces -------------------------------------------------------------------------

# (language, pattern): each needs the shape of a real trace, not a word such as "Traceback".
_TRACES: tuple[tuple[str, re.Pattern], ...] = (
    ("Python", re.compile(r"Traceback \(most recent call last\):\s*\n\s+File \"[^\"\n]+\", line \d+")),
    ("Python", re.compile(r"(?m)^\s*File \"[^\"\n]+\.py\", line \d+, in \S+\s*$(?:\n.*){0,2}?\n\s*File \"[^\"\n]+\", line \d+")),
    ("JavaScript", re.compile(  # two frames: "at fn (file.js:1:2)" or "at file.js:1:2"
        r"(?m)^[ \t]*at (?:async )?(?:[^\s()]+ )?\(?[^\s()]+:\d+:\d+\)?[ \t]*\n[ \t]*at \S.*(?::\d+:\d+\)?|\((?:<anonymous>|native)\))[ \t]*$")),
    ("Java", re.compile(
        r"(?m)^\s*at (?:[a-zA-Z_$][\w$]*\.)+[\w$<>]+\((?:[\w$]+\.(?:java|kt|scala|groovy):\d+|Native Method|Unknown Source)\)\s*$"
        r"(?:\n^\s*at .+$)")),
    ("Go", re.compile(r"(?m)^goroutine \d+ \[[\w ]+\]:\s*$")),
    (".NET", re.compile(r"(?m)^\s*at [\w.<>`]+\([^)\n]*\) in [^\n]+:line \d+\s*$")),
    ("Ruby", re.compile(r"(?m)^\s*(?:from )?[^\s:]+\.rb:\d+:in [`'][^'\n]+'.*\n\s*from [^\s:]+\.rb:\d+:in ")),
)
# Frames start a line ("\n    at ..."), so prose with "at" in it does not wake the patterns.
_TRACE_TRIGGER = regex(r"\n[ \t]*at |Traceback|File \"|goroutine |\.rb:\d|:line \d")


def may_hold_trace(text: str) -> bool:
    """Whether ``text`` has something _TRACE_TRIGGER needs (found faster by substring search)."""
    return "\n" in text or "Traceback" in text or 'File "' in text or "goroutine " in text or ".rb:" in text \
        or ":line " in text


def find_stack_trace(text: str) -> tuple[str, str, int] | None:
    """(language, the first matched line, where the trace starts) of a stack trace in ``text``, or None."""
    if not may_hold_trace(text) or _TRACE_TRIGGER.search(text) is None:
        return None
    for language, pattern in _TRACES:
        match = pattern.search(text)
        if match:
            first = match.group().strip().splitlines()[0].strip()
            return language, first, text.find(first, match.start())
    return None


def tool_answer(exchange):
    """The response of a tools/call exchange that has a result or an error, else None."""
    if exchange.method != "tools/call":
        return None
    response = exchange.response
    return response if response.result is not None or response.error is not None else None


def quoted(text: str, width: int = 60) -> str:
    """A match shown in a message: one line, at most ``width`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."
