"""`--format rich`: findings grouped by file with code frames, then counts and the checklist.

    m.json:12:17: error[MCP204 duplicate-tool-name] Tool name 'search' is already used ...
       |
    12 |       "name": "search",
       |               ^^^^^^^^
       = pointer: /tools/1/name   tool: search   checklist: 1

``ctx.extra["view"]``: "full" (the default); "quiet": the findings and the one-line summary only;
"statistics": one line per rule (most findings first, like `ruff --statistics`), then that line.

Pure: the CLI has already decided ``ctx.color`` and ``ctx.width``; nothing here reads
the environment. Diagnostics are built as (text, style) segments and styled with rich's
own ``Style.render`` (cheap enough for tens of thousands of findings); the summary and
checklist are blocks (``mcplint.reporters.blocks``) that a private rich ``Console`` writes, or
plain arithmetic without colour. rich is imported only where it is used. User text (messages,
paths, file contents) is never parsed as rich markup, and control or bidi-override characters
in it are shown escaped.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from mcplint.findings import located
from mcplint.regex_cache import regex
from mcplint.reporters import blocks as summary_blocks
from mcplint.summary import left_out_text, nothing_read, plural, scope_text, unread_text
from mcplint.text_safety import UNSAFE, printable, shown as _escape_char

TAB_SIZE = 4
FRAME_LINES = 4  # a multi-line span longer than this shows its first FRAME_LINES - 1 lines
MIN_CONTENT = 20  # never squeeze a code frame narrower than this many cells
LEVELS = ("error", "warning", "info")

SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}
STATUS_STYLE = {"pass": "green", "fail": "bold red", "not-assessable": "dim"}
GUTTER = "bold blue"

FRAME_CELLS = 120  # a code frame shows at most this much of a line, however wide the terminal
MAX_POINTER = 240  # longer JSON pointers are shown cut in the middle (machine formats keep them whole)
_PRINTABLE = regex("[ -~]*")

Segments = list  # [(text, style or None), ...]: one output line


def render(findings, ctx) -> str:
    view = ctx.extra.get("view", "full")  # or "quiet", "statistics": see the module docstring
    rows = _statistics(findings) if view == "statistics" else _findings(findings, ctx, view == "full")
    head = "".join(_emit(row, ctx.color) + "\n" for row in rows)
    summary = ctx.summary or {}
    blocks = [*_summary(findings, summary), *_checklist(summary.get("checklist", ()))] if view == "full" \
        else [_headline(findings, summary)]
    return head + summary_blocks.render(blocks, ctx.color, ctx.width)


def _findings(findings, ctx, headings: bool) -> list[Segments]:
    by_file: dict[str, list] = {}
    for finding in findings:
        by_file.setdefault(finding.path, []).append(finding)
    rows: list[Segments] = []
    for path, group in by_file.items():
        source = ctx.sources.get(path)
        lines = source.split("\n") if isinstance(source, str) else source  # or a capture's SparseLines
        rows += [_file_heading(path, group), []] if headings else []
        for finding in group:
            rows += [*_diagnostic(finding, lines, ctx.width), []]
    return rows


def _statistics(findings) -> list[Segments]:
    """One row per rule: count, code, name; most findings first, then by code; then a blank row."""
    counts, names = Counter(f.code for f in findings), {f.code: f.name for f in findings}
    width, code_width = len(str(max(counts.values(), default=0))), max(map(len, counts), default=0)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    rows = [[(f"{n:>{width}}  ", None), (code.ljust(code_width), "bold"), (f"  {safe(names[code])}", None)]
            for code, n in ranked]
    return [*rows, []] if rows else []


@lru_cache(maxsize=None)
def _style(name: str):
    from rich.style import Style

    return Style.parse(name)


def _emit(row: Segments, color: bool) -> str:
    if not color:
        return "".join(text for text, _ in row)
    from rich.color import ColorSystem

    return "".join(
        _style(style).render(text, color_system=ColorSystem.STANDARD) if style and text else text
        for text, style in row
    )


# ---------------------------------------------------------------- findings


def _file_heading(path: str, group) -> Segments:
    counts = Counter(f.severity.value for f in group)
    parts = ", ".join(plural(counts[level], level) for level in LEVELS if counts[level])
    return [(line_start(path), "bold underline"), (f"  {plural(len(group), 'problem')} ({parts})", "dim")]


def _diagnostic(finding, lines: list[str] | None, width: int) -> list[Segments]:
    level = finding.severity.value
    span = finding.span
    rows = [[
        (f"{line_start(located(finding.path, span))}:", "bold"),
        (" ", None),
        (level, SEVERITY_STYLE[level]),
        (f"[{finding.code} {finding.name}]", "bold"),
        (" ", None),
        (safe(finding.message), None),
    ]]
    frame = _frame(lines, span, width) if lines is not None and span.line else None
    gutter = len(str(frame[0])) if frame else 2
    blank = " " * gutter + " |"
    if frame:
        rows.append([(blank, GUTTER)])
        for kind, number, content in frame[1]:
            if kind == "src":
                rows.append([(f"{number:>{gutter}} |", GUTTER), *([(" ", None), *content] if content else [])])
            elif kind == "mark":
                carets = content.lstrip()
                indent = " " * (1 + len(content) - len(carets))
                rows.append([(blank, GUTTER), (indent, None), (carets, SEVERITY_STYLE[level])])
            else:  # "more"
                rows.append([(blank, GUTTER), (" ", None), (content, "dim")])

    note = [(" " * gutter + " ", None), ("=", GUTTER), (" ", None)]
    facts = [("pointer", _pointer(finding.pointer))]
    if finding.tool is not None:
        facts.append(("tool", safe(finding.tool)))
    if finding.checklist:
        facts.append(("checklist", ", ".join(str(i) for i in finding.checklist)))
    row = list(note)
    for i, (label, value) in enumerate(facts):
        row += [("   " if i else "", None), (f"{label}: ", "bold"), (value, None)]
    rows.append(row)
    for related in finding.related:
        if not related.span.line:  # nowhere in a file (an audit's message): the pointer says where
            rows.append([*note, (f"{safe(related.message)}: ", "bold"), (_pointer(related.pointer), "dim")])
            continue
        rows.append([
            *note,
            (f"{safe(related.message)}: ", "bold"),
            (safe(located(finding.path, related.span)), None),
            (f" ({_pointer(related.pointer)})", "dim"),
        ])
    return rows


def _pointer(pointer: str) -> str:
    if not pointer:
        return "(document root)"
    if len(pointer) > MAX_POINTER:  # a megabyte property name: its ends say where it is
        pointer = f"{pointer[: MAX_POINTER * 2 // 3]}…{pointer[-MAX_POINTER // 3 :]} ({len(pointer):,} characters)"
    return safe(pointer)


def _frame(lines: list[str], span, width: int):
    """(highest line number shown, rows) for the span, or None when it is not in the text.

    Rows are ("src", number, segments), ("mark", number, caret string) and ("more", 0, text).
    """
    first, last = span.line, span.end_line
    end_column = span.end_column
    if last > first and end_column <= 1 and last - 1 <= len(lines):  # ends at a line start
        last -= 1
        end_column = len(lines[last - 1].rstrip("\r")) + 1
    if not 1 <= first <= len(lines) or last < first:
        return None
    last = min(last, len(lines))
    shown = list(range(first, last + 1))
    elided = 0
    if len(shown) > FRAME_LINES:
        elided = len(shown) - (FRAME_LINES - 1)
        shown = shown[: FRAME_LINES - 1]
    room = max(MIN_CONTENT, min(width, FRAME_CELLS) - len(str(shown[-1])) - 3)

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
            rows.append(("src", number, _window(text, 0, 1, room)[0]))
    if elided:
        rows.append(("more", 0, f"... {plural(elided, 'more line')} to {last}:{end_column}"))
    return shown[-1], rows


def _window(text: str, start: int, stop: int, room: int) -> tuple[Segments, str]:
    """The displayed line (cropped to ``room`` cells around the span) and its caret line.

    ``start``/``stop`` are code-point offsets into ``text`` (stop exclusive). Tabs are
    expanded to TAB_SIZE stops and wide characters counted by their cell width, in the
    line and in the carets alike, so the carets stay under the span.
    """
    # Only a slice around the span is measured, so a minified megabyte line stays cheap.
    first = max(0, start - room)
    last = min(len(text), max(stop, start + 1) + room, start + 2 * room)
    cut_left, cut_right = first > 0, last < len(text)
    text, start, stop = text[first:last], start - first, stop - first
    if _PRINTABLE.fullmatch(text):
        return _window_ascii(text, start, stop, room, cut_left, cut_right)

    cells: list[tuple[str, int, bool]] = []  # (shown, cell width, escaped)
    column = 0
    for char in text:
        if " " <= char <= "~":
            cells.append((char, 1, False))
            column += 1
            continue
        escaped = False
        if char == "\t":
            shown = " " * (TAB_SIZE - column % TAB_SIZE)
        elif UNSAFE.match(char):  # controls, separators, bidi, lone surrogates
            shown, escaped = _escape_char(char), True
        else:
            shown = char
        size = _cell_len(shown)
        cells.append((shown, size, escaped))
        column += size
    start = min(start, len(cells))
    stop = min(max(stop, start + 1), len(cells) + 1)  # one cell past the end marks "end of line"

    if column <= room and not cut_left and not cut_right:
        lo, hi = 0, len(cells)
    else:
        budget = room - 2  # room for an ellipsis on each side
        before = _width(cells, 0, start)
        lo = 0
        if before + _width(cells, start, stop) + 1 > budget:  # keep a third of the room as context
            lo, used, context = start, 0, min(budget // 3, before)
            while lo > 0 and used + cells[lo - 1][1] <= context:
                lo -= 1
                used += cells[lo][1]
        hi, used = lo, 0
        while hi < len(cells) and used + cells[hi][1] <= budget:
            used += cells[hi][1]
            hi += 1
    left, right = lo > 0 or cut_left, hi < len(cells) or cut_right

    line: Segments = [("…", "dim")] if left else []
    marks = [" "] if left else []
    plain = []
    for index in range(lo, hi):
        shown, size, escaped = cells[index]
        if escaped:
            line.append(("".join(plain), None))
            line.append((shown, "dim"))
            plain = []
        else:
            plain.append(shown)
        marks.append(("^" if start <= index < stop else " ") * size)
    line.append(("".join(plain).rstrip() if not right else "".join(plain), None))
    if right:
        line.append(("…", "dim"))
    elif start <= hi < stop:
        marks.append("^")  # the span reaches the end of the line (or points just past it)
    carets = "".join(marks)
    if "^" not in carets:  # only zero-width characters: mark where the span starts
        at = (1 if left else 0) + _width(cells, lo, min(start, hi))
        carets = carets[:at].ljust(at) + "^" + carets[at + 1 :]
    return [seg for seg in line if seg[0]], carets


def _window_ascii(text: str, start: int, stop: int, room: int, cut_left: bool, cut_right: bool):
    """`_window` for printable ASCII (one cell per character): the common case, by arithmetic."""
    n = len(text)
    start = min(start, n)
    stop = min(max(stop, start + 1), n + 1)
    if n <= room and not cut_left and not cut_right:
        lo, hi = 0, n
    else:
        budget = room - 2
        lo = 0 if stop + 1 <= budget else start - min(budget // 3, start)
        hi = min(n, lo + budget)
    left, right = lo > 0 or cut_left, hi < n or cut_right
    body = text[lo:hi]
    line: Segments = [("…", "dim")] if left else []
    line.append((body if right else body.rstrip(), None))
    if right:
        line.append(("…", "dim"))
    a, b = max(start, lo), min(stop, hi if right else hi + 1)
    carets = (" " if left else "") + " " * (a - lo) + "^" * max(1, b - a)
    return [seg for seg in line if seg[0]], carets


def _cell_len(text: str) -> int:
    from rich.cells import cell_len  # wide characters: only a line that is not plain ASCII asks

    return cell_len(text)


def _width(cells, start: int, stop: int) -> int:
    return sum(cell[1] for cell in cells[start:stop])


def line_start(path: str) -> str:
    """``safe(path)`` for the start of a line: a path opening with "::" (a file named
    `::error file=README.md::x.json`, or `::stop-commands::x.json`) would be a GitHub workflow
    command in a CI log, so it is written "./::..." (the same file)."""
    shown = safe(path)
    return f"./{shown}" if shown.lstrip().startswith(":") else shown


def safe(value: str) -> str:
    """User text on one line, with controls, bidi overrides and lone surrogates made visible."""
    return printable(value.replace("\r\n", "\n").replace("\n", "⏎").replace("\t", " "))


# ---------------------------------------------------------------- summary


def _headline(findings, summary: dict) -> tuple:
    """The one-line summary: what was found in what (a "line" block)."""
    scope, extra = scope_text(summary)
    if nothing_read(summary):  # not "no problems": nothing was looked at
        return ("line", [("Nothing was linted", None), (f": {unread_text(summary)} "
                                                         "(the errors are on standard error).", None)], "bold red")
    if not findings:
        return ("line", [("No problems found", None), (f" in {scope}{extra}.", None)], "bold green")
    counts = Counter(f.severity.value for f in findings)
    line = [("Found ", None), (plural(len(findings), "problem"), "bold"), (" (", None)]
    for i, level in enumerate(level for level in LEVELS if counts[level]):
        line += [(", " if i else "", None), (plural(counts[level], level), SEVERITY_STYLE[level])]
    line.append((f") in {scope}{extra}.{left_out_text(summary)}", None))
    return ("line", line, None)


def _summary(findings, summary: dict) -> list[tuple]:
    blocks = [_headline(findings, summary), ("blank",)]
    if not findings or nothing_read(summary):
        return blocks
    rules: dict[str, tuple[str, Counter]] = {}
    for f in findings:
        rules.setdefault(f.code, (f.name, Counter()))[1][f.severity.value] += 1
    rows = []
    for code in sorted(rules):
        name, levels = rules[code]
        level = next(lv for lv in LEVELS if levels[lv])  # the most severe, if config split it
        rows.append([(code, None), (name, None), (level, SEVERITY_STYLE[level]), (str(sum(levels.values())), None)])
    columns = [("rule", "left", False), ("name", "left", False), ("severity", "left", False), ("count", "right", False)]
    return [*blocks, ("table", columns, rows), ("blank",)]


def _checklist(checklist) -> list[tuple]:
    if not checklist:
        return []
    counts = Counter(entry["status"] for entry in checklist)
    heading = ("line", [("Checklist", None), (f"  {counts['pass']} pass, {counts['fail']} fail, "
                                              f"{counts['not-assessable']} not assessable", "dim")], "bold")
    rows = []
    notes: list[str] = []  # why an item is not assessable: said once each, as numbered footnotes
    for entry in checklist:
        status = entry["status"]
        if status == "fail":
            label = f"fail ({entry.get('findings', 0)})"
        elif status == "pass":
            label = f"pass, {plural(entry['notes'], 'note')}" if entry.get("notes") else "pass"
        else:
            note = entry.get("note") or "not assessable"
            if note not in notes:
                notes.append(note)
            label = f"not assessable [{notes.index(note) + 1}]"
        rows.append([(str(entry["item"]), None), (entry["title"], None), (label, STATUS_STYLE.get(status))])
    columns = [("#", "right", False), ("item", "left", False), ("status", "left", True)]
    # the footnotes are wrapped to the width, like the table above
    return [heading, ("table", columns, rows), *(("wrap", f"[{i + 1}] {safe(note)}", "dim") for i, note in enumerate(notes))]
