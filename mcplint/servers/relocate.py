"""Move findings about a server's listing onto the source lines that define it.

A finding from linting a server's combined listing points into that listing
(``/tools/3/inputSchema/properties/city/description``). Here it moves to the place in
the repository where that text is written (mcplint.source finds it); what cannot be
placed stays on the listing, named ``server:<name>`` with its pointer, and says why.
Findings about traffic (an audit's probes) are named ``audit:<name>#message-<line>``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from mcplint.document.pointer import Pointer
from mcplint.findings import NOWHERE, Finding, Related

LISTING_KEYS = ("tools", "prompts", "resources", "resourceTemplates")
ENTRY_WORD = {"tools": "tool", "prompts": "prompt", "resources": "resource", "resourceTemplates": "resource template"}


def listing_name(server: str) -> str:
    return f"server:{server}"


def traffic_name(server: str, line: int) -> str:
    return f"audit:{server}#message-{line}"


class Placer:
    """Places findings of one server's listing; ``sources`` gathers the texts of the source
    files findings moved to (for code frames)."""

    def __init__(self, server: str, listing: dict[str, list[Any]], index) -> None:
        self.server, self.listing, self.index = server, listing, index
        self.sources: dict[str, str] = {}
        self.unplaced = 0

    def place(self, finding: Finding, phrase=None) -> Finding:
        """`phrase` (servers.phrase.Phrase): the part of a text the finding is about, to be
        placed on in the source when the source writes it as the text has it."""
        where = self._where(finding.pointer)
        related = tuple(self._related(r) for r in finding.related)
        if where is None:  # about the listing as a whole (e.g. duplicate names across kinds)
            return dataclasses.replace(finding, path=listing_name(self.server), span=NOWHERE, related=related)
        kind, name, inner, value = where
        anchor = self.index.locate(kind, name, inner, value) if self.index is not None and name else None
        if anchor is None or not hasattr(anchor, "span"):
            self.unplaced += 1
            why = getattr(anchor, "reason", None) or "no source folder to search"
            what = f"{ENTRY_WORD[kind]} {name}" if name else ENTRY_WORD[kind]
            message = f"{finding.message} [server {self.server}, {what}, {'/' + '/'.join(map(str, inner)) if inner else '(the whole entry)'}: not placed in the source: {why}]"
            return dataclasses.replace(finding, path=listing_name(self.server), span=NOWHERE, message=message,
                                       related=related)
        self._remember(anchor.path)
        span = anchor.span
        if phrase is not None:
            from mcplint.servers.phrase import on_phrase

            span = on_phrase(self.sources[anchor.path], span, phrase) or span
        return dataclasses.replace(finding, path=anchor.path, span=span, related=related)

    def _related(self, related: Related) -> Related:
        where = self._where(related.pointer)
        if where is not None and self.index is not None and where[1]:
            anchor = self.index.locate(*where)
            if anchor is not None and hasattr(anchor, "span"):
                self._remember(anchor.path)
                return Related(related.message, related.pointer, anchor.span)
        return Related(related.message, related.pointer, NOWHERE)

    def _where(self, pointer: str):
        """(kind, entry name, pointer tokens inside the entry, value there) or None."""
        tokens = Pointer.parse(pointer)
        if len(tokens) < 2 or tokens[0] not in LISTING_KEYS:
            return None
        kind = tokens[0]
        try:
            entry = self.listing[kind][int(tokens[1])]
        except (KeyError, IndexError, ValueError, TypeError):
            return None
        name = entry.get("name") if isinstance(entry, dict) else None
        inner = tuple(tokens[2:])
        value: Any = entry
        for token in inner:
            try:
                value = value[int(token)] if isinstance(value, list) else value[token]
            except (KeyError, IndexError, ValueError, TypeError):
                value = None
                break
        return kind, name if isinstance(name, str) else None, inner, value

    def _remember(self, path: str) -> None:
        if path not in self.sources:
            root = getattr(self.index, "root", None)
            try:
                full = (root / path) if root is not None else path
                with open(full, encoding="utf-8", errors="replace") as handle:
                    self.sources[path] = handle.read(4 << 20)
            except OSError:
                self.sources[path] = ""


def traffic_finding(finding: Finding, server: str) -> Finding:
    """A finding of an audit's transcript, named by its message instead of a temporary file."""
    related = tuple(Related(f"{r.message} (message {r.span.line})" if r.span.line else r.message, r.pointer, NOWHERE)
                    for r in finding.related)
    return dataclasses.replace(finding, path=traffic_name(server, finding.span.line), span=NOWHERE, related=related)
