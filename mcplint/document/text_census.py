"""The human-facing strings of all the tools of a manifest, gathered once per document for
the text rules (emoji, marketing, injection, file writes): which tools hold any non-ASCII
text, and every ASCII string joined into one text with its set of letter words.

A pre-check over the joined text stands for one over each tool's texts: what it cannot find
there, no tool's own texts hold (words, characters and literal phrases of a part are in the
whole). So a rule whose pre-check fails on it need look only at the tools with non-ASCII
text, which it checks one by one as before (non-ASCII text takes other paths: case folding
maps characters such as "ı" or the Kelvin sign to ASCII letters)."""

from __future__ import annotations

from typing import Any


class TextCensus:
    """``tools``: (pointer, tool object) pairs, in order."""

    def __init__(self, tools: list[tuple[Any, dict]]) -> None:
        from mcplint.document.manifest import _tool_strings
        from mcplint.marketing import letter_words

        strings = [_tool_strings(tool) for _, tool in tools]
        # Tools share many texts (parameter descriptions, often descriptions): look at each once.
        unique = set().union(*strings)
        odd = {text for text in unique if not text.isascii()}
        self.non_ascii_tools = [pair for pair, own in zip(tools, strings) if not odd.isdisjoint(own)] if odd else []
        self.ascii_text = "\n".join(unique - odd if odd else unique)
        self.ascii_words = frozenset(letter_words(self.ascii_text))


def text_census(doc) -> TextCensus:
    """The manifest's ``TextCensus``, made on first use."""
    found = doc.memoized("text-census")
    if found is None:
        found = doc.memo("text-census", lambda: TextCensus(doc.tool_objects()))
    return found
