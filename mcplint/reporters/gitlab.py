"""`--format gitlab`: a GitLab Code Quality report (``artifacts: reports: codequality:``).

A JSON array of ``{"description", "check_name", "fingerprint", "severity", "location":
{"path", "lines": {"begin"}}}``. Severities: error -> ``major``, warning -> ``minor``, info ->
``info`` (``critical`` and ``blocker`` are left for worse than a failing lint, as ESLint's
GitLab formatter does). GitLab compares findings between the merge request and its target by
``fingerprint`` and shows one finding per fingerprint, so each must be unique and stable:
mcplint's own fingerprint (rule, file, tool name, offending value; no line numbers), with a
repeat count hashed in when one finding shares it with an earlier one.

An input that could not be read is a ``critical`` issue (``check_name`` ``mcplint-input-error``)
on that file, so a run that read nothing is never an empty, clean report.
"""

from __future__ import annotations

import hashlib
import json

from mcplint.findings import anchor_of
from mcplint.text_safety import json_text

SEVERITY = {"error": "major", "warning": "minor", "info": "info"}
INPUT_ERROR = "mcplint-input-error"


def _location(finding, anchors) -> dict:
    """GitLab needs a path and a line: a pseudo-location (a live server) goes on the config
    entry that declares the server when known (its name stays in the description)."""
    if finding.span.line:
        return {"path": finding.path, "lines": {"begin": finding.span.line}}
    anchor = anchor_of(finding.path, anchors)
    return {"path": anchor[0], "lines": {"begin": anchor[1]}} if anchor else {"path": finding.path, "lines": {"begin": 1}}


def render(findings, ctx) -> str:
    seen: dict[str, int] = {}
    issues = []
    for finding in findings:
        base = finding.fingerprint or _digest(finding.code, finding.path, finding.pointer, finding.message)
        repeat = seen.get(base, 0)
        seen[base] = repeat + 1
        issues.append({
            "description": f"{finding.code} {finding.name}: "
                           + (f"{finding.path}: " if not finding.span.line else "") + finding.message,
            "check_name": finding.code,
            "fingerprint": base if not repeat else _digest(base, str(repeat)),
            "severity": SEVERITY[finding.severity.value],
            "location": _location(finding, ctx.extra.get("anchors")),
        })
    for failure in ctx.failures:
        issues.append({
            "description": f"mcplint could not read this input: {failure.message}",
            "check_name": INPUT_ERROR,
            "fingerprint": _digest(INPUT_ERROR, failure.path or "", failure.message),
            "severity": "critical",
            "location": {"path": failure.path or ".", "lines": {"begin": failure.line or 1}},
        })
    if not issues:
        return "[]\n"
    return json_text("[\n" + ",\n".join("  " + json.dumps(issue, ensure_ascii=False) for issue in issues) + "\n]\n")


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]
