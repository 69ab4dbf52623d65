"""'Did you mean ...?' for names a person typed: rule codes and names, config keys, options."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6  # difflib's default: 'selct' -> select, 'MCP2O2' -> MCP202, not 'x' -> anything


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice most like ``word`` (case and '_' versus '-' ignored first), or None."""
    choices = list(choices)
    folded = {_fold(choice): choice for choice in choices}
    if _fold(word) in folded:  # fail_on -> fail-on, mcp202 -> MCP202
        return folded[_fold(word)]
    typed = _fold(word)
    best, best_key = None, (CUTOFF, 0)
    for candidate in folded:
        # ties (MCP2O2 is as near MCP822 as MCP202) go to the one with more letters in place
        key = (difflib.SequenceMatcher(None, typed, candidate).ratio(), sum(a == b for a, b in zip(typed, candidate)))
        if key > best_key or best is None and key[0] >= CUTOFF:
            best, best_key = candidate, key
    return folded[best] if best is not None else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """'; did you mean X?' to append to an error message, or ''."""
    match = closest(word, choices)
    return f"; did you mean {match}?" if match is not None and match != word else ""


def _fold(text: str) -> str:
    return text.lower().replace("_", "-")
