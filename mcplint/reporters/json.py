"""`--format json`: one object, {"findings": [...], "summary": {...}}, and "errors": [...]
when some input could not be read (then, if none could, the summary has no checklist).

Strings are written as they are, except the characters a terminal would obey and lone
surrogates, which are ``\\uXXXX`` escapes (the same JSON value; see mcplint.text_safety).
"""

from __future__ import annotations

import json

from mcplint.text_safety import json_text


def _position(span) -> dict:
    """Line and column; null for a pseudo-location (a live server's listing or traffic)."""
    if span.line == 0:
        return {"line": None, "column": None, "end_line": None, "end_column": None}
    return {"line": span.line, "column": span.column, "end_line": span.end_line, "end_column": span.end_column}


def finding_dict(f) -> dict:
    return {
        "rule": f.code,
        "name": f.name,
        "checklist": list(f.checklist),
        "severity": f.severity.value,
        "message": f.message,
        "path": f.path,
        **_position(f.span),
        "pointer": f.pointer,
        "tool": f.tool,
        "fingerprint": f.fingerprint,
        "related": [
            {"message": r.message, "pointer": r.pointer, **_position(r.span)}
            for r in f.related
        ],
    }


def render(findings, ctx) -> str:
    # One finding per line: greppable, diffable, and encoded by the C encoder
    # (indent= falls back to the pure-Python one, 10x slower on large reports).
    lines = ",\n".join("    " + json.dumps(finding_dict(f), ensure_ascii=False) for f in findings)
    summary = json.dumps(ctx.summary, indent=2, ensure_ascii=False).replace("\n", "\n  ")
    body = f"[\n{lines}\n  ]" if findings else "[]"
    errors = ""
    if ctx.failures:
        listed = ",\n".join("    " + json.dumps(failure_dict(f), ensure_ascii=False) for f in ctx.failures)
        errors = f',\n  "errors": [\n{listed}\n  ]'
    return json_text(f'{{\n  "findings": {body},\n  "summary": {summary}{errors}\n}}\n')


def failure_dict(failure) -> dict:
    return {"path": failure.path, "line": failure.line, "message": failure.message}
