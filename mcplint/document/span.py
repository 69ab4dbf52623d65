"""Source spans: 1-based lines and columns counted in Unicode code points."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from itertools import accumulate, islice, repeat
from operator import add


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a file. ``end_column`` is exclusive, as in SARIF."""

    line: int
    column: int
    end_line: int
    end_column: int


class LineIndex:
    """Maps code-point offsets in a text to 1-based (line, column).

    Line starts are found as far as the offsets asked for, in chunks that double: findings
    are often all near the top of a large file (the first ones of each rule are reported),
    and splitting all of a 9 MB text into 300,000 lines cost more than locating them."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._starts = [0]
        self._scanned = 0  # the line starts in text[:_scanned] are all in _starts

    def _scan(self, offset: int) -> None:
        text = self._text
        end = min(len(text), max(offset + 1, 2 * self._scanned, 1 << 16))
        # Offsets where each line starts, computed at C speed.
        lengths = map(add, map(len, text[self._scanned:end].split("\n")), repeat(1))
        self._starts.extend(islice(accumulate(lengths, initial=self._scanned), 1, None))
        if self._starts[-1] > end:  # the chunk's last piece runs on past it: not a line start
            self._starts.pop()
        self._scanned = end

    def position(self, offset: int) -> tuple[int, int]:
        if offset >= self._scanned and self._scanned < len(self._text):
            self._scan(offset)
        row = bisect.bisect_right(self._starts, offset) - 1
        return row + 1, offset - self._starts[row] + 1

    def span(self, start: int, end: int) -> Span:
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        return Span(line, column, end_line, end_column)


def from_marks(start_line0: int, start_col0: int, end_line0: int, end_col0: int) -> Span:
    """The one place 0-based parser marks become 1-based spans."""
    return Span(start_line0 + 1, start_col0 + 1, end_line0 + 1, end_col0 + 1)
