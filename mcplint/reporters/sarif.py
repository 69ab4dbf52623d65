"""`--format sarif`: one SARIF 2.1.0 run for GitHub code scanning and other SARIF consumers.

Valid against the OASIS schema (tests check it with format checking on). Deterministic:
no timestamps, no absolute working directory, stable order. Fields follow what GitHub
reads (see linter-conventions §2): every selected rule is listed even when nothing
fired, `primaryLocationLineHash` is left to upload-sarif, URIs are repo-relative.
Inputs that could not be read make ``invocations[0].executionSuccessful`` false, with one
``toolExecutionNotifications`` entry (level error) each; a clean run has no ``invocations``.
Characters a terminal would obey and lone surrogates are ``\\uXXXX`` escapes (mcplint.text_safety).
"""

from __future__ import annotations

import json
import os
import re
from urllib.parse import quote

from mcplint import docs
from mcplint.findings import anchor_of
from mcplint.regex_cache import regex
from mcplint.text_safety import json_text

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/mcplint/mcplint"
HELP_URI = "https://github.com/mcplint/mcplint/blob/main/docs/rules/{code}.md"
FINGERPRINT_KEY = "mcplint/v1"
MAX_DESCRIPTION = 1024  # GitHub truncates/rejects longer short and full descriptions

LEVEL = {"error": "error", "warning": "warning", "info": "note"}
PROBLEM_SEVERITY = {"error": "error", "warning": "warning", "info": "recommendation"}
_DRIVE = regex(r"^[A-Za-z]:/")
_INDEX = regex(r"^(0|[1-9][0-9]*)$")
_BLOCK = regex(r"^\s*([-*+|>]|\d+[.)]|    )")
_TOOL = regex(r"(^|/)tools/(0|[1-9][0-9]*)$")


def render(findings, ctx) -> str:
    return json_text(json.dumps(sarif_log(findings, ctx), indent=2, ensure_ascii=False) + "\n")


def sarif_log(findings, ctx) -> dict:
    descriptors, index = [], {}
    for rule in ctx.rules:
        if rule.code not in index:
            index[rule.code] = len(descriptors)
            descriptors.append(rule_descriptor(rule.load(), ctx.levels))  # its docs: the class's
    for finding in findings:  # a code outside the selection (e.g. reserved ones) still needs a rule
        if finding.code not in index:
            index[finding.code] = len(descriptors)
            descriptors.append(_bare_descriptor(finding))
    driver = {
        "name": "mcplint",
        "semanticVersion": ctx.tool_version,
        "informationUri": INFORMATION_URI,
        "rules": descriptors,
    }
    run = {
        "tool": {"driver": driver},
        "automationDetails": {"id": "mcplint/"},
        "columnKind": "unicodeCodePoints",
        "results": [result(f, index[f.code], ctx.extra.get("anchors")) for f in findings],
    }
    if ctx.failures:
        run["invocations"] = [{
            "executionSuccessful": False,
            "toolExecutionNotifications": [_notification(f) for f in ctx.failures],
        }]
    summary = ctx.summary or {}
    if summary:
        run["properties"] = {
            "protocolVersions": list(summary.get("protocol_versions", [])),
            "checklist": [_verdict(e) for e in summary.get("checklist", [])],
        }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _verdict(entry: dict) -> dict:
    """A checklist entry as every report shows it: the verdict, its notes (info findings) or why
    it is not assessable."""
    verdict = {"item": entry["item"], "status": entry["status"], "findings": entry.get("findings", 0)}
    for key in ("notes", "note"):
        if entry.get(key):
            verdict[key] = entry[key]
    return verdict


def _notification(failure) -> dict:
    note = {"level": "error", "message": {"text": _no_links(failure.message)}}
    if failure.path is not None:
        physical = {"artifactLocation": {"uri": artifact_uri(failure.path)}}
        if failure.line:
            physical["region"] = {"startLine": failure.line}
        note["locations"] = [{"physicalLocation": physical}]
    return note


def rule_descriptor(rule, levels=None) -> dict:
    parts = docs.sections(rule)
    summary = rule.summary() or rule.name
    why = unwrap(parts.get("Why", ""))
    help_uri = HELP_URI.format(code=rule.code)
    level = (levels or {}).get(rule.code, rule.severity).value  # config severity overrides
    tags = ["mcp", rule.category] + [f"checklist-{item}" for item in rule.checklist]
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": _clip(summary)},
        "fullDescription": {"text": _clip(f"{summary}\n\n{why}".strip())},
        "help": {
            "text": "\n\n".join(p for p in (summary, why, f"Documentation: {help_uri}") if p),
            "markdown": docs.markdown(rule) + f"\n[Documentation]({help_uri})\n",
        },
        "helpUri": help_uri,
        "defaultConfiguration": {"level": LEVEL[level]},
        "properties": {
            "checklist": list(rule.checklist),
            "category": rule.category,
            "tags": list(dict.fromkeys(tags))[:20],
            "precision": getattr(rule, "precision", "high"),
            "problem.severity": PROBLEM_SEVERITY[level],
        },
    }


