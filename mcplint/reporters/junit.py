"""`--format junit`: JUnit XML for CI test-report views (GitLab, Jenkins, Azure, CircleCI).

One ``<testsuite>`` per linted file, one failing ``<testcase>`` per finding, and one passing
``<testcase>`` for a file without findings, so the report lists every manifest that was
checked. Every finding is a failure, whatever its severity: the severity is in the failure's
text, and ``--ignore``/``severity: off`` keep rules out of the report. Deterministic (no
timestamps or durations) and valid XML 1.0: text and attributes are escaped, and characters
XML cannot carry (controls, lone surrogates) are written as ``<U+XXXX>``. Line breaks, DEL,
C1 controls, U+2028/U+2029 and bidi characters in user text are character references: the
value read back is the same, but the file printed in a CI log cannot start a line of its own
(a fake ``::error::``) or reorder what is shown.

An input that could not be read is a testsuite with one ``<error>`` testcase, counted in
``errors``, so a run that read nothing never looks clean.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from mcplint.findings import located
from mcplint.regex_cache import regex
from mcplint.text_safety import BIDI

_NOT_XML = regex("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_AS_REFERENCE = regex(f"[\t\n\r\x7f-\x9f\u2028\u2029{BIDI}]")
CLEAN_CASE = "mcplint"
READ_CASE = "read"


def render(findings, ctx) -> str:
    by_file: dict[str, list] = {report.path: [] for report in ctx.files}
    for finding in findings:
        by_file.setdefault(finding.path, []).append(finding)
    failures = len(findings)
    errors = len(ctx.failures)
    tests = sum(len(group) or 1 for group in by_file.values()) + errors
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f"<testsuites name=\"mcplint\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">",
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
    for failure in ctx.failures:
        path = failure.path or "mcplint"
        lines += [
            f"  <testsuite name={_attr(path)} tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">",
            f"    <testcase classname={_attr(path)} name=\"{READ_CASE}\" file={_attr(path)}>",
            f"      <error type=\"input-error\" message={_attr(failure.message)}>{_text(failure.message)}</error>",
            "    </testcase>",
            "  </testsuite>",
        ]
    lines.append("</testsuites>")
    return "\n".join(lines) + "\n"


def _testcase(finding) -> list[str]:
    span = finding.span
    where = located(finding.path, span)
    at = f"{span.line}:{span.column}" if span.line else finding.path
    name = f"{finding.code} {finding.name} at {at} {finding.pointer or '/'}"
    body = [f"{finding.severity.value}: {where}: {finding.code} {finding.name}: {finding.message}",
            f"pointer: {finding.pointer or '/'}"]
    if finding.tool is not None:
        body.append(f"tool: {finding.tool}")
    body.extend(f"{r.message}: {located(finding.path, r.span)} ({r.pointer})" for r in finding.related)
    return [
        f"    <testcase classname={_attr(finding.path)} name={_attr(name)}"
        f" file={_attr(finding.path)}" + (f" line=\"{span.line}\"" if span.line else "") + ">",
        f"      <failure type={_attr(finding.code)} message={_attr(finding.message)}>"
        f"{chr(10).join(_text(line) for line in body)}</failure>",  # only our own line breaks are raw
        "    </testcase>",
    ]


def _clean(value: str) -> str:
    return _NOT_XML.sub(lambda m: f"<U+{ord(m.group()):04X}>", value)


def _references(value: str) -> str:
    return _AS_REFERENCE.sub(lambda m: f"&#{ord(m.group())};", value)


def _attr(value: str) -> str:
    return _references(quoteattr(_clean(value)))


def _text(value: str) -> str:
    return _references(escape(_clean(value)))
