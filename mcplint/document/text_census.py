"""The human-facing strings of all the tools of a manifest, gathered once per document for
the text rules (emoji, marketing, injection, markup, hidden characters, file writes): which
tools hold any non-ASCII text, and every distinct ASCII string joined into one text with its
set of letter words.

A pre-check over the joined text stands for one over each tool's texts: what it cannot find
there, no tool's own texts hold (words, characters and literal phrases of a part are in the
whole). So a rule whose pre-check fails on it need look only at the tools with non-ASCII
text, which it checks one by one as before (non-ASCII text takes other paths: case folding
maps characters such as "ı" or the Kelvin sign to ASCII letters).

The strings are those ``manifest.joined_texts`` joins (name, title, description,
annotations.title, and the titles and descriptions of the parameters of inputSchema and
outputSchema), taken field by field over all tools and, for the parameters, from the schema
walk the schema rules share (``schemas.Facts.texts``), which visits the same properties."""

from __future__ import annotations

from typing import Any


class TextCensus:
    def __init__(self, doc) -> None:
        from mcplint.marketing import letter_words
        from mcplint.schemas import tool_schemas_any_dialect

        census = doc.census()
        fields = [census.strings(field) for field in ("name", "title", "description")]
        titles = {title for title in census.annotation_values("title") if isinstance(title, str)}
        entries = [entry for entry in tool_schemas_any_dialect(doc) if entry.facts.texts]
        parameters = set().union(*(entry.facts.texts for entry in entries))
        unique = parameters.union(titles, *fields)
        odd = {text for text in unique if not text.isascii()}
        self.non_ascii_tools: list[tuple[Any, dict]] = \
            _holding(census, odd, entries, parameters, titles) if odd else []
        self.ascii_text = "\n".join(unique - odd if odd else unique)
        self.ascii_words = frozenset(letter_words(self.ascii_text))


def _holding(census, odd: set[str], entries, parameters: set[str], titles: set[str]) -> list[tuple[Any, dict]]:
    """The tools with one of the ``odd`` strings, in order."""
    chosen = set()
    if not odd.isdisjoint(parameters):
        chosen.update(id(entry.tool) for entry in entries if not odd.isdisjoint(entry.facts.texts))
    for field in ("name", "title", "description"):
        chosen.update(id(tool) for _, tool in census.holding(field, odd & census.strings(field)))
    if not odd.isdisjoint(titles):
        chosen.update(id(t) for _, t in census.tools if isinstance(a := t.get("annotations"), dict)
                      and isinstance(text := a.get("title"), str) and text in odd)
    return [(ptr, tool) for ptr, tool in census.tools if id(tool) in chosen]


def text_census(doc) -> TextCensus:
    """The manifest's ``TextCensus``, made on first use."""
    found = doc.memoized("text-census")
    if found is None:
        found = doc.memo("text-census", lambda: TextCensus(doc))
    return found
