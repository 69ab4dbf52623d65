"""A finding about a phrase inside a text (MCP221's 'etc.'), placed on that phrase in the source.

The rules locate such a finding at the phrase in the server's listing (`Violation.within`), a
JSON text mcplint wrote itself, one string per line. The phrase is read back from there, with
how many times it occurs in the text before the flagged one. In the source, the region that
writes the text (a string literal, a docstring, a `"..." + "..."` concatenation) is searched
for the phrase as written: when the region holds it exactly as many times as the text does,
the finding moves onto the same occurrence; otherwise (the phrase has an escape in the source,
is split over two literals, or the SDK reworded the docstring) it stays at the region's start.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from mcplint.document.pointer import Pointer
from mcplint.document.span import Span


@dataclass(frozen=True)
class Phrase:
    text: str  # as the listing has it, decoded
    index: int  # which occurrence of it in the value: 0 for the first
    count: int  # how many times the value holds it


def flagged_phrase(span: Span, pointer: str, document, lines: list[str]) -> Phrase | None:
    """The phrase a finding at `span` of the listing `document` is about, when it is part of a
    string rather than all of it."""
    whole, _ = document.source_map.span(Pointer.parse(pointer))
    if span == whole or not (whole.line == whole.end_line == span.line == span.end_line) \
            or not whole.column < span.column <= span.end_column < whole.end_column or whole.line > len(lines):
        return None
    line = lines[whole.line - 1]
    try:
        value = json.loads(line[whole.column - 1:whole.end_column - 1])
        before = json.loads(f'"{line[whole.column:span.column - 1]}"')
        text = json.loads(f'"{line[span.column - 1:span.end_column - 1]}"')
    except ValueError:  # the span cut an escape in two
        return None
    if not isinstance(value, str) or not text.strip():
        return None
    starts = _starts(value, text)
    if len(before) not in starts:
        return None
    return Phrase(text, starts.index(len(before)), len(starts))


def on_phrase(source: str, region: Span, phrase: Phrase) -> Span | None:
    """The phrase's own span inside `region` of the source text, or None when it cannot be told."""
    lines = source.split("\n")
    if not 0 < region.line <= region.end_line <= len(lines):
        return None
    first = sum(len(line) + 1 for line in lines[:region.line - 1])
    start = first + region.column - 1
    end = sum(len(line) + 1 for line in lines[:region.end_line - 1]) + region.end_column - 1
    starts = _starts(source[start:end], phrase.text)
    if len(starts) != phrase.count:
        return None
    at = start + starts[phrase.index]
    line = source.count("\n", 0, at) + 1
    column = at - (source.rfind("\n", 0, at) + 1) + 1
    end_at = at + len(phrase.text)
    end_line = source.count("\n", 0, end_at) + 1
    end_column = end_at - (source.rfind("\n", 0, end_at) + 1) + 1
    return Span(line, column, end_line, end_column)


def _starts(text: str, phrase: str) -> list[int]:
    found, at = [], text.find(phrase)
    while at >= 0 and len(found) < 1000:
        found.append(at)
        at = text.find(phrase, at + len(phrase))
    return found
