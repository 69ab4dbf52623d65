"""`--format rich`: findings grouped by file with code frames, then counts and the checklist.

Pure: everything is rendered into a private Console that ignores the environment
(the CLI has already decided ``ctx.color`` and ``ctx.width``). User text (messages,
file contents) only ever goes into ``Text`` objects, never through rich markup.
"""

from __future__ import annotations

import io
import re
from collections import Counter

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

TAB_SIZE = 4
FRAME_LINES = 4  # a multi-line span longer than this shows its first FRAME_LINES - 1 lines
MIN_CONTENT = 20  # never squeeze a code frame narrower than this many cells

SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}
STATUS_STYLE = {"pass": "green", "fail": "bold red", "not-assessable": "dim"}
GUTTER = "bold blue"
NOT_ASSESSABLE_MARK = "*"

# Characters that must not reach the terminal raw: C0/C1 controls and the
# bidirectional overrides/isolates that can reorder what is displayed ("Trojan Source").
_TAIL = re.compile("(?: |\x1b\\[[0-9;]*m)+$")  # trailing padding, possibly between style codes
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def render(findings, ctx) -> str:
    console = Console(
        file=io.StringIO(),
        force_terminal=ctx.color,
        color_system="standard" if ctx.color else None,
        no_color=not ctx.color,
        width=ctx.width,
        height=25,
        highlight=False,
        markup=False,
        emoji=False,
        legacy_windows=False,
        _environ={},  # no COLUMNS, NO_COLOR, FORCE_COLOR, TERM...: the context decides
    )
    by_file: dict[str, list] = {}
    for finding in findings:
        by_file.setdefault(finding.path, []).append(finding)
    for path, group in by_file.items():
        _print(console, _file_heading(path, group))
        _print(console, Text())
        for finding in group:
            for line in _diagnostic(finding, ctx.sources.get(path), ctx.width):
                _print(console, line)
            _print(console, Text())
    _summary(console, findings, ctx.summary)
    _checklist(console, ctx.summary.get("checklist", ()))
    return "\n".join(_rstrip(line) for line in console.file.getvalue().split("\n"))


def _print(console: Console, text: Text) -> None:
    console.print(text, soft_wrap=True)


# ---------------------------------------------------------------- findings


def _file_heading(path: str, group) -> Text:
    counts = Counter(f.severity.value for f in group)
    parts = [_plural(counts[level], level) for level in ("error", "warning", "info") if counts[level]]
    heading = Text(safe(path), style="bold underline")
    heading.append(f"  {_plural(len(group), 'problem')} ({', '.join(parts)})", style="dim")
    return heading


def _diagnostic(finding, source: str | None, width: int) -> list[Text]:
    level = finding.severity.value
    span = finding.span
    head = Text()
    head.append(f"{safe(finding.path)}:{span.line}:{span.column}:", style="bold")
    head.append(" ")
    head.append(level, style=SEVERITY_STYLE[level])
    head.append(f"[{finding.code} {finding.name}]", style="bold")
    head.append(" ")
    head.append(safe(finding.message))

    frame = _frame(source, span, width) if source is not None else None
    lines = [head]
    if frame:
        numbers, rows = frame
        gutter = len(str(numbers))
        lines.append(Text(" " * gutter + " |", style=GUTTER))
        for kind, number, content in rows:
            row = Text()
            if kind == "src":
                row.append(f"{number:>{gutter}} |", style=GUTTER)
                if content.plain:
                    row.append(" ")
                    row.append_text(content)
            elif kind == "mark":
                row.append(" " * gutter + " |", style=GUTTER)
                carets = content.lstrip()
                row.append(" " * (1 + len(content) - len(carets)))
                row.append(carets, style=SEVERITY_STYLE[level])
            else:  # "more"
                row.append(" " * gutter + " |", style=GUTTER)
                row.append(" ")
                row.append_text(content)
            lines.append(row)
    else:
        gutter = 2
    notes = [("pointer", finding.pointer if finding.pointer else "(document root)")]
    if finding.tool is not None:
        notes.append(("tool", finding.tool))
    if finding.checklist:
        notes.append(("checklist", ", ".join(str(i) for i in finding.checklist)))
    note = _note_start(gutter)
    for i, (label, value) in enumerate(notes):
        if i:
            note.append("   ")
        note.append(f"{label}: ", style="bold")
        note.append(safe(value))
    lines.append(note)
    for related in finding.related:
        where = f"{safe(finding.path)}:{related.span.line}:{related.span.column}"
        row = _note_start(gutter)
        row.append(f"{safe(related.message)}: ", style="bold")
        row.append(where)
        row.append(f" ({safe(related.pointer) or '(document root)'})", style="dim")
        lines.append(row)
    return lines


