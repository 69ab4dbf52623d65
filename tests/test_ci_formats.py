"""CI outputs: JUnit XML, GitLab Code Quality, the GitHub step summary and --sarif-output.

The golden files of junit and gitlab are checked by tests/test_reporters.py with every other
format (same synthetic findings); this module checks what a golden file cannot show (valid XML
whatever the text, unique fingerprints, the 50-row cap) and runs the real command.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from conftest import FIXTURES, assert_golden, run_mcplint
from mcplint.document.span import Span
from mcplint.engine import FileReport
from mcplint.findings import Finding, Severity
from mcplint.reporters import render
from mcplint.reporters.step_summary import MAX_ROWS, md, render_summary
from test_reporters import JSON_PATH, _assert_valid_sarif, _context, _findings

GOLDEN = FIXTURES / "reporters"
BAD = "fixtures/reporters/input-bad.json"
CLEAN = "fixtures/manifests/clean-server.json"
NASTY = "Tool '<b>&\"x\"</b>' | [link](https://evil.example) ![img](x.png) @team :smile: \x01 line\nbreak\r\u202e"


def _finding(message=NASTY, path="dir/m.json", line=1, code="MCP201", fingerprint="ab" * 16, severity=Severity.ERROR):
    return Finding(
        code=code, name="tool-name-missing", severity=severity, message=message, path=path,
        span=Span(line, 2, line, 5), pointer="/tools/0", checklist=(1,), fingerprint=fingerprint,
    )


# ---------------------------------------------------------------- junit


def test_junit_is_valid_xml_with_a_suite_per_file_and_a_passing_case_per_clean_file():
    findings = _findings()
    files = (*_context(findings).files, FileReport("clean/ok.json", "2025-11-25", "list", 2))
    root = ET.fromstring(render("junit", findings, _context(findings, files=files)).encode("utf-8"))
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {f.path for f in files}
    assert root.get("failures") == str(len(findings)) and root.get("tests") == str(len(findings) + 1)
    (clean_case,) = suites["clean/ok.json"].iter("testcase")
    assert clean_case.find("failure") is None and suites["clean/ok.json"].get("failures") == "0"
    failures = [c.find("failure") for c in suites[JSON_PATH].iter("testcase")]
    assert {f.get("type") for f in failures} == {"MCP201", "MCP204", "MCP210"}
    assert all(f.get("message") and f.text for f in failures)


def test_junit_escapes_anything_a_manifest_can_say():
    finding = _finding(path='we"ird <dir>/m&n.json')
    text = render("junit", [finding], _context([finding], files=()))
    root = ET.fromstring(text.encode("utf-8"))  # raises on any escaping mistake
    case = next(root.iter("testcase"))
    failure = case.find("failure")
    assert case.get("classname") == 'we"ird <dir>/m&n.json'
    expected = NASTY.replace("\x01", "<U+0001>")  # not allowed in XML 1.0, so made visible
    assert failure.get("message") == expected  # newlines and CR survive attribute normalisation
    assert expected in failure.text


# ---------------------------------------------------------------- gitlab


def test_gitlab_code_quality_fields_and_severities():
    findings = _findings()
    issues = json.loads(render("gitlab", findings, _context(findings)))
    assert len(issues) == len(findings)
    for issue, finding in zip(issues, findings):
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["check_name"] == finding.code and finding.message in issue["description"]
        assert issue["location"] == {"path": finding.path, "lines": {"begin": finding.span.line}}
        assert issue["severity"] == {"error": "major", "warning": "minor", "info": "info"}[finding.severity.value]


def test_gitlab_fingerprints_are_unique_and_stable():
    # the same rule at the same value twice (and a finding without a fingerprint): GitLab
    # would show only one of each pair if fingerprints repeated
    findings = [_finding(line=1), _finding(line=9), _finding(line=12), _finding(fingerprint="", line=3),
                _finding(fingerprint="", line=3)]
    first = json.loads(render("gitlab", findings, _context(findings, files=())))
    prints = [issue["fingerprint"] for issue in first]
    assert len(set(prints)) == len(prints) and all(len(p) == 32 for p in prints)
    assert prints[0] == "ab" * 16  # mcplint's own fingerprint is kept when it is unique
    again = json.loads(render("gitlab", findings, _context(findings, files=())))
    assert [issue["fingerprint"] for issue in again] == prints


def test_gitlab_real_run():
    result = run_mcplint("check", BAD, "--format", "gitlab")
    assert result.returncode == 1, result.stderr.decode()
    issues = json.loads(result.stdout)
    assert issues and {i["location"]["path"] for i in issues} == {BAD}
    assert len({i["fingerprint"] for i in issues}) == len(issues)


def test_junit_real_run_lists_clean_files_too():
    result = run_mcplint("check", BAD, CLEAN, "--format", "junit")
    assert result.returncode == 1, result.stderr.decode()
    root = ET.fromstring(result.stdout)
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {BAD, CLEAN}
    assert suites[CLEAN].get("failures") == "0" and int(suites[BAD].get("failures")) > 0


# ---------------------------------------------------------------- step summary


def test_step_summary_golden():
    findings = _findings()
    assert_golden(render_summary(findings, _context(findings)), GOLDEN / "findings.step-summary.md")
    files = (FileReport(JSON_PATH, "2025-11-25", "list", 3),)
    assert_golden(render_summary([], _context([], files=files)), GOLDEN / "empty.step-summary.md")


def test_step_summary_caps_the_findings_table():
    findings = [_finding(message=f"problem {i}", line=i + 1) for i in range(MAX_ROWS + 70)]
    out = render_summary(findings, _context(findings, files=()))
    rows = [line for line in out.splitlines() if line.startswith("| :x: |")]
    assert len(rows) == MAX_ROWS
    assert "problem 49 |" in out and "problem 50 |" not in out
    assert "and 70 more" in out
    assert f"**{MAX_ROWS + 70} problems**" in out


def test_step_summary_user_text_cannot_add_markup():
    finding = _finding()
    row = next(line for line in render_summary([finding], _context([finding], files=())).splitlines()
               if line.startswith("| :x: |"))
    assert row.count("|") - row.count("\\|") == 5  # four cells, whatever the message holds
    assert "<b>" not in row and "&lt;b&gt;" in row
    assert "](" not in row.replace("\\](", "").replace("\\]\\(", "")  # no live link or image
    assert "\\[link\\]\\(https\\://evil.example\\)" in row
    assert "\u202e" not in row and "\x01" not in row and "\n" not in row
    assert md("a|b") == "a\\|b"
    # GFM's extended autolinks: "www." needs an escape as "https://" does (attack round 5; both
    # escapes checked against cmark-gfm, which a test here cannot import)
    assert md("go to www.evil-phish.com/login") == "go to www\\.evil-phish.com/login"
    assert md("_WWW.evil.com") == "\\_WWW\\.evil.com" and md("xwww.a") == "xwww.a"
    # ... and an e-mail address, which no escape breaks: its "@" is set as code
    assert md("write to user@evil.com") == "write to user`@`evil.com"
    assert md("npm @brave/x, @team, x@localhost") == "npm @brave/x, @team, x@localhost"


def _summary_env(tmp_path):
    summary = tmp_path / "step_summary.md"
    summary.write_text("previous step\n", encoding="utf-8")
    return summary, {"GITHUB_STEP_SUMMARY": str(summary)}


def test_github_format_appends_the_step_summary(tmp_path):
    summary, env = _summary_env(tmp_path)
    result = run_mcplint("check", BAD, "--format", "github", env=env)
    assert result.returncode == 1, result.stderr.decode()
    assert "::error file=fixtures/reporters/input-bad.json" in result.stdout.decode()
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("previous step\n## mcplint\n")  # appended, never overwritten
    assert "| :x: | `MCP" in text and "### Checklist:" in text
    assert "fixtures/reporters/input-bad.json:" in text


def test_step_summary_only_for_the_github_format(tmp_path):
    summary, env = _summary_env(tmp_path)
    assert run_mcplint("check", BAD, "--format", "json", env=env).returncode == 1
    assert summary.read_text(encoding="utf-8") == "previous step\n"
    result = run_mcplint("check", BAD, "--format", "github", env={"GITHUB_STEP_SUMMARY": ""})
    assert result.returncode == 1 and not result.stderr  # set but empty: nothing to write


def test_unwritable_step_summary_is_a_one_line_error(tmp_path):
    result = run_mcplint("check", BAD, "--format", "github",
                         env={"GITHUB_STEP_SUMMARY": str(tmp_path / "missing" / "summary.md")})
    assert result.returncode == 2
    assert result.stderr.decode().startswith("mcplint: error: ") and "step summary" in result.stderr.decode()


# ---------------------------------------------------------------- --sarif-output


def test_sarif_output_alongside_another_format(tmp_path):
    sarif_file = tmp_path / "out" / "mcplint.sarif"
    sarif_file.parent.mkdir()
    result = run_mcplint("check", BAD, "--format", "json", "--sarif-output", str(sarif_file))
    assert result.returncode == 1, result.stderr.decode()
    report = json.loads(result.stdout)  # stdout is still the --format report
    log = _assert_valid_sarif(sarif_file.read_text(encoding="utf-8"))
    results = log["runs"][0]["results"]
    assert [r["partialFingerprints"]["mcplint/v1"] for r in results] == [f["fingerprint"] for f in report["findings"]]
    alone = run_mcplint("check", BAD, "--format", "sarif")
    assert sarif_file.read_text(encoding="utf-8") == alone.stdout.decode("utf-8")


def test_sarif_output_is_written_for_a_clean_run_and_with_github_annotations(tmp_path):
    sarif_file = tmp_path / "clean.sarif"
    result = run_mcplint("check", CLEAN, "--format", "github", "--sarif-output", str(sarif_file))
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().startswith("mcplint: no problems found")
    assert _assert_valid_sarif(sarif_file.read_text(encoding="utf-8"))["runs"][0]["results"] == []


def test_sarif_output_unwritable_is_a_one_line_error(tmp_path):
    result = run_mcplint("check", CLEAN, "--sarif-output", str(tmp_path / "no" / "such" / "dir.sarif"))
    assert result.returncode == 2
    err = result.stderr.decode()
    assert err.startswith("mcplint: error: ") and "cannot write report" in err and "Traceback" not in err


# ---------------------------------------------------------------- start-up


@pytest.mark.parametrize("fmt", ["junit", "gitlab", "github"])
def test_ci_formats_stay_lean(fmt, tmp_path, monkeypatch):
    from test_startup import HEAVY, imported_modules

    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))  # the github format also renders the step summary
    modules = imported_modules("check", str(FIXTURES / "manifests" / "clean-server.json"), "--format", fmt,
                               "--sarif-output", str(tmp_path / "x.sarif"))
    assert "mcplint" in modules
    assert not {m for m in HEAVY if m in modules}, f"--format {fmt} imported heavy modules"
    assert (tmp_path / "x.sarif").exists() and (fmt != "github" or summary.read_text(encoding="utf-8"))
