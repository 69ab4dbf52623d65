"""Suppression comments in YAML manifests, and unused suppressions (MCP001).

Forms (RULE is a code, a code prefix, a rule name or ALL; several are comma-separated;
an optional reason may follow after `` -- `` or another ``#``):

- ``key: value  # mcplint: disable=RULE``: a trailing comment silences findings whose
  location starts on that line.
- ``# mcplint: disable=RULE`` alone on its line: silences findings on the next line that
  is neither blank nor a comment, and everywhere inside the member that starts there
  (above ``- name: foo`` it silences the whole tool; above ``inputSchema:`` the schema).
- ``# mcplint: disable-file=RULE`` anywhere: silences findings in the whole file.

Only real YAML comments count: a ``#`` inside a quoted or block scalar (or a key) is
text, decided from the parser's own scalar locations. JSON has no comments; there,
per-file-ignores with ``glob#/json/pointer`` and the baseline do this job.

Unused suppressions are findings of MCP001, computed here because they depend on what
the other rules found. A suppression is reported unused only when it could have been
used in this run: every rule it names that applies to the document at its protocol
version was selected (a suppression for a rule that did not run may be used when that
rule runs: ``--select MCP2`` never reports a ``disable=MCP101``), at least one such
rule exists, and it silenced nothing. Unknown rules, malformed ``# mcplint:`` comments
and comments that try to silence MCP001 itself are always reported while MCP001 runs.
MCP001 findings are not silenced by comments (that would be circular); ignore MCP001
in the config instead.
"""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass, field

from mcplint import registry
from mcplint.document.pointer import Pointer
from mcplint.document.span import Span
from mcplint.errors import MCPLintError
from mcplint.findings import Finding
from mcplint.regex_cache import regex

UNUSED = "MCP001"
MARK = "mcplint:"
_DIRECTIVE = regex(r"#\s*mcplint:\s*(.*)$")  # "mcplint:" is MARK, the pre-check
_FORM = regex(r"(disable-file|disable)\s*=\s*([^\s,]+(?:\s*,\s*[^\s,]+)*)(.*)$")
_REASON = regex(r"\s+(--|#)(\s.*)?$|\s*$")  # a reason after " -- " (or another "#")
_SKIPPED_LINE = regex(r"\s*(#.*)?$|---\s*$|%")  # blank, comment, document start, directive


@dataclass
class Directive:
    line: int  # 1-based, of the comment
    column: int  # of its '#'
    end_column: int
    text: str
    scope: str  # "line" (trailing), "node" (own line), "file", "bad" (malformed)
    rules: dict[str, frozenset[str] | None] = field(default_factory=dict)  # token -> codes (None: unknown)
    target_line: int | None = None  # the comment's line (trailing) or the next content line (own line)
    target: Pointer | None = None  # the outermost member starting on target_line
    used: set[str] = field(default_factory=set)


def present(document) -> bool:
    """Cheap test: can this document hold suppression comments at all?"""
    return document.format == "yaml" and MARK in document.text


def apply(findings: list[Finding], manifest, plan, version: str) -> list[Finding]:
    """Drop findings silenced by comments; add MCP001 findings when that rule runs."""
    document = manifest.document
    if not present(document):
        return findings
    directives = parse(document)
    if not directives:
        return findings
    index = _Index(directives)
    kept = [f for f in findings if not index.silence(f)]
    rule = plan.rule(UNUSED)
    if rule is not None:
        kept.extend(_unused(directives, manifest, plan, version, rule))
    return kept


class _Index:
    """Directives by where they apply and by the codes they name, so that each finding
    looks up a few entries: a file can hold 20,000 comments that all name one line."""

    def __init__(self, directives: list[Directive]) -> None:
        # place -> code -> (directive, token) pairs not yet marked used; a place is
        # "file", a line number, or a target pointer's text
        self.places: dict[object, dict[str, list[tuple[Directive, str]]]] = {}
        self.has_targets = False
        for directive in directives:
            if directive.scope == "file":
                places = ["file"]
            elif directive.scope == "line":
                places = [directive.line]
            elif directive.scope == "node" and directive.target_line is not None:
                places = [directive.target_line]
                if directive.target is not None:
                    places.append(str(directive.target))
                    self.has_targets = True
            else:
                continue
            for place in places:
                by_code = self.places.setdefault(place, {})
                for token, codes in directive.rules.items():
                    for code in codes or ():
                        by_code.setdefault(code, []).append((directive, token))

    def silence(self, finding: Finding) -> bool:
        places = ["file", finding.span.line]
        if self.has_targets:
            pointer = finding.pointer
            places.extend(pointer[:end] for end in [i for i, char in enumerate(pointer) if char == "/" and i]
                          + [len(pointer)])
        silenced = False
        for place in places:
            pending = self.places.get(place, {}).get(finding.code)
            if pending is not None:
                silenced = True
                for directive, token in pending:
                    directive.used.add(token)
                pending.clear()  # marked once; the code stays silenced here
        return silenced


