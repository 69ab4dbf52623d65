"""Severity and the immutable Finding the engine builds from a rule's Violation."""

from __future__ import annotations

import enum
import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, TypeVar

from mcplint.document.span import Span
from mcplint.regex_cache import regex

# A report must stay readable whatever a file holds: one tool with a megabyte name behind
# thousands of findings would otherwise make a report of gigabytes.
MAX_MESSAGE = 500  # characters of one finding's message
MAX_QUOTE = 80  # characters of one quoted name or value within it
MAX_PER_RULE = 100  # findings of one rule in one file; the rest are counted in one note

# A quoted part of a message: rules quote names and values in '...' (or "..." as JSON). An
# apostrophe inside a word ("the user's query") does not close a quote.
# (Only an apostrophe between letters: a scan never runs past the next opening quote, so it stays linear.)
_QUOTED = regex(r"(?<![\w'])'(?:[^'\n]|(?<=\w)'(?=\w))*'(?!\w)|\"(?:[^\"\\\n]|\\.)*\"")


class Severity(str, enum.Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


@dataclass(frozen=True, slots=True)
class Related:
    message: str
    pointer: str
    span: Span


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    name: str
    severity: Severity
    message: str
    path: str
    span: Span
    pointer: str  # RFC 6901 pointer of the offending value as reported by the rule
    checklist: tuple[int, ...] = ()
    tool: str | None = None
    fingerprint: str = ""  # stable across reformatting: rule, path, pointer, value hash
    related: tuple[Related, ...] = field(default=())
    left_out: int = 0  # a left-out note: how many findings it stands for (counted in the summary)

    @property
    def sort_key(self):
        if self.span.line == 0 and "#message-" in self.path:  # audit:<name>#message-<n>: by n
            name, _, number = self.path.rpartition("#message-")
            if number.isdigit():
                return (name, int(number), 0, self.code, self.pointer)
        return (self.path, self.span.line, self.span.column, self.code, self.pointer)


# A finding about something that is not a file (a live server's listing or traffic) has a
# pseudo-location such as ``audit:weather#message-24``: a name, no line and column.
NOWHERE = Span(0, 0, 0, 0)


def is_pseudo(span: Span) -> bool:
    return span.line == 0


def located(path: str, span: Span) -> str:
    """``path:line:column``, or the pseudo-location's name alone."""
    return path if span.line == 0 else f"{path}:{span.line}:{span.column}"


def anchor_of(path: str, anchors: dict) -> tuple[str, int] | None:
    """The config file line that declares the server a pseudo-location names, if known
    (``anchors``: ``server:weather`` / ``audit:weather`` -> (config path, line))."""
    return anchors.get(path.split("#", 1)[0]) if anchors else None


def excerpt(value: str, limit: int = MAX_QUOTE) -> str:
    """A name or value as a report shows it: whole when short, else its start and its length."""
    if len(value) <= limit:
        return value
    return f"{value[:limit]}… ({len(value):,} characters)"


def bounded(message: str) -> str:
    """``message`` cut to ``MAX_MESSAGE`` characters: its longest quoted parts are shortened
    first (``'aaaa…' (1,000,000 characters)``), then, if still too long, its end."""
    if len(message) <= MAX_MESSAGE:
        return message
    quotes = sorted(
        (m for m in _QUOTED.finditer(message) if m.end() - m.start() > MAX_QUOTE + 2),
        key=lambda m: m.start() - m.end(),
    )
    excess, chosen = len(message) - MAX_MESSAGE, []
    for match in quotes:
        if excess <= 0:
            break
        mark, inner = match.group()[0], match.group()[1:-1]
        shorter = f"{mark}{inner[:MAX_QUOTE]}…{mark} ({len(inner):,} characters)"
        chosen.append((match.start(), match.end(), shorter))
        excess -= match.end() - match.start() - len(shorter)
    parts, at = [], 0
    for start, end, shorter in sorted(chosen):
        parts += [message[at:start], shorter]
        at = end
    shortened = "".join(parts) + message[at:]
    if len(shortened) <= MAX_MESSAGE:
        return shortened
    tail = f"… ({len(message):,} characters)"
    return shortened[: MAX_MESSAGE - len(tail)] + tail


Item = TypeVar("Item")


def cap_per_rule(items: list[Item], code: Callable[[Item], str], limit: int = MAX_PER_RULE,
                 counts: Counter | None = None) -> tuple[list[Item], dict[str, tuple[Item, int]]]:
    """The first ``limit`` items of each rule, and for each rule that had more: its first
    item left out and how many were left out. ``counts``: how many each rule had, when
    ``items`` holds only the first ones of each (at least ``limit + 1`` of a rule that had more)."""
    if counts is None:
        counts = Counter(map(code, items))
    if not counts or max(counts.values()) <= limit:
        return items, {}
    kept, left_out, seen = [], {}, Counter()
    for item in items:
        key = code(item)
        seen[key] += 1
        if seen[key] <= limit:
            kept.append(item)
        elif key not in left_out:
            left_out[key] = (item, counts[key] - limit)
    return kept, left_out


def left_out_note(first: Finding, count: int, limit: int = MAX_PER_RULE) -> Finding:
    """The one finding that stands for the findings of a rule beyond ``limit`` in a file,
    placed where the first of them was. Its fingerprint names only the rule and the file,
    so a baseline keeps matching it as the count changes."""
    digest = hashlib.sha256(f"{first.code}\0{first.path}\0left-out".encode()).hexdigest()[:32]
    return Finding(
        code=first.code, name=first.name, severity=first.severity,
        message=f"{count:,} more findings of {first.code} in this file were left out "
                f"(a report shows at most {limit} per rule per file)",
        path=first.path, span=first.span, pointer=first.pointer, checklist=first.checklist,
        fingerprint=digest, left_out=count,
    )


# Findings in one report: a folder of small files has no other bound. GitHub code scanning takes
# at most 25,000 results of a SARIF run, and no one reads more in any format.
MAX_REPORTED = 25_000
REPORT_LIMIT = "report-limit"  # the fingerprint of the note that stands for the findings past it


def within_report_limit(findings: list[Finding], limit: int | None = None) -> list[Finding]:
    """``findings`` sorted, at most ``limit`` of them (the first by location): one note, at the
    first left out and as severe as the worst, stands for the rest (so exit codes do not change).
    Applied again as findings come, so that a run never holds much more than twice the limit
    (1,500 small manifests had made 634,000 findings and a 9 GB SARIF report)."""
    limit = MAX_REPORTED if limit is None else limit
    ordered = sorted(findings, key=lambda f: f.sort_key)
    notes = [f for f in ordered if f.fingerprint == REPORT_LIMIT]
    plain = [f for f in ordered if f.fingerprint != REPORT_LIMIT] if notes else ordered
    if len(plain) <= limit and not notes:
        return ordered
    kept, rest = plain[:limit], plain[limit:]
    count = sum(f.left_out or 1 for f in rest) + sum(n.left_out for n in notes)
    worst = max((f.severity for f in (*rest, *notes)), key=lambda level: level.rank)
    first = min((*rest[:1], *notes), key=lambda f: f.sort_key)
    note = Finding(code=first.code, name=first.name, severity=worst, path=first.path, span=first.span,
                   pointer=first.pointer, fingerprint=REPORT_LIMIT, left_out=count,
                   message=f"{count:,} more findings were left out here and after (a report keeps at most "
                           f"{limit:,})")
    return kept + [note]


def capped(findings: list[Finding], limit: int = MAX_PER_RULE) -> list[Finding]:
    """At most ``limit`` findings of each rule (those first in the file), plus one note per
    rule that had more."""
    ordered = sorted(findings, key=lambda f: f.sort_key)
    kept, left_out = cap_per_rule(ordered, lambda f: f.code, limit)
    if not left_out:
        return findings
    return kept + [left_out_note(first, count, limit) for first, count in left_out.values()]
