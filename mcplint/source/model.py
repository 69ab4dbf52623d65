"""What a source lookup answers, and what the language readers hand the index.

A `Definition` is one tool, prompt or resource as written in the source: where its name is
(`anchor`) and, per JSON pointer inside the listed entry, the region that writes that part
(`parts`). The index picks the longest pointer prefix it has, so a finding about a field the
source never writes lands on the nearest part that is written, never on the whole file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mcplint.document.span import Span

Pointer = tuple[str, ...]

KINDS = ("tools", "prompts", "resources", "resourceTemplates")
SINGULAR = {"tools": "tool", "prompts": "prompt", "resources": "resource",
            "resourceTemplates": "resource template"}


@dataclass(frozen=True, slots=True)
class Anchor:
    """Where a part of a definition is written: a file relative to the repository root."""

    path: str  # relative to the root given to SourceIndex.build, '/'-separated
    span: Span
    how: str  # what was found, e.g. "python @mcp.tool: docstring of get_forecast"


@dataclass(frozen=True, slots=True)
class Unplaced:
    """No region of the source could be named; `reason` says what was searched."""

    reason: str


@dataclass(frozen=True, slots=True)
class Region:
    path: str
    span: Span


@dataclass
class Definition:
    kind: str  # one of KINDS
    name: str  # the entry's name on the wire
    anchor: Region  # the definition itself: function name, name argument, name literal
    construct: str  # "python @mcp.tool", "typescript registerTool", ...
    parts: dict[Pointer, Region] = field(default_factory=dict)
    labels: dict[Pointer, str] = field(default_factory=dict)  # pointer -> what is there ("docstring")
    texts: dict[Pointer, str] = field(default_factory=dict)  # literal text at a pointer, to pick between twins
    uri: str | None = None  # resources: their URI or URI template, a second key
    static: dict | None = None  # the entry as read statically (Python servers), see static.py

    def put(self, pointer: Pointer, region: Region | None, label: str, text: str | None = None) -> None:
        """Record a part; the first writer of a pointer wins (the most specific reader runs first)."""
        if region is None or pointer in self.parts:
            return
        self.parts[pointer] = region
        self.labels[pointer] = label
        if text is not None:
            self.texts[pointer] = text


def pointer_text(pointer: Pointer) -> str:
    """RFC 6901 form, for messages."""
    return "".join("/" + token.replace("~", "~0").replace("/", "~1") for token in pointer)
