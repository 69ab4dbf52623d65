"""Hostile reports: a run that read nothing never looks clean, and no string a finding or a
file name can carry (ESC, BEL, NUL, CR, U+2028, bidi overrides, lone surrogates, a fake
``::error::`` workflow command, rich markup) reaches a terminal or a CI log raw.

Each case runs the real command on files written to tmp_path; the lone-surrogate findings
are rendered in process (a manifest cannot carry one: the loaders refuse them).
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

from conftest import ROOT, run_mcplint
from mcplint.commands.output import write_report
from mcplint.document.span import Span
from mcplint.engine import FileReport
from mcplint.findings import Finding, Severity
from mcplint.reporters import FORMATS, ReportContext, render
from mcplint.reporters.step_summary import render_summary
from mcplint.summary import ReadFailure, summarize
from test_reporters import RULES, _assert_valid_sarif

FORMAT_NAMES = sorted(FORMATS)
EVIL = "x\x1b[31mred\x07bell\r\n::error::pwned\x00nul\u202erev\u2028end[bold red]\x85c1\x7f"
RAW = {b"\x1b": "ESC", b"\x07": "BEL", b"\x00": "NUL", b"\r": "CR", "\u202e".encode(): "U+202E",
       "\u2028".encode(): "U+2028", b"\xc2\x85": "U+0085", b"\x7f": "DEL"}
OWN_COMMAND = re.compile(rb"^::(group::|endgroup::$|(error|warning|notice) (file|title)=)")


def _assert_safe(data: bytes, where: str) -> None:
    """No byte a terminal obeys, no forged workflow command, valid UTF-8."""
    found = [name for raw, name in RAW.items() if raw in data]
    assert not found, f"{where}: raw {found}"
    forged = [line for line in data.split(b"\n") if line.startswith(b"::") and not OWN_COMMAND.match(line)]
    assert not forged, f"{where}: {forged[:3]}"
    data.decode("utf-8")  # raises on a lone surrogate written with surrogateescape/surrogatepass


def _manifest(name: str, description: str) -> str:
    return json.dumps({"tools": [{"name": name, "description": description, "inputSchema": {"type": "object"}}]})


def _unreadable(tmp_path):
    """Two named inputs that cannot be read; one has ESC, a newline and a non-UTF-8 byte in its name."""
    plain = tmp_path / "broken.json"
    plain.write_text("{not json", encoding="utf-8")
    hostile = os.path.join(os.fsencode(tmp_path), b"bad\x1b]0;t\x07\n::warning::y\xff.json")
    with open(hostile, "wb") as handle:
        handle.write(b"[[[")
    return [str(plain), os.fsdecode(hostile)]


# ---------------------------------------------------------------- nothing could be read


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_nothing_read_is_exit_2_and_never_a_clean_report(fmt, tmp_path):
    paths = _unreadable(tmp_path)
    summary_file = tmp_path / "step-summary.md"
    result = run_mcplint("check", *paths, "--format", fmt, cwd=tmp_path,
                         env={"GITHUB_STEP_SUMMARY": str(summary_file), "GITHUB_ACTIONS": "true"})
    assert result.returncode == 2, result.stderr.decode(errors="replace")
    _assert_safe(result.stdout + result.stderr, fmt)
    errors = result.stderr.decode().splitlines()
    assert len(errors) == 2 and all(line.startswith("mcplint: error: ") for line in errors), errors
    assert "bad<U+001B>]0;t<U+0007><U+000A>::warning::y" in errors[1]
    out = result.stdout.decode()
    if fmt != "sarif":  # SARIF's rule descriptors quote the rule docs; its checklist is checked below
        assert not re.search(r"\bpass\b|[Cc]hecklist|[Nn]o problems", out.replace('"checklist": []', ""))
    if fmt == "rich":
        assert out.startswith("Nothing was linted: 2 files could not be read")
    elif fmt == "json":
        report = json.loads(out)
        assert report["summary"]["checklist"] == [] and report["summary"]["errors"] == 2
        assert [e["line"] for e in report["errors"]] == [1, 1]
        assert report["errors"][0]["path"].endswith("broken.json") and "invalid JSON" in report["errors"][0]["message"]
    elif fmt == "junit":
        root = ET.fromstring(result.stdout)
        assert root.get("errors") == "2" and root.get("tests") == "2"
        assert [e.get("type") for e in root.iter("error")] == ["input-error", "input-error"]
    elif fmt == "gitlab":
        issues = json.loads(out)
        assert [i["check_name"] for i in issues] == ["mcplint-input-error"] * 2
        assert {i["severity"] for i in issues} == {"critical"} and len({i["fingerprint"] for i in issues}) == 2
    elif fmt == "sarif":
        run = _assert_valid_sarif(out)["runs"][0]
        (invocation,) = run["invocations"]
        assert invocation["executionSuccessful"] is False
        notes = invocation["toolExecutionNotifications"]
        assert len(notes) == 2 and {n["level"] for n in notes} == {"error"}
        assert notes[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("y%FF.json")
        assert run["properties"]["checklist"] == [] and run["results"] == []
    elif fmt == "github":
        annotations = [line for line in out.splitlines() if line.startswith("::error file=")]
        assert len(annotations) == 2 and out.endswith("mcplint: nothing was linted: 2 files could not be read\n")
        step = summary_file.read_bytes()
        _assert_safe(step, "step summary")
        assert b"Nothing was linted" in step and b"pass" not in step and b"Checklist" not in step


def test_partly_read_reports_what_was_read_and_lists_the_rest(tmp_path):
    (tmp_path / "good.json").write_text(_manifest("BadName", "Get the weather."), encoding="utf-8")
    paths = ["good.json", *_unreadable(tmp_path)]
    result = run_mcplint("check", *paths, "--format", "json", cwd=tmp_path)
    assert result.returncode == 2
    report = json.loads(result.stdout)
    assert {f["path"] for f in report["findings"]} == {"good.json"}
    assert len(report["summary"]["checklist"]) == 21 and report["summary"]["errors"] == 2
    assert len(report["errors"]) == 2
    rich = run_mcplint("check", *paths, cwd=tmp_path)
    assert rich.returncode == 2 and b"2 files could not be read" in rich.stdout and b"Checklist" in rich.stdout


# ---------------------------------------------------------------- hostile text


def test_hostile_tool_text_and_file_names_reach_no_output_raw(tmp_path):
    (tmp_path / "evil.json").write_text(_manifest(EVIL, "Get " + EVIL), encoding="utf-8")
    named = tmp_path / "name\x1b[31m\n::error::x.json"
    named.write_text(_manifest("BadName", "Get the time."), encoding="utf-8")
    (tmp_path / "surrogate.json").write_text(_manifest("lone_\udfff", "Get it."), encoding="utf-8")
    paths = ["evil.json", named.name, "surrogate.json"]
    env = {"GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"), "GITHUB_ACTIONS": "true"}
    for fmt in FORMAT_NAMES:
        sarif = tmp_path / f"also.{fmt}.sarif"
        result = run_mcplint("check", *paths, "--format", fmt, "--sarif-output", str(sarif), cwd=tmp_path, env=env)
        assert result.returncode == 2, result.stderr.decode(errors="replace")  # surrogate.json is refused
        assert b"internal error" not in result.stderr and b"lone UTF-16 surrogate" in result.stderr
        _assert_safe(result.stdout + result.stderr, fmt)
        _assert_safe(sarif.read_bytes(), f"{fmt} --sarif-output")
        assert any(EVIL in value for value in _strings(json.loads(sarif.read_bytes())))  # escaped, not altered
        text = result.stdout.decode()
        if fmt in ("json", "gitlab"):
            assert any(EVIL in value for value in _strings(json.loads(text)))
        if fmt == "junit":  # ESC, BEL and NUL cannot be in XML at all; the rest reads back the same
            messages = [f.get("message") for f in ET.fromstring(result.stdout).iter("failure")]
            xml_evil = EVIL.replace("\x1b", "<U+001B>").replace("\x07", "<U+0007>").replace("\x00", "<U+0000>")
            assert any(xml_evil in m for m in messages)
        if fmt == "rich":
            assert "[bold red]" in text and "<U+001B>[31m" in text and "<U+202E>" in text
            assert "name<U+001B>[31m⏎::error::x.json:1:" in text
        if fmt == "github":
            assert "::group::name<U+001B>[31m%0A::error::x.json" in text
    _assert_safe((tmp_path / "summary.md").read_bytes(), "step summary")
    report = tmp_path / "report.json"
    result = run_mcplint("check", *paths, "--format", "json", "--output", str(report), cwd=tmp_path)
    assert result.returncode == 2 and not result.stdout
    _assert_safe(report.read_bytes() + result.stderr, "--output")
    assert any(EVIL in value for value in _strings(json.loads(report.read_bytes())))


def test_a_file_named_as_a_workflow_command_starts_no_line_of_the_plain_report(tmp_path):
    """The rich report (and the pre-commit hook's --quiet one) starts lines with the file's path:
    a file named `::error file=README.md,line=1::x.json` or `::stop-commands::t.json` was a forged
    annotation, or silenced the rest of the CI step (attack round 5)."""
    names = ["::error file=README.md,line=1,title=Security::forged.json", "::stop-commands::zz.json",
             "  ::add-mask::x.json"]
    for name in names:
        (tmp_path / name).write_text(_manifest("getX", "Get x."), encoding="utf-8")
    for args in (("check", "."), ("check", "--skip-non-manifests", "--quiet", *names)):
        result = run_mcplint(*args, cwd=tmp_path, env={"GITHUB_ACTIONS": "true"})
        assert result.returncode == 0, result.stderr.decode()  # warnings only
        lines = result.stdout.decode().splitlines()
        assert not [line for line in lines if line.lstrip().startswith("::")], lines
        assert any(line.startswith("./::stop-commands::zz.json:1:") for line in lines), lines


def test_sarif_messages_carry_no_embedded_links(tmp_path):
    """SARIF 2.1.0 3.11.6: `[text](target)` in a message is a link a viewer renders; brackets that
    are not one must be escaped (a parameter named as a link was one; attack round 5)."""
    manifest = {"tools": [{"name": "get_it", "description": "Get it.", "inputSchema": {"type": "object", "properties": {
        "[click](https://evil.example)": {"type": "string", "description": "A value."}}}}]}
    (tmp_path / "m.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = run_mcplint("check", "m.json", "--format", "sarif", cwd=tmp_path)
    texts = [r["message"]["text"] for r in json.loads(result.stdout)["runs"][0]["results"]]
    assert any("'\\[click\\](https://evil.example)'" in text for text in texts), texts
    assert not any(re.search(r"(?<!\\)\[[^\]]*(?<!\\)\]\(", text) for text in texts), texts
    _assert_valid_sarif(result.stdout.decode())  # (skipped without ../shared's schema: last)


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_lone_surrogates_in_a_finding_are_written_safely(fmt, tmp_path, capsysbinary):
    """Every string of a finding holding lone surrogates: the report renders, is written to a
    file and to standard output as valid UTF-8, and JSON formats keep the value."""
    odd = "a\udfff\ud800b\udcff\x1b"
    finding = Finding(
        code="MCP201", name="tool-name-missing", severity=Severity.ERROR, message=f"Tool '{odd}'",
        path=f"dir/{odd}.json", span=Span(1, 2, 1, 5), pointer=f"/tools/{odd}", tool=odd,
        checklist=(1,), fingerprint="ab" * 16,
    )
    files = (FileReport(finding.path, "2025-11-25", "list", 1),)
    ctx = ReportContext(rules=RULES, summary=summarize([finding], RULES, files, (), ["x"]), tool_version="0",
                        files=files, sources={finding.path: f'{{"tools": [{{"name": "{odd}"}}]}}'},
                        failures=(ReadFailure(f"{odd}.json", f"{odd}.json:3:1: bad", 3),))
    text = render(fmt, [finding], ctx)
    out = tmp_path / "report"
    write_report(text, out)
    write_report(text, None)
    for data in (out.read_bytes(), capsysbinary.readouterr().out):
        _assert_safe(data, fmt)
    if fmt in ("json", "sarif", "gitlab"):
        assert any(odd in value for value in _strings(json.loads(out.read_bytes())))
    if fmt == "sarif":
        _assert_valid_sarif(out.read_text(encoding="utf-8"))
    if fmt == "github":
        _assert_safe(render_summary([finding], ctx).encode(), "step summary")


# ---------------------------------------------------------------- long lines


def test_rich_code_frames_stay_small_on_a_huge_one_line_file_and_a_huge_terminal(tmp_path):
    tools = [{"name": f"Bad Name {i}", "description": "Gets " + "data " * 400_000, "inputSchema": {"type": "object"}}
             for i in range(5)]
    tools[0]["inputSchema"]["properties"] = {"K" * 500_000: {"type": "string"}}  # a 500,000-character pointer
    (tmp_path / "min.json").write_text(json.dumps({"tools": tools}), encoding="utf-8")  # 10 MB, one line
    out = _run_on_a_terminal(["check", "min.json"], tmp_path, columns=100_000)
    frames = [row for row in out.splitlines() if re.match(r"^ *\d+ \| ", row)]
    headings = [row for row in out.splitlines() if re.match(r"^min\.json:1:\d+: ", row)]
    assert len(headings) >= 10 and len(frames) == len(headings), out[:2000]
    assert max(len(row) for row in frames) <= 130, max(frames, key=len)[:200]
    pointers = [row for row in out.splitlines() if "= pointer: /tools/0/inputSchema/properties/KKK" in row]
    assert pointers and all(re.search(r"KKK…K+ \(500,0\d\d characters\)", row) and len(row) < 400 for row in pointers)
    assert len(out) < 100_000


def _run_on_a_terminal(args, cwd, columns: int) -> str:
    """The command with its standard output on a pseudo-terminal, so the report is sized
    to the terminal (COLUMNS) as on a user's screen."""
    master, slave = os.openpty()
    env = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    env.update(NO_COLOR="1", COLUMNS=str(columns), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "mcplint", *args], cwd=cwd, stdout=slave,
                            stderr=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks, deadline = [], time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(master)
        proc.kill()
        proc.wait(timeout=10)
    return b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def test_a_long_message_keeps_its_quotes_whole_when_a_quoted_text_has_an_apostrophe():
    """MCP231 quoting svelte's title ("... relevant for the user's query ...") was cut at the
    apostrophe, leaving half the title in the message (round 9)."""
    from mcplint.findings import MAX_MESSAGE, bounded

    title = "Lists all sections. " + "Analyze the user's query and fetch them. " * 30
    message = bounded(f"Tool annotations.title 'List Sections' differs from title '{title}'; make them the same")
    assert len(message) <= MAX_MESSAGE
    assert message.startswith("Tool annotations.title 'List Sections' differs from title 'Lists all sections. ")
    assert message.endswith(f"…' ({len(title):,} characters); make them the same")


def test_shortening_quotes_takes_linear_time_on_hostile_apostrophes():
    import time

    from mcplint.findings import bounded

    for text in ("x 'a " * 200_000, "'" + "ab'" * 300_000):
        started = time.perf_counter()
        assert len(bounded(text)) < len(text)
        assert time.perf_counter() - started < 5  # quadratic would be hours