# -- finding the comments --------------------------------------------------------


def parse(document) -> list[Directive]:
    """Every ``# mcplint:`` comment in a YAML document, with its scope resolved."""
    lines = document.text.split("\n")
    candidates = [i for i, line in enumerate(lines, 1) if MARK in line]
    if not candidates:
        return []
    source_map = document.source_map
    scalars = _scalar_spans(document, set(candidates))
    after: dict[int, int | None] = {}  # shared by _next_content_line: 20,000 comments in a row stay linear
    directives = []
    for number in candidates:
        line = lines[number - 1].rstrip("\r")
        start = _comment_start(line, number, scalars.get(number, ()))
        if start is None:
            continue
        match = _DIRECTIVE.match(line, start)
        if match is None:
            continue
        directive = _directive(match.group(1), line[start:].rstrip(), number, start + 1, len(line) + 1)
        own_line = not line[:start].strip()
        if directive.scope == "node" and not own_line:
            directive.scope = "line"
        directive.target_line = _next_content_line(lines, number, after) if own_line else number
        directives.append(directive)
    members = _members_starting(source_map, {d.target_line for d in directives} - {None})
    for directive in directives:
        if directive.scope != "file":  # malformed ones too: the pointer says where they are
            directive.target = members.get(directive.target_line)
    return directives


def _directive(body: str, text: str, line: int, column: int, end_column: int) -> Directive:
    form = _FORM.match(body)
    if form is None or not _REASON.match(form.group(3)):
        return Directive(line, column, end_column, text, "bad")
    kind, tokens, _ = form.groups()
    rules: dict[str, frozenset[str] | None] = {}
    for token in (t.strip() for t in tokens.split(",")):
        try:
            rules[token] = frozenset(r.code for r in registry.find(token))
        except MCPLintError:
            rules[token] = None
    return Directive(line, column, end_column, text, "file" if kind == "disable-file" else "node", rules)


def _comment_start(line: str, number: int, scalars) -> int | None:
    """0-based index of the '#' that starts a real comment on this line, if any."""
    covered = _covered(number, scalars)
    starts = [start for start, _ in covered]
    index = line.find("#")
    while index != -1:
        if index == 0 or line[index - 1] in " \t":
            column = index + 1
            inside = bisect.bisect_right(starts, column) - 1  # a binary search: a line can hold 100k scalars
            if inside < 0 or column >= covered[inside][1]:
                return index
        index = line.find("#", index + 1)
    return None


def _covered(line: int, spans) -> list[tuple[float, float]]:
    """The columns of ``line`` inside the spans, as sorted disjoint [start, end) ranges."""
    ranges = sorted(
        (span.column if span.line == line else 0, span.end_column if span.end_line == line else float("inf"))
        for span in spans
    )
    merged: list[tuple[float, float]] = []
    for start, end in ranges:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _scalar_spans(document, lines: set[int]) -> dict[int, list[Span]]:
    """Spans of keys and scalar values that touch ``lines``, by line."""
    source_map = document.source_map
    ordered = sorted(lines)
    low, high = ordered[0], ordered[-1]
    found: dict[int, list[Span]] = {}

    def touched(span: Span):
        if span.line == span.end_line:
            return (span.line,) if span.line in lines else ()
        return ordered[bisect.bisect_left(ordered, span.line):bisect.bisect_right(ordered, span.end_line)]

    for span in source_map._key_spans.values():
        for number in touched(span):
            found.setdefault(number, []).append(span)
    for path, span in source_map._spans.items():
        if span.line <= high and span.end_line >= low:
            numbers = touched(span)
            if numbers and _is_scalar(document.data, path):
                for number in numbers:
                    found.setdefault(number, []).append(span)
    return found


def _is_scalar(data, path: tuple) -> bool:
    value = data
    for token in path:
        try:
            value = value[int(token)] if isinstance(value, list) else value[token]
        except (KeyError, IndexError, TypeError, ValueError):
            return False  # merged ("<<") members: never a place for comments we care about
    return not isinstance(value, (dict, list))


