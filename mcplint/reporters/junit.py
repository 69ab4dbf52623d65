"""`--format junit`: JUnit XML for CI test-report views (GitLab, Jenkins, Azure, CircleCI).

One ``<testsuite>`` per linted file, one failing ``<testcase>`` per finding, and one passing
``<testcase>`` for a file without findings, so the report lists every manifest that was
checked. Every finding is a failure, whatever its severity: the severity is in the failure's
text, and ``--ignore``/``severity: off`` keep rules out of the report. Deterministic (no
timestamps or durations) and valid XML 1.0: text and attributes are escaped, and characters
XML cannot carry (controls, lone surrogates) are written as ``<U+XXXX>``.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ATTR_ENTITIES = {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}  # kept through attribute normalisation
CLEAN_CASE = "mcplint"


def render(findings, ctx) -> str:
    by_file: dict[str, list] = {report.path: [] for report in ctx.files}
    for finding in findings:
        by_file.setdefault(finding.path, []).append(finding)
    failures = len(findings)
    tests = sum(len(group) or 1 for group in by_file.values())
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f"<testsuites name=\"mcplint\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">",
    ]
    for path in sorted(by_file):
        group = by_file[path]
        lines.append(
            f"  <testsuite name={_attr(path)} tests=\"{len(group) or 1}\" failures=\"{len(group)}\""
            " errors=\"0\" skipped=\"0\">"
        )
        if not group:
            lines.append(f"    <testcase classname={_attr(path)} name=\"{CLEAN_CASE}\" file={_attr(path)}/>")
        for finding in group:
            lines.extend(_testcase(finding))
        lines.append("  </testsuite>")
    lines.append("</testsuites>")
    return "\n".join(lines) + "\n"


def _testcase(finding) -> list[str]:
    span = finding.span
    where = f"{finding.path}:{span.line}:{span.column}"
    name = f"{finding.code} {finding.name} at {span.line}:{span.column} {finding.pointer or '/'}"
    body = [f"{finding.severity.value}: {where}: {finding.code} {finding.name}: {finding.message}",
            f"pointer: {finding.pointer or '/'}"]
    if finding.tool is not None:
        body.append(f"tool: {finding.tool}")
    body.extend(f"{r.message}: {finding.path}:{r.span.line}:{r.span.column} ({r.pointer})" for r in finding.related)
    return [
        f"    <testcase classname={_attr(finding.path)} name={_attr(name)}"
        f" file={_attr(finding.path)} line=\"{span.line}\">",
        f"      <failure type={_attr(finding.code)} message={_attr(finding.message)}>"
        f"{_text(chr(10).join(body))}</failure>",
        "    </testcase>",
    ]


def _clean(value: str) -> str:
    return _NOT_XML.sub(lambda m: f"<U+{ord(m.group()):04X}>", value)


def _attr(value: str) -> str:
    return quoteattr(_clean(value), _ATTR_ENTITIES)


def _text(value: str) -> str:
    return escape(_clean(value), {"\r": "&#13;"})