def _bare_descriptor(finding) -> dict:
    text = finding.name or finding.code
    return {
        "id": finding.code,
        "name": finding.name or finding.code,
        "shortDescription": {"text": text},
        "fullDescription": {"text": text},
        "help": {"text": text},
        "defaultConfiguration": {"level": LEVEL[finding.severity.value]},
    }


def result(finding, rule_index: int, anchors=None) -> dict:
    location = {
        "physicalLocation": _physical(finding.path, finding.span, anchors),
        "logicalLocations": _logical(finding),
    }
    entry = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": LEVEL[finding.severity.value],
        "message": {"text": _no_links(finding.message)},
        "locations": [location],
    }
    if finding.related:
        entry["relatedLocations"] = [
            {
                "id": number,
                "physicalLocation": _physical(finding.path, related.span, anchors),
                "logicalLocations": [{"fullyQualifiedName": related.pointer, "kind": _kind(related.pointer)}],
                "message": {"text": _no_links(related.message)},
            }
            for number, related in enumerate(finding.related, start=1)
        ]
    if finding.fingerprint:
        entry["partialFingerprints"] = {FINGERPRINT_KEY: finding.fingerprint}
    properties = {"checklist": list(finding.checklist), "pointer": finding.pointer}
    if finding.tool is not None:
        properties["tool"] = finding.tool
    entry["properties"] = properties
    return entry


def _physical(path: str, span, anchors=None) -> dict:
    if span.line == 0:  # a live server's listing or traffic (``audit:weather#message-24``)
        # GitHub rejects URIs with a scheme other than file: the config entry that declares the
        # server when known, else a scheme-less relative name (accepted, shown without source).
        anchor = anchor_of(path, anchors)
        if anchor is not None:
            return {"artifactLocation": {"uri": artifact_uri(anchor[0])}, "region": {"startLine": anchor[1]}}
        return {"artifactLocation": {"uri": artifact_uri(path)}}
    return {
        "artifactLocation": {"uri": artifact_uri(path)},
        "region": {
            "startLine": span.line,
            "startColumn": span.column,
            "endLine": span.end_line,
            "endColumn": span.end_column,
        },
    }


def _logical(finding) -> list[dict]:
    found = [{"fullyQualifiedName": finding.pointer, "kind": _kind(finding.pointer)}]
    if finding.span.line == 0:
        found.insert(0, {"fullyQualifiedName": finding.path, "kind": "module"})
    if finding.tool is not None:
        found.append({"name": finding.tool, "fullyQualifiedName": f"tools/{finding.tool}", "kind": "function"})
    return found


def _kind(pointer: str) -> str:
    """SARIF's JSON kinds: a tool (or the document) is an object, a member a property."""
    if not pointer or _TOOL.search(pointer):
        return "object"
    last = pointer.rsplit("/", 1)[-1]
    return "value" if _INDEX.match(last) else "property"


def artifact_uri(path: str) -> str:
    """A `uri-reference` for a report path: relative paths stay relative (percent-encoded,
    so spaces and non-ASCII are valid); absolute paths become file: URIs."""
    if _DRIVE.match(path) and os.name == "nt":  # elsewhere "C:/m.json" is a folder named "C:" (attack round 5)
        return "file:///" + path[:2] + quote(_bytes(path[2:]), safe="/")
    if path.startswith("/"):
        return "file://" + quote(_bytes(path), safe="/")
    return quote(_bytes(path), safe="/")


def _bytes(path: str) -> bytes:
    """The name's bytes: a non-UTF-8 file name (lone surrogates from the file system's
    surrogateescape) gets its own bytes back; any other lone surrogate is encoded as is."""
    try:
        return path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogatepass")


def unwrap(text: str) -> str:
    """Join a docstring's hard-wrapped prose lines; lists, tables and code keep their lines."""
    paragraphs = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        lines = paragraph.splitlines()
        if "```" in paragraph or any(_BLOCK.match(line) for line in lines):
            paragraphs.append(paragraph)
        else:
            paragraphs.append(" ".join(line.strip() for line in lines))
    return "\n\n".join(p for p in paragraphs if p)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_DESCRIPTION else text[: MAX_DESCRIPTION - 1].rstrip() + "…"


def _no_links(text: str) -> str:
    """A message's brackets escaped, as SARIF 2.1.0 3.11.6 requires of brackets that are not an
    embedded link: a tool named `[click](https://evil.example)` is no link in a SARIF viewer."""
    return text.replace("[", "\\[").replace("]", "\\]") if "[" in text or "]" in text else text
