"""The Markdown summary ``check --format github`` appends to ``$GITHUB_STEP_SUMMARY``.

GitHub shows only 10 error and 10 warning annotations per step; the job summary page shows
this instead: counts by severity and rule, the findings (the first ``MAX_ROWS``), and the
checklist verdicts. Pure: ``render_summary(findings, ctx) -> str``; the command appends it.

Text from the linted files (messages quote tool names and descriptions) is escaped, so a
manifest cannot add links (web or mailto:), images, HTML or table cells to the summary.
"""

from __future__ import annotations

from collections import Counter

from mcplint.findings import located
from mcplint.regex_cache import regex
from mcplint.summary import nothing_read, plural, scope_text, unread_text
from mcplint.text_safety import printable

MAX_ROWS = 50
MAX_MESSAGE = 300
LEVELS = ("error", "warning", "info")
ICON = {"error": ":x:", "warning": ":warning:", "info": ":information_source:"}
STAR = "\\*"  # a footnote mark, escaped: a bare "*" would start a list or emphasis
VERDICT = {"pass": ":white_check_mark: pass", "fail": ":x: fail", "not-assessable": "not assessable"}

_MARKDOWN = regex(r"([\\`*_{}\[\]()#+!|~])")
_WWW = regex(r"(?i)(?<![a-z0-9])(www)\.")
_EMAIL_AT = regex(r"(?<=[\w.+-])@(?=[\w-]+(?:\\?\.[\w-]+)+)")  # an address's "@" (its dots may be escaped)


def md(value: str) -> str:
    """User text for one Markdown table cell: one line, no markup, no HTML."""
    value = value.replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")
    value = printable(value)  # controls, separators, bidi, lone surrogates: <U+XXXX>
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # No bare-URL autolinks either: GFM links "https://...", "www...." and "user@host.tld". An escape
    # breaks the first two; an e-mail's autolink survives any escape, so its "@" is set as code
    # (`@`, shown as written). All three checked with cmark-gfm.
    value = _WWW.sub(r"\1\\.", _MARKDOWN.sub(r"\\\1", value).replace("://", "\\://"))
    return _EMAIL_AT.sub("`@`", value) if "@" in value else value


def render_summary(findings, ctx) -> str:
    summary = ctx.summary or {}
    out = ["## mcplint", "", _headline(findings, summary), ""]
    if findings:
        out += _by_rule(findings) + [""] + _findings(findings) + [""]
    if ctx.failures:
        out += _unread(ctx.failures) + [""]
    out += _checklist(summary.get("checklist", []))
    return "\n".join(out) + "\n"


def _headline(findings, summary: dict) -> str:
    scope, extra = scope_text(summary)
    if nothing_read(summary):
        return f":x: **Nothing was linted**: {unread_text(summary)}."
    if not findings:
        return f":white_check_mark: **No problems found** in {scope}{extra}."
    counts = Counter(f.severity.value for f in findings)
    levels = ", ".join(f"{ICON[lv]} {plural(counts[lv], lv)}" for lv in LEVELS if counts[lv])
    return f"**{plural(len(findings), 'problem')}** ({levels}) in {scope}{extra}."


def _by_rule(findings) -> list[str]:
    rules: dict[str, tuple[str, Counter]] = {}
    for f in findings:
        rules.setdefault(f.code, (f.name, Counter()))[1][f.severity.value] += 1
    rows = ["| Rule | Name | Severity | Count |", "| --- | --- | --- | ---: |"]
    for code in sorted(rules):
        name, levels = rules[code]
        level = next(lv for lv in LEVELS if levels[lv])  # the most severe, if config split it
        rows.append(f"| `{code}` | {md(name)} | {level} | {sum(levels.values())} |")
    return rows


def _findings(findings) -> list[str]:
    rows = ["### Findings", "", "| | Rule | Location | Message |", "| --- | --- | --- | --- |"]
    for f in findings[:MAX_ROWS]:
        message = f.message if len(f.message) <= MAX_MESSAGE else f.message[: MAX_MESSAGE - 1] + "…"
        where = located(f.path, f.span)
        rows.append(f"| {ICON[f.severity.value]} | `{f.code}` {md(f.name)} | {md(where)} | {md(message)} |")
    if len(findings) > MAX_ROWS:
        more = len(findings) - MAX_ROWS
        rows += ["", f"…and {more} more: the job log, the annotations and the SARIF report have them all."]
    return rows


def _unread(failures) -> list[str]:
    rows = ["### Inputs that could not be read", "", "| File | Error |", "| --- | --- |"]
    for failure in failures[:MAX_ROWS]:
        rows.append(f"| {md(failure.path or '')} | {md(failure.message)} |")
    if len(failures) > MAX_ROWS:
        rows += ["", f"…and {len(failures) - MAX_ROWS} more: the job log has them all."]
    return rows


def _checklist(checklist) -> list[str]:
    if not checklist:
        return []
    counts = Counter(entry["status"] for entry in checklist)
    rows = [
        f"### Checklist: {counts['pass']} pass, {counts['fail']} fail, {counts['not-assessable']} not assessable",
        "",
        "| # | Item | Verdict |",
        "| ---: | --- | --- |",
    ]
    notes: list[str] = []
    for entry in checklist:
        status = entry["status"]
        verdict = VERDICT.get(status, status)
        if status == "fail":
            verdict += f" ({entry.get('findings', 0)})"
        elif status == "pass" and entry.get("notes"):  # info findings: notes, as in the terminal report
            verdict += f", {plural(entry['notes'], 'note')}"
        elif status == "not-assessable" and entry.get("note"):
            if entry["note"] not in notes:
                notes.append(entry["note"])
            verdict += STAR * (notes.index(entry["note"]) + 1)
        title = entry["title"].replace("|", "\\|")  # our own text: Markdown, but one cell
        rows.append(f"| {entry['item']} | {title} | {verdict} |")
    if notes:
        rows.append("")
        # escaped: an audit's reasons name the server's tools and quote what its probes saw
        rows.extend(f"{STAR * (i + 1)} {md(note)}" for i, note in enumerate(notes))
    return rows

