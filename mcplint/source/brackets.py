"""The bracket groups of a source file: which `(...)`, `[...]` or `{...}` encloses a given offset.

The text search (textsearch.py) uses it to keep a lookup inside the definition whose name it
found: `mcp.NewTool("get_alerts", ..., mcp.WithString("city"))` holds its own parameters, while
a `"city"` in another function's `return {...}` is not inside that call. String literals and
comments are passed over, so a bracket inside them does not count; a closing bracket without
its opening one is ignored, and a group left open runs to the end of the file.
"""

from __future__ import annotations

import bisect
import re

from mcplint.regex_cache import regex

_STRINGS = r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`[^`]*`'
_HASH_COMMENTS = {".py", ".pyi", ".rb", ".sh", ".pl", ".r", ".ex", ".exs", ".jl", ".nim", ".cr", ".yaml", ".yml",
                  ".toml", ".ini", ".cfg", ".properties"}
_HASH = regex(rf"{_STRINGS}|#[^\n]*|[()\[\]{{}}]")
_SLASH = regex(rf"{_STRINGS}|//[^\n]*|/\*.*?\*/|[()\[\]{{}}]", re.DOTALL)
_PLAIN = regex(rf"{_STRINGS}|[()\[\]{{}}]")  # JSON: no comments
_OPENS = {")": "(", "]": "[", "}": "{"}


class Groups:
    """The bracket pairs of one text, as (open offset, close offset + 1), sorted by opening."""

    def __init__(self, text: str, suffix: str) -> None:
        pattern = _HASH if suffix in _HASH_COMMENTS else _PLAIN if suffix == ".json" else _SLASH
        pairs: list[tuple[int, int]] = []
        stack: list[tuple[str, int]] = []
        for match in pattern.finditer(text):
            token = match.group()
            if token in "([{":
                stack.append((token, match.start()))
            elif token in _OPENS:
                if stack and stack[-1][0] == _OPENS[token]:
                    pairs.append((stack.pop()[1], match.end()))
        pairs.extend((start, len(text)) for _, start in stack)
        pairs.sort()
        self._pairs = pairs
        self._starts = [start for start, _ in pairs]
        # Each pair's innermost enclosing pair (-1: none). The pairs nest (a stack made them), so
        # the groups around an offset are the chain of parents of the last pair opened before it:
        # a lookup costs the nesting depth, not the number of groups before it.
        self._parent: list[int] = []
        open_: list[int] = []
        for index, (start, end) in enumerate(pairs):
            while open_ and pairs[open_[-1]][1] <= start:
                open_.pop()
            self._parent.append(open_[-1] if open_ else -1)
            open_.append(index)

    def enclosing(self, offset: int) -> tuple[int, int] | None:
        """The innermost group around `offset` (its brackets included), or None at the top level."""
        i = bisect.bisect_left(self._starts, offset) - 1
        while i >= 0:
            start, end = self._pairs[i]
            if end > offset:
                return start, end
            i = self._parent[i]
        return None
