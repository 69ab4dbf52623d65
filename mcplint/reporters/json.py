"""`--format json`: one object, {"findings": [...], "summary": {...}}."""

from __future__ import annotations

import json


def finding_dict(f) -> dict:
    return {
        "rule": f.code,
        "name": f.name,
        "checklist": list(f.checklist),
        "severity": f.severity.value,
        "message": f.message,
        "path": f.path,
        "line": f.span.line,
        "column": f.span.column,
        "end_line": f.span.end_line,
        "end_column": f.span.end_column,
        "pointer": f.pointer,
        "tool": f.tool,
        "fingerprint": f.fingerprint,
        "related": [
            {"message": r.message, "pointer": r.pointer, "line": r.span.line, "column": r.span.column,
             "end_line": r.span.end_line, "end_column": r.span.end_column}
            for r in f.related
        ],
    }


def render(findings, ctx) -> str:
    payload = {"findings": [finding_dict(f) for f in findings], "summary": ctx.summary}
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