def _note_start(gutter: int) -> Text:
    text = Text(" " * gutter + " ")
    text.append("=", style=GUTTER)
    text.append(" ")
    return text


def _frame(source: str, span, width: int):
    """(highest line number shown, rows) for the span, or None when it is not in the text."""
    lines = source.split("\n")
    first, last = span.line, span.end_line
    end_column = span.end_column
    if last > first and end_column <= 1:  # the span ends at the very start of a line
        last -= 1
        end_column = len(lines[last - 1].rstrip("\r")) + 1 if last <= len(lines) else 1
    if not 1 <= first <= len(lines) or last < first:
        return None
    last = min(last, len(lines))
    shown = list(range(first, last + 1))
    elided = 0
    if len(shown) > FRAME_LINES:
        elided = len(shown) - (FRAME_LINES - 1)
        shown = shown[: FRAME_LINES - 1]
    gutter = len(str(shown[-1]))
    room = max(MIN_CONTENT, width - gutter - 3)

    rows = []
    for number in shown:
        text = lines[number - 1].rstrip("\r")
        if number == first:
            start = span.column - 1
            stop = end_column - 1 if last == first else len(text.rstrip())
            content, marks = _window(text, start, max(stop, start + 1), room)
            rows.append(("src", number, content))
            rows.append(("mark", number, marks.rstrip()))
        else:
            content, _ = _window(text, 0, 1, room)
            rows.append(("src", number, content))
    if elided:
        rows.append(("more", 0, Text(f"... {_plural(elided, 'more line')} to {last}:{end_column}", style="dim")))
    return shown[-1], rows


