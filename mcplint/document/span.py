"""Source spans: 1-based lines and columns counted in Unicode code points."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import add


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a file. ``end_column`` is exclusive, as in SARIF."""

    line: int
    column: int
    end_line: int
    end_column: int


class LineIndex:
    """Maps code-point offsets in a text to 1-based (line, column)."""

    def __init__(self, text: str) -> None:
        # Offsets where each line starts, computed at C speed (files can have 300k lines).
        lengths = map(add, map(len, text.split("\n")), repeat(1))
        self._starts = list(accumulate(lengths, initial=0))[:-1]

    def position(self, offset: int) -> tuple[int, int]:
        row = bisect.bisect_right(self._starts, offset) - 1
        return row + 1, offset - self._starts[row] + 1

    def span(self, start: int, end: int) -> Span:
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        return Span(line, column, end_line, end_column)


def from_marks(start_line0: int, start_col0: int, end_line0: int, end_col0: int) -> Span:
    """The one place 0-based parser marks become 1-based spans."""
    return Span(start_line0 + 1, start_col0 + 1, end_line0 + 1, end_col0 + 1)
