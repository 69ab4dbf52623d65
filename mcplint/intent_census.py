"""Which tools may imply a side effect (``risk.tool_intent`` not None), judged for many tools
at once: the annotation rules (MCP410, MCP411) then call check_tool for those alone.

A name implies an effect only through one of its words (``risk.name_words``) that the
lexicon knows, so the words of all the names, found in one pass over them joined by
newlines (no word spans one), rule out most names together; a tool whose name cannot imply
one implies what its description does, judged once per distinct description."""

from __future__ import annotations

from typing import Any

from mcplint.risk import NAME_INTENT_WORDS, name_words, tool_intent


def intending(tools: list[tuple[Any, dict]], descriptions: set[str] | None = None) -> list[tuple[Any, dict]]:
    """The tools among ``tools`` whose ``tool_intent(name, description)`` may not be None, in
    order. ``descriptions``: the distinct descriptions of all the document's tools, when known
    (judged instead of collecting the tools' own when there are fewer of them)."""
    names = [name for _, tool in tools if isinstance(name := tool.get("name"), str)]
    found = set(name_words("\n".join(names))) & NAME_INTENT_WORDS
    if descriptions is None or len(descriptions) > len(tools):
        descriptions = {text for _, tool in tools if isinstance(text := tool.get("description"), str)}
    effects = {text for text in descriptions if tool_intent(None, text) is not None}
    if not found:  # (most documents: only descriptions can imply an effect, if any)
        return [(ptr, tool) for ptr, tool in tools
                if isinstance(text := tool.get("description"), str) and text in effects] if effects else []
    return [(ptr, tool) for ptr, tool in tools if _may_intend(tool, found, effects)]


def _may_intend(tool: dict, words: set[str], effects: set[str]) -> bool:
    """Whether the tool's description implies an effect, or its name has one of ``words``
    (a substring test: a word of the name is in its lower-case text)."""
    text = tool.get("description")
    if isinstance(text, str) and text in effects:
        return True
    name = tool.get("name")
    if not isinstance(name, str) or not words:
        return False
    lowered = name.lower()
    return any(word in lowered for word in words)
