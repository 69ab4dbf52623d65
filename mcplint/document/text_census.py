"""The human-facing strings of all the tools of a manifest, gathered once per document for
the text rules (emoji, marketing, injection, markup, hidden characters, file writes): which
tools hold any non-ASCII text, and every distinct ASCII string joined into one text with its
set of letter words.

A pre-check over the joined text stands for one over each tool's texts: what it cannot find
there, no tool's own texts hold (words, characters and literal phrases of a part are in the
whole). So a rule whose pre-check fails on it need look only at the tools with non-ASCII
text, which it checks one by one as before (non-ASCII text takes other paths: case folding
maps characters such as "ı" or the Kelvin sign to ASCII letters).

The strings are those ``tool_texts.joined_texts`` joins (name, title, description,
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
        entries = tool_schemas_any_dialect(doc)
        shared = {id(entry.facts): entry.facts for entry in entries}  # schemas share their facts
        parameters = set().union(*(facts.texts for facts in shared.values()))
        titles = {title for title in census.annotation_values("title") if isinstance(title, str)}
        groups = [parameters, titles, *(census.strings(field) for field in ("name", "title", "description"))]
        odd = set().union(*(_odd(group) for group in groups))
        odd_facts = {key for key, facts in shared.items() if not odd.isdisjoint(facts.texts)} \
            if not odd.isdisjoint(parameters) else set()
        # id() of the tools with a non-ASCII parameter title or description
        self.odd_parameters = {id(entry.tool) for entry in entries if id(entry.facts) in odd_facts}
        self.non_ascii_tools: list[tuple[Any, dict]] = \
            _holding(census, odd, self.odd_parameters, titles) if odd else []
        self.non_ascii_text = "\n".join(odd)  # (a pre-check over it stands for one over each tool's)
        unique = set().union(*groups)
        self.ascii_text = "\n".join(unique - odd if odd else unique)
        self.ascii_words = frozenset(letter_words(self.ascii_text))


def _odd(texts: set[str]) -> set[str]:
    """The texts that are not ASCII (one C-speed look at all of them first: most sets none)."""
    return set() if "".join(texts).isascii() else {text for text in texts if not text.isascii()}


def _holding(census, odd: set[str], odd_parameters: set[int], titles: set[str]) -> list[tuple[Any, dict]]:
    """The tools with one of the ``odd`` strings, in order."""
    found = [census.holding(field, odd & census.strings(field)) for field in ("name", "title", "description")]
    if odd_parameters:
        found.append([pair for pair in census.tools if id(pair[1]) in odd_parameters])
    if not odd.isdisjoint(titles):
        found.append([(ptr, t) for ptr, t in census.tools if isinstance(a := t.get("annotations"), dict)
                      and isinstance(text := a.get("title"), str) and text in odd])
    found = [pairs for pairs in found if pairs]
    if len(found) <= 1:  # (most documents: one kind of text holds them all, already in order)
        return found[0] if found else []
    chosen = {id(tool) for pairs in found for _, tool in pairs}
    return [(ptr, tool) for ptr, tool in census.tools if id(tool) in chosen]


def text_census(doc) -> TextCensus:
    """The manifest's ``TextCensus``, made on first use."""
    found = doc.memoized("text-census")
    if found is None:
        found = doc.memo("text-census", lambda: TextCensus(doc))
    return found


class TextGate:
    """A text rule's cheap pre-check (``may(text)``: False only where the rule can find
    nothing), applied to a manifest's tool texts all at once instead of tool by tool.

    ``ascii_may(text, words)`` checks the document's ASCII texts joined, with their letter
    words (default: ``may`` of the text). When it rules them all out, only the tools with
    other texts are candidates, and only those texts are looked at; otherwise each tool's
    texts joined are pre-checked as before."""

    def __init__(self, key: str, may, ascii_may=None) -> None:
        self.key, self.may = key, may
        self.ascii_may = ascii_may or (lambda text, words: may(text))

    def ascii_clean(self, doc) -> bool:
        """Whether no ASCII text of any tool can hold a finding (most documents)."""
        texts = text_census(doc)
        return doc.memo(self.key, lambda: not self.ascii_may(texts.ascii_text, texts.ascii_words))

    def candidates(self, doc) -> list[tuple[Any, dict]]:
        """The tools a rule's check_tool may find something in (``ToolRule.candidates``)."""
        if not self.ascii_clean(doc):
            return doc.tool_objects()
        texts = text_census(doc)  # and the other texts, all at once too
        return texts.non_ascii_tools if self.may(texts.non_ascii_text) else []

    def texts(self, doc, ptr, tool) -> list[tuple[Any, str, str]]:
        """The tool's (pointer, what, text) worth looking at, in order."""
        from mcplint.document.tool_texts import joined_texts, non_ascii_texts

        if self.ascii_clean(doc):
            return non_ascii_texts(doc, ptr, tool)
        return doc.texts(ptr, tool) if self.may(joined_texts(doc, ptr, tool)) else []
