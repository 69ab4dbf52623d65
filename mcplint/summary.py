"""Counts and the checklist verdicts, computed once for every reporter."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mcplint.checklist import ITEMS, NOT_ASSESSABLE_HINT
from mcplint.findings import MAX_PER_RULE, MAX_REPORTED, REPORT_LIMIT, Finding
from mcplint.regex_cache import regex
from mcplint.text_safety import printable


def summarize(findings: list[Finding], rules, files, skipped=(), errors=(), server_errors: int = 0) -> dict:
    """``server_errors``: how many of ``errors`` are servers that could not be started or listed
    (the rest are inputs that could not be read)."""
    # A left-out note stands for the findings it counts: the counts are of all of them (launchdarkly's
    # 199 MCP311 findings were counted as 101, 100 shown and the note).
    by_severity, by_rule, per_item, notes = Counter(), Counter(), Counter(), Counter()
    for f in findings:
        weight = f.left_out or 1 if f.fingerprint != REPORT_LIMIT else 1  # that note spans rules
        by_severity[f.severity.value] += weight
        by_rule[f.code] += weight
        for item in f.checklist:
            per_item[item] += weight
            if f.severity.value == "info":
                notes[item] += weight
    covering: dict[int, list[str]] = {}
    for rule in rules:
        for item in rule.checklist:
            covering.setdefault(item, []).append(rule.code)
    checklist = []
    for item, title in ITEMS.items() if files else ():  # nothing read: no verdict at all
        codes = covering.get(item, [])
        why = _unassessed(item, files)
        if per_item[item] > notes[item]:  # info findings are notes: they never fail an item
            status = "fail"
        elif not codes or why is not None:
            status = "not-assessable"
        else:
            status = "pass"
        entry = {"item": item, "title": title, "status": status, "findings": per_item[item], "rules": codes}
        if status == "not-assessable":
            entry["note"] = why or NOT_ASSESSABLE_HINT
        elif status == "pass" and notes[item]:
            entry["notes"] = notes[item]
        checklist.append(entry)
    captures = [f for f in files if getattr(f, "is_capture", False)]
    servers = [f for f in files if getattr(f, "shape", None) == "server"]  # a configured server's listing
    return {
        "files": len(files) - len(captures) - len(servers),
        "captures": len(captures),
        "servers": len(servers),
        "tools": sum(f.tools for f in files),
        "skipped": len(skipped),
        "errors": len(errors),
        **({"server_errors": server_errors} if server_errors else {}),
        "findings": len(findings),
        # findings beyond the per-rule cap, each set stood for by one note (present when some were)
        **({"left_out": left_out} if (left_out := sum(f.left_out for f in findings)) else {}),
        "by_severity": {level: by_severity.get(level, 0) for level in ("error", "warning", "info")},
        "by_rule": dict(sorted(by_rule.items())),
        "protocol_versions": sorted({f.version for f in files}),
        "checklist": checklist,
    }


def left_out_text(summary: dict) -> str:
    """' N more were left out (...)' when the per-rule cap left findings out, else ''."""
    count = summary.get("left_out")
    if not count:
        return ""
    overall = f", and {MAX_REPORTED:,} in all" if summary["findings"] > MAX_REPORTED else ""
    return f" {count:,} more were left out (a report shows at most {MAX_PER_RULE} per rule per file{overall})."


def unread_text(summary: dict) -> str:
    """What failed, as "2 files could not be read and 1 server could not be started or listed"."""
    servers = summary.get("server_errors", 0)
    files = summary.get("errors", 0) - servers
    parts = ([f"{plural(files, 'file')} could not be read"] if files else []) + \
        ([f"{plural(servers, 'server')} could not be started or listed"] if servers else [])
    return " and ".join(parts)


def nothing_read(summary: dict) -> bool:
    """Every input failed: the report must not look like a clean run."""
    return bool(summary.get("errors")) and not any(summary.get(k) for k in ("files", "captures", "servers"))


@dataclass(frozen=True)
class ReadFailure:
    """An input that could not be read, for reports: its path (None when the message names
    no input we know) and the line the error is at, if it says."""

    path: str | None
    message: str  # the whole one-line error, as printed on stderr
    line: int | None = None


_AT_LINE = regex(r":(\d{1,18}):\d+: ")


def read_failures(messages, paths: dict[str, str]) -> list[ReadFailure]:
    """The engine's error lines matched to the inputs they start with (``path: ...`` or
    ``path:line:col: ...``; the longest known path wins, as paths may hold colons).
    ``paths``: each way a message may name an input -> the path reports show for it."""
    failures = []
    for message in messages:
        named = next((message[:i] for i in range(len(message) - 1, 0, -1)
                      if message[i] == ":" and message[:i] in paths), None)
        line = None
        if named is not None and (at := _AT_LINE.match(message, len(named))):
            line = int(at.group(1))
        failures.append(ReadFailure(paths.get(named), message, line))
    return failures


def _unassessed(item: int, files) -> str | None:
    """None when some file gave evidence for the item; else why none could (distinct reasons)."""
    reasons: list[str] = []
    for report in files:
        why = getattr(report, "unassessed", {}).get(item)
        if why is None:
            return None
        if why not in reasons:
            reasons.append(why)
    return "; ".join(reasons) if reasons else None


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 or noun == "info" else f"{count} {noun}s"


def scope_text(summary: dict) -> tuple[str, str]:
    """("N manifests (T tools)", ", protocol version V, ...") for report headlines."""
    parts = []
    if summary.get("files", 0) or not (summary.get("captures") or summary.get("servers")):
        parts.append(plural(summary.get("files", 0), "manifest"))
    if summary.get("captures"):
        parts.append(plural(summary["captures"], "capture"))
    if summary.get("servers"):
        parts.append(plural(summary["servers"], "server"))
    scope = f"{' and '.join(parts)} ({plural(summary.get('tools', 0), 'tool')})"
    tail = []
    if summary.get("protocol_versions"):
        tail.append(printable(f"protocol version {', '.join(summary['protocol_versions'])}"))  # a capture's words
    if summary.get("skipped"):
        tail.append(f"{plural(summary['skipped'], 'file')} skipped")
    if summary.get("errors"):
        tail.append(unread_text(summary))
    return scope, "".join(f", {part}" for part in tail)