def _next_content_line(lines: list[str], number: int, after: dict[int, int | None]) -> int | None:
    """The first line after ``number`` that is neither blank nor a comment. ``after`` remembers,
    for each skipped line seen, the answer from there on, so each line is read once per document."""
    skipped = []
    following = number + 1
    found = None
    while following <= len(lines):
        if following in after:
            found = after[following]
            break
        if not _SKIPPED_LINE.match(lines[following - 1]):
            found = following
            break
        skipped.append(following)
        following += 1
    for line in skipped:
        after[line] = found
    return found


def _members_starting(source_map, lines: set) -> dict[int, Pointer]:
    """For each line, the outermost mapping member (by its key) or sequence item that
    starts there: the node a comment above that line is about."""
    found: dict[int, tuple] = {}

    def offer(line: int, path: tuple) -> None:
        if line in lines and "<<" not in path and (line not in found or len(path) < len(found[line])):
            found[line] = path

    for path, span in source_map._key_spans.items():
        offer(span.line, path)
    for path, span in source_map._spans.items():
        if path and path not in source_map._key_spans and path[-1].isdigit():
            offer(span.line, path)
    return {line: Pointer(path) for line, path in found.items()}


# -- MCP001 ------------------------------------------------------------------------


def _unused(directives: list[Directive], manifest, plan, version: str, rule) -> list[Finding]:
    selected = plan.codes
    applicable = {
        r.code for r in registry.catalog() if version in r.versions and manifest.kind in r.applies_to
    }
    found = []
    for directive in directives:
        if directive.scope == "bad":
            found.append(_finding(rule, plan, manifest, directive, "", (
                f"Malformed suppression comment '{directive.text}'; write "
                "'# mcplint: disable=RULE[,RULE...]' or '# mcplint: disable-file=RULE[,RULE...]'"
            )))
            continue
        for token, codes in directive.rules.items():
            message = None
            if codes is None:
                message = (
                    f"Suppression comment names unknown rule '{token}'; use a code, code prefix or "
                    "name from `mcplint rules`, or ALL"
                )
            elif codes == {UNUSED}:
                message = (
                    f"'{token}' cannot be silenced by a comment (it reports on the comments "
                    f"themselves); ignore {UNUSED} in the config instead"
                )
            elif token not in directive.used:
                relevant = codes & applicable
                if relevant and relevant <= selected:
                    message = _unused_message(token, directive.scope)
            if message:
                found.append(_finding(rule, plan, manifest, directive, token, message))
    return found


def _unused_message(token: str, scope: str) -> str:
    what = "" if token.upper() == "ALL" else f"{token} "
    where = {
        "line": "starts on this line",
        "node": "is on the line or in the node below",
        "file": "is in this file",
    }[scope]
    return f"Suppression of '{token}' is unused: no {what}finding {where}; remove it from the comment"


def _finding(rule, plan, manifest, directive: Directive, token: str, message: str) -> Finding:
    from mcplint.fingerprints import logical_pointer

    target = directive.target if directive.target is not None else Pointer()
    logical = logical_pointer(manifest, target)
    payload = f"{rule.code}\0{manifest.path}\0{logical}\0{directive.scope}\0{token}"
    return Finding(
        code=rule.code,
        name=rule.name,
        severity=plan.severity.get(rule.code, rule.severity),
        message=message,
        path=manifest.path,
        span=Span(directive.line, directive.column, directive.line, directive.end_column),
        pointer=str(target),
        checklist=tuple(rule.checklist),
        tool=manifest.tool_name_at(target),
        fingerprint=hashlib.sha256(payload.encode()).hexdigest()[:32],
    )


# -- per-file-ignores that silenced nothing -----------------------------------------


def unused_config_ignores(config, plan, files) -> list[str]:
    """Warnings for per-file-ignores entries that matched no finding in this run, when
    every rule they name was selected and their glob covers at least one linted file
    (a run over some files, as pre-commit does, cannot judge entries for the others)."""
    if not plan.per_file_ignores:
        return []
    from mcplint.per_file_ignores import relative as _relative

    selected = plan.codes
    linted = [_relative(f.path, plan.root) for f in files]
    warnings = []
    for index, (pattern, (compiled, _, codes)) in enumerate(zip(config.per_file_ignores, plan.per_file_ignores)):
        if index in plan.used_ignores or not codes <= selected:
            continue
        covered = sum(1 for path in linted if compiled.match(path))
        if covered:
            warnings.append(
                f"{config.source or 'config'}: per-file-ignores entry '{pattern}' silenced no finding "
                f"in the {covered} file(s) it covers; remove it or fix the pattern"
            )
    return warnings
