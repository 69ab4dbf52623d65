"""`--format github`: GitHub Actions workflow commands, one annotation per finding.

    ::error file=m.json,line=7,endLine=7,col=12,endColumn=20,title=MCP204 duplicate-tool-name::Tool name ...

Findings are wrapped in one ``::group::`` per file; a plain summary line ends the
output. GitHub shows at most 10 error and 10 warning annotations per step, so the
full list stays readable in the log.
"""

from __future__ import annotations

from collections import Counter

from mcplint.findings import anchor_of
from mcplint.summary import nothing_read, scope_text, unread_text
from mcplint.text_safety import printable

COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(value: str) -> str:
    """Escape a command's message (the part after ``::``): the runner's own escapes for
    ``%``, CR and LF (it decodes them back, so a message cannot end the line and start a
    command of its own), then every other control, bidi character or lone surrogate shown as
    ``<U+XXXX>`` (ESC, BEL, NUL... would otherwise reach the log raw)."""
    return printable(value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(value: str) -> str:
    """Escape a property value (``file=``, ``title=``...): also ``:`` and ``,``."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(finding, anchors=None) -> str:
    span = finding.span
    message = finding.message
    if span.line == 0:  # a live server's listing or traffic: on the config entry that declares it, if known
        anchor = anchor_of(finding.path, anchors)
        props = [("file", anchor[0]), ("line", anchor[1])] if anchor else []
        message = f"{finding.path}: {message}"
    else:
        props = [("file", finding.path), ("line", span.line), ("endLine", span.end_line)]
        if span.line == span.end_line:  # GitHub only honours columns on single-line annotations
            props += [("col", span.column), ("endColumn", span.end_column)]
    props.append(("title", f"{finding.code} {finding.name}"))
    rendered = ",".join(f"{key}={escape_property(str(value))}" for key, value in props)
    return f"::{COMMAND[finding.severity.value]} {rendered}::{escape_data(message)}"


def render(findings, ctx) -> str:
    lines: list[str] = []
    by_file: dict[str, list] = {}
    for finding in findings:
        by_file.setdefault(finding.path, []).append(finding)
    for path, group in by_file.items():
        lines.append(f"::group::{escape_data(path)}")
        lines.extend(annotation(f, ctx.extra.get("anchors")) for f in group)
        lines.append("::endgroup::")
    lines.extend(failure_annotation(failure) for failure in ctx.failures)
    lines.append(_summary_line(findings, ctx.summary or {}))
    return "\n".join(lines) + "\n"


def failure_annotation(failure) -> str:
    """An input that could not be read: an error annotation on the file, so the run is red."""
    props = [("title", "mcplint: cannot read input")]
    if failure.path is not None:
        props = [("file", failure.path), *([("line", failure.line)] if failure.line else []), *props]
    rendered = ",".join(f"{key}={escape_property(str(value))}" for key, value in props)
    return f"::error {rendered}::{escape_data(failure.message)}"


def _summary_line(findings, summary: dict) -> str:
    scope = scope_text(summary)[0]
    unread = f", {unread_text(summary)}" if summary.get("errors") else ""
    if nothing_read(summary):
        return f"mcplint: nothing was linted: {unread_text(summary)}"
    if not findings:
        return f"mcplint: no problems found in {scope}{unread}"
    counts = Counter(f.severity.value for f in findings)
    parts = ", ".join(_plural(counts[level], level) for level in ("error", "warning", "info") if counts[level])
    return f"mcplint: {_plural(len(findings), 'problem')} ({parts}) in {scope}{unread}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 or noun == "info" else f"{count} {noun}s"
