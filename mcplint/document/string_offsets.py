"""Where a character of a decoded string sits in the quoted literal it was read from.

A finding about a word inside a long description is located at that word, not at the
description's opening quote (``Violation.within``): the decoded offsets a rule found are
mapped back through the literal's escapes (JSON's ``\\n``, ``\\u00e9``, surrogate pairs;
YAML's ``''`` and ``\\x41``). Used by the JSON and YAML source maps and by the HAR reader,
whose messages are JSON inside JSON strings.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left

from mcplint.regex_cache import regex

# One escape as it decodes to one character: a surrogate pair, another \uXXXX, or a
# two-character escape (json.loads joins a pair only if the second half is low).
JSON_ESCAPE = regex(r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)", re.S)
# YAML double-quoted scalars add \xXX and \UXXXXXXXX; single-quoted ones escape only ''.
YAML_DOUBLE_ESCAPE = regex(
    r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}"
    r"|U[0-9a-fA-F]{8}|.)", re.S)
YAML_SINGLE_ESCAPE = regex(r"''")


class StringOffsets:
    """Maps offsets in a decoded string to offsets in the text holding its literal, which
    starts at ``first`` (just past the opening quote) and ends before ``stop`` (the closing
    quote). The escapes are found once, so each lookup is a binary search."""

    __slots__ = ("first", "escapes", "extra")

    def __init__(self, text: str, first: int, stop: int, escape: re.Pattern = JSON_ESCAPE) -> None:
        self.first = first
        self.escapes = array("q")  # decoded offset of each escaped character, ascending
        self.extra = array("q")  # raw characters beyond one, up to and including that escape
        extra = 0
        for match in escape.finditer(text, first, max(first, stop)):
            self.escapes.append(match.start() - first - extra)
            extra += match.end() - match.start() - 1
            self.extra.append(extra)

    def raw(self, decoded: int) -> int:
        before = bisect_left(self.escapes, decoded)  # escapes of the characters before it
        return self.first + decoded + (self.extra[before - 1] if before else 0)


def narrowed(text: str, start: int, end: int, within: tuple[int, int]) -> tuple[int, int]:
    """``within`` (decoded offsets into the JSON string literal at ``text[start:end]``) as
    offsets into ``text``; (start, end) unchanged when the value there is not a string or
    ``within`` does not fit in it."""
    if end - start < 2 or text[start] != '"' or text[end - 1] != '"':
        return start, end
    offsets = StringOffsets(text, start + 1, end - 1)
    low, high = offsets.raw(within[0]), offsets.raw(within[1])
    if not start < low <= high <= end - 1 or within[0] >= within[1]:
        return start, end
    return low, high
