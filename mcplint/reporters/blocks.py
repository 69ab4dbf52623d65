"""The part of the rich report after the findings (headline, rule counts, checklist), described
as blocks and written by rich, or, without colour, by plain arithmetic when that writes the same.

Blocks: ``("line", segments, style)`` printed as is (``style`` is the whole line's, under each
segment's own), ``("blank",)``, ``("table", columns, rows)`` with ``columns`` as (header,
justify, no_wrap) and ``rows`` of (text, style) cells, and ``("wrap", text, style)`` wrapped to
the width at spaces.

Why two writers: importing rich's console and table costs more than linting a small manifest,
and a report without colour (CI logs, pre-commit, pipes) needs no styles. The plain writer
takes only what it can lay out exactly as rich does (printable ASCII and a few dashes, tables that fit the width
without shrinking a column, words no longer than the width) and says None to the rest, which
rich writes. tests/test_report_blocks.py holds the two to the same text.
"""

from __future__ import annotations

import io

from mcplint.regex_cache import regex

# Printable ASCII and the few other characters mcplint's own texts use, each one cell wide in a
# terminal, as rich counts them: anything else (wide characters, combining marks) goes to rich.
_PRINTABLE = regex("[ -~\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u23ce]*")
_WORD = regex(r"\s*\S+\s*")  # rich._wrap.re_word: a word with the spaces around it
_TAIL = regex("(?: |\x1b\\[[0-9;]*m)+$")  # trailing padding, possibly between style codes
# The tables' look (rich's box.SIMPLE_HEAD without edges, no padding at the table's edges):
# one space on each side of a cell inside the table, one between columns, a rule under the header.
_GAP = 3


def render(blocks: list[tuple], color: bool, width: int) -> str:
    if not color:
        plain = render_plain(blocks, width)
        if plain is not None:
            return plain
    return render_rich(blocks, color, width)


def render_plain(blocks: list[tuple], width: int) -> str | None:
    lines: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind == "line":
            text = "".join(text for text, _ in block[1])
            if not _PRINTABLE.fullmatch(text):
                return None
            lines.append(text.rstrip(" "))
        elif kind == "blank":
            lines.append("")
        elif kind == "table":
            table = _table(block[1], block[2], width)
            if table is None:
                return None
            lines += table
        else:
            wrapped = _wrapped(block[1], width)
            if wrapped is None:
                return None
            lines += wrapped
    return "".join(line + "\n" for line in lines)


def _table(columns: list[tuple], rows: list[list[tuple]], width: int) -> list[str] | None:
    cells = [[header for header, _, _ in columns], *([text for text, _ in row] for row in rows)]
    if not all(_PRINTABLE.fullmatch(cell) for row in cells for cell in row):
        return None
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    total = sum(widths) + _GAP * (len(widths) - 1)
    if total > width:  # rich would shrink or wrap a column
        return None
    lines = []
    for row in cells:
        line = (" " * _GAP).join(cell.rjust(size) if justify == "right" else cell.ljust(size)
                                 for cell, size, (_, justify, _) in zip(row, widths, columns))
        lines.append(line.rstrip(" "))
    lines.insert(1, "─" * total)
    return lines


def _wrapped(text: str, width: int) -> list[str] | None:
    """``text`` wrapped as rich wraps it (rich._wrap.divide_line), or None for a word it would fold."""
    if not _PRINTABLE.fullmatch(text):
        return None
    lines, line, used = [], "", 0
    for word in _WORD.findall(text):
        length = len(word.rstrip())
        if length > width:
            return None
        if width - used < length:  # to the next line (rich 15 breaks before any word but the first)
            lines.append(line.rstrip(" "))
            line, used = "", 0
        line += word
        used += len(word)
    lines.append(line.rstrip(" "))
    return lines


def render_rich(blocks: list[tuple], color: bool, width: int) -> str:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(
        file=io.StringIO(), force_terminal=color, color_system="standard" if color else None,
        no_color=not color, width=width, height=25, highlight=False, markup=False, emoji=False,
        legacy_windows=False, _environ={},  # no COLUMNS, NO_COLOR, FORCE_COLOR, TERM...: the caller decides
    )
    for block in blocks:
        kind = block[0]
        if kind == "line":
            line = Text(style=block[2] or "")
            for text, style in block[1]:
                line.append(text, style=style)
            console.print(line, soft_wrap=True)
        elif kind == "blank":
            console.print()
        elif kind == "table":
            table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold")
            for header, justify, no_wrap in block[1]:
                table.add_column(header, justify=justify, no_wrap=no_wrap)
            for row in block[2]:
                table.add_row(*(Text(text, style=style or "") for text, style in row))
            console.print(table)
        else:
            console.print(Text(block[1], style=block[2]))
    return "\n".join(_rstrip(line) for line in console.file.getvalue().split("\n"))


def _rstrip(line: str) -> str:
    """Drop trailing padding (tables pad their cells) but keep any closing style codes."""
    tail = _TAIL.search(line)
    return line if tail is None else line[: tail.start()] + tail.group().replace(" ", "")