def _window(text: str, start: int, stop: int, room: int) -> tuple[Text, str]:
    """The displayed line (cropped to ``room`` cells around the span) and its caret line.

    ``start``/``stop`` are code-point offsets into ``text`` (stop exclusive). Tabs are
    expanded to TAB_SIZE stops and wide characters counted by their cell width, in the
    line and in the carets alike, so the carets stay under the span.
    """
    cells: list[tuple[str, int, bool]] = []  # (shown, cell width, escaped)
    column = 0
    for char in text:
        escaped = False
        if char == "\t":
            shown = " " * (TAB_SIZE - column % TAB_SIZE)
        elif _UNSAFE.match(char):
            shown, escaped = _escape_char(char), True
        else:
            shown = char
        size = cell_len(shown)
        cells.append((shown, size, escaped))
        column += size
    start = min(start, len(cells))
    stop = min(max(stop, start + 1), len(cells) + 1)  # one cell past the end marks "end of line"
    total = column
    if total <= room:
        lo, hi = 0, len(cells)
    else:
        lo = start
        budget = room - 2  # room for an ellipsis on each side
        before = _width(cells, 0, start)
        if before + _width(cells, start, stop) + 1 <= budget:
            lo = 0
        else:
            context = min(budget // 3, before)
            used = 0
            while lo > 0 and used + cells[lo - 1][1] <= context:
                lo -= 1
                used += cells[lo][1]
        hi, used = lo, 0
        while hi < len(cells) and used + cells[hi][1] <= budget:
            used += cells[hi][1]
            hi += 1
    line = Text()
    marks = []
    if lo > 0:
        line.append("…", style="dim")
        marks.append(" ")
    for index in range(lo, hi):
        shown, size, escaped = cells[index]
        line.append(shown, style="dim" if escaped else None)
        marks.append(("^" if start <= index < stop else " ") * size)
    if hi < len(cells):
        line.append("…", style="dim")
    elif start <= hi < stop:
        marks.append("^")  # the span reaches the end of the line (or points just past it)
    carets = "".join(marks)
    if "^" not in carets:  # only zero-width characters, or cropped away: mark where it starts
        at = (1 if lo > 0 else 0) + _width(cells, lo, min(start, hi))
        carets = carets[:at].ljust(at) + "^" + carets[at + 1 :]
    line.rstrip()
    return line, carets


def _width(cells, start: int, stop: int) -> int:
    return sum(cell[1] for cell in cells[start:stop])


def _escape_char(char: str) -> str:
    return f"<U+{ord(char):04X}>"


def safe(value: str) -> str:
    """User text on one line, with controls and bidi overrides made visible."""
    value = value.replace("\r\n", "\n").replace("\n", "⏎").replace("\t", " ")
    return _UNSAFE.sub(lambda m: _escape_char(m.group()), value)


# ---------------------------------------------------------------- summary


def _summary(console: Console, findings, summary: dict) -> None:
    files, tools = summary.get("files", 0), summary.get("tools", 0)
    scope = f"{_plural(files, 'manifest')} ({_plural(tools, 'tool')})"
    versions = summary.get("protocol_versions") or []
    tail = []
    if versions:
        tail.append(f"protocol version {', '.join(versions)}")
    if summary.get("skipped"):
        tail.append(f"{_plural(summary['skipped'], 'file')} skipped")
    if summary.get("errors"):
        tail.append(f"{_plural(summary['errors'], 'file')} could not be read")
    extra = "".join(f", {part}" for part in tail)

    if not findings:
        line = Text("No problems found", style="bold green")
        line.append(f" in {scope}{extra}.")
        _print(console, line)
        _print(console, Text())
        return

    counts = Counter(f.severity.value for f in findings)
    line = Text("Found ")
    line.append(_plural(len(findings), "problem"), style="bold")
    line.append(" (")
    parts = [(level, counts[level]) for level in ("error", "warning", "info") if counts[level]]
    for i, (level, count) in enumerate(parts):
        if i:
            line.append(", ")
        line.append(_plural(count, level), style=SEVERITY_STYLE[level])
    line.append(f") in {scope}{extra}.")
    _print(console, line)
    _print(console, Text())

    rules: dict[str, list] = {}
    for f in findings:
        entry = rules.setdefault(f.code, [f.name, Counter(), 0])
        entry[1][f.severity.value] += 1
        entry[2] += 1
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("rule")
    table.add_column("name")
    table.add_column("severity")
    table.add_column("count", justify="right")
    for code in sorted(rules):
        name, levels, count = rules[code]
        level = max(levels, key=lambda lv: ("info", "warning", "error").index(lv))
        table.add_row(Text(code), Text(name), Text(level, style=SEVERITY_STYLE[level]), Text(str(count)))
    console.print(table)
    _print(console, Text())


def _checklist(console: Console, checklist) -> None:
    if not checklist:
        return
    counts = Counter(entry["status"] for entry in checklist)
    heading = Text("Checklist", style="bold")
    heading.append(
        f"  {counts['pass']} pass, {counts['fail']} fail, {counts['not-assessable']} not assessable",
        style="dim",
    )
    _print(console, heading)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("item")
    table.add_column("status", no_wrap=True)
    notes: list[str] = []
    for entry in checklist:
        status = entry["status"]
        if status == "fail":
            label = f"fail ({entry.get('findings', 0)})"
        elif status == "pass":
            label = "pass"
        else:
            note = entry.get("note") or "not assessable"
            if note not in notes:
                notes.append(note)
            label = "not assessable" + NOT_ASSESSABLE_MARK * (notes.index(note) + 1)
        table.add_row(Text(str(entry["item"])), Text(entry["title"]), Text(label, style=STATUS_STYLE.get(status)))
    console.print(table)
    for i, note in enumerate(notes):  # wrapped to the width, like the table above
        console.print(Text(f"{NOT_ASSESSABLE_MARK * (i + 1)} {safe(note)}", style="dim"))


def _rstrip(line: str) -> str:
    """Drop trailing padding (tables pad their cells) but keep any closing style codes."""
    tail = _TAIL.search(line)
    return line if tail is None else line[: tail.start()] + tail.group().replace(" ", "")


def _plural(count: int, noun: str) -> str:
    if count == 1 or noun == "info":
        return f"{count} {noun}"
    return f"{count} {noun}s"

