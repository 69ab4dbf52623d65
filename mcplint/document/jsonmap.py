"""Lazy source map for JSON text.

Parsing never records positions (the C parser is fast and position-blind).
When findings exist, the pointers they name are resolved in one pass that
walks only the containers on the way to them and skips every other value
with the C decoder, so the cost is proportional to what is reported.
"""

from __future__ import annotations

import json
from json.decoder import scanstring

from mcplint.document.pointer import Pointer
from mcplint.document.span import LineIndex, Span
from mcplint.document.string_offsets import narrowed
from mcplint.regex_cache import regex

_WS = regex(r"[ \t\n\r]*")
_SKIPPER = json.JSONDecoder()

# (value_start, value_end, key_start, key_end); key offsets are None for the root/items.
Offsets = tuple[int, int, "int | None", "int | None"]


class JsonSourceMap:
    def __init__(self, text: str, unique_keys: bool = False, resolved: dict | None = None) -> None:
        self.text = text
        # The loader found no duplicate key: no later member can replace a visited one, so
        # the walk stops after the last wanted value instead of skipping the rest of the text
        # (a container's end is then found when a span needs it).
        self.unique_keys = unique_keys
        # ``resolved``: what an earlier map of the same text found (``resolved()``), kept
        # while the text itself was let go
        self._found: dict[tuple[str, ...], Offsets] = resolved if resolved is not None else {}
        self._lines: LineIndex | None = None

    def prepare(self, pointers) -> None:
        """Resolve many pointers in one walk (call before many ``span`` calls)."""
        trie: dict = {}
        for ptr in pointers:
            key = tuple(map(str, ptr))
            if key in self._found:
                continue
            node = trie
            for token in key:
                node = node.setdefault(token, {})
        if trie or () not in self._found:
            self._visit(_WS.match(self.text, 0).end(), trie, (), (None, None), self.unique_keys)

    def resolved(self) -> dict:
        """The offsets found so far: small, unlike the text, and enough to rebuild this map."""
        return self._found

    def span(self, pointer: Pointer, key: bool = False, within: tuple[int, int] | None = None) -> tuple[Span, Pointer]:
        """Span of the value (or its member key) at ``pointer``, or of the characters
        ``within`` that string value; falls back to the nearest existing ancestor. Returns
        the span and the pointer actually found."""
        start, end, found = self.offsets(pointer, key, within)
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines.span(start, end), found

    def offsets(self, pointer: Pointer, key: bool = False,
                within: tuple[int, int] | None = None) -> tuple[int, int, Pointer]:
        """``span`` as code-point offsets into the text (for JSON embedded in other text)."""
        tokens = tuple(map(str, pointer))
        if tokens not in self._found:
            self.prepare([pointer])
        depth = len(tokens)
        while tokens[:depth] not in self._found:
            depth -= 1
        start, end, key_start, key_end = self._found[tokens[:depth]]
        if end is None:  # a container the walk left before its end
            end = _SKIPPER.raw_decode(self.text, start)[1]
            self._found[tokens[:depth]] = (start, end, key_start, key_end)
        if key and depth == len(tokens) and key_start is not None:
            start, end = key_start, key_end
        elif within is not None and depth == len(tokens):
            start, end = narrowed(self.text, start, end, within)
        return start, end, Pointer(pointer[:depth])

    # -- the walk -----------------------------------------------------------

    def _visit(self, i: int, trie: dict, path: tuple[str, ...], key=(None, None), last: bool = False) -> int | None:
        """Record ``path`` at offset ``i``, descend into wanted children; return end offset,
        or None when ``last`` (nothing after this value is wanted) let the walk stop early."""
        text = self.text
        char = text[i : i + 1]
        if not trie or char not in "{[" or not char:
            end = _SKIPPER.raw_decode(text, i)[1]
            self._found[path] = (i, end, *key)
            return end
        if char == "{":
            end = self._visit_object(i, trie, path, last)
        else:
            end = self._visit_array(i, trie, path, last)
        self._found[path] = (i, end, *key)
        return end

    def _visit_object(self, i: int, trie: dict, path: tuple[str, ...], last: bool = False) -> int | None:
        text = self.text
        visited: set[str] = set()
        i = _WS.match(text, i + 1).end()
        if text[i] == "}":
            return i + 1
        while True:
            key_start = i
            name, i = scanstring(text, i + 1)
            key_end = i
            i = _WS.match(text, i).end() + 1  # past ':'
            i = _WS.match(text, i).end()
            if name in trie:
                if name in visited:  # a duplicate key: the last one wins, as in json.loads
                    self._forget(path + (name,))
                visited.add(name)
                final = last and len(visited) == len(trie)  # keys are unique when ``last`` is set
                i = self._visit(i, trie[name], path + (name,), (key_start, key_end), final)
                if final:
                    return None
            else:
                i = _SKIPPER.raw_decode(text, i)[1]
            i = _WS.match(text, i).end()
            if text[i] == "}":
                return i + 1
            i = _WS.match(text, i + 1).end()

    def _forget(self, prefix: tuple[str, ...]) -> None:
        depth = len(prefix)
        for key in [k for k in self._found if k[:depth] == prefix]:
            del self._found[key]

    def _visit_array(self, i: int, trie: dict, path: tuple[str, ...], last: bool = False) -> int | None:
        text = self.text
        wanted = {int(t): t for t in trie if t.isascii() and t.isdigit()}  # not "²"
        i = _WS.match(text, i + 1).end()
        if text[i] == "]":
            return i + 1
        index = 0
        final_index = max(wanted) if last and wanted else -1
        while True:
            if index in wanted:
                token = wanted[index]
                i = self._visit(i, trie[token], path + (token,), (None, None), index == final_index)
                if index == final_index:
                    return None
            else:
                i = _SKIPPER.raw_decode(text, i)[1]
            index += 1
            i = _WS.match(text, i).end()
            if text[i] == "]":
                return i + 1
            i = _WS.match(text, i + 1).end()
