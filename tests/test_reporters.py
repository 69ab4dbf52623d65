"""Reporter snapshots: one fixed list of synthetic findings rendered by every reporter.

The golden files in fixtures/reporters/ are the spec of each format; regenerate them with
MCPLINT_UPDATE_GOLDEN=1 and review the diff by eye. SARIF is also validated against the
official schema (with format checking, as GitHub's upload-sarif does).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import FIXTURES, ROOT, assert_golden, run_mcplint, shared_path
from mcplint.document.span import Span
from mcplint.engine import FileReport
from mcplint.findings import Finding, Related, Severity
from mcplint.reporters import FORMATS, ReportContext, render
from mcplint.reporters import github, sarif
from mcplint.rule import Rule
from mcplint.summary import summarize

GOLDEN = FIXTURES / "reporters"
ANSI = re.compile(r"\x1b\[")
EXTENSIONS = {"rich": "txt", "json": "json", "sarif": "sarif", "github": "txt", "junit": "xml", "gitlab": "json"}


# ---------------------------------------------------------------- synthetic rules
# Defined here (not taken from rules/) so the snapshots do not change when real rules do.


class ToolNameMissing(Rule):
    """A tool has no name.

    ## Why
    `name` is how a client calls the tool,
    so a tool without one cannot be called.

    ## Bad
    ```json
    {"tools": [{"description": "Get the time."}]}
    ```
    """

    code = "MCP201"
    name = "tool-name-missing"
    checklist = (1,)
    category = "naming"
    severity = Severity.ERROR


class ToolNameFormat(Rule):
    """A tool name is not snake_case ASCII.

    ## Why
    Clients and models match tool names literally; non-ASCII names break some of them.
    """

    code = "MCP202"
    name = "tool-name-format"
    checklist = (1,)
    category = "naming"
    severity = Severity.WARNING


class DuplicateToolName(Rule):
    """Two tools in one manifest have the same name.

    ## Why
    A tool is called by its name.
    """

    code = "MCP204"
    name = "duplicate-tool-name"
    checklist = (1,)
    category = "naming"
    severity = Severity.ERROR


class DescriptionActionVerb(Rule):
    """A tool description does not start with an action verb.

    ## Why
    Models pick tools by their descriptions:
    - start with what the tool does;
    - keep it short.
    """

    code = "MCP210"
    name = "description-action-verb-missing"
    checklist = (2,)
    category = "descriptions"
    severity = Severity.WARNING


class DescriptionEmoji(Rule):
    """A tool description contains emoji."""

    code = "MCP230"
    name = "description-emoji"
    checklist = (2, 3)
    category = "descriptions"
    severity = Severity.INFO


class UnusedRule(Rule):
    """A selected rule that found nothing still appears in SARIF."""

    code = "MCP301"
    name = "input-schema-missing"
    checklist = (4,)
    category = "schema"
    severity = Severity.ERROR


RULES = (ToolNameMissing, ToolNameFormat, DuplicateToolName, DescriptionActionVerb, DescriptionEmoji, UnusedRule)

# ---------------------------------------------------------------- synthetic documents

JSON_PATH = "servers/weather server.json"  # a space: SARIF must percent-encode it
JSON_TEXT = """\
{"tools": [
  {
    "name": "search",
    "description": "Search the wiki.",
    "inputSchema": {"type": "object"}
  },
  {
    "description": "Récupère la météo — pour une ville.",
    "inputSchema": {
      "type": "object",
      "properties": {"city": {"type": "string"}}
    }
  },
  {
    "name": "search",
    "description": "Search the issue tracker.",
    "inputSchema": {"type": "object"}
  }
]}
"""
YAML_PATH = "manifests/検索.yaml"
YAML_TEXT = """\
tools:
  - name: 検索ツール
    description: "🔍\t検索: find documents, fast"
    inputSchema:
      type: object
"""
STDIN_PATH = "<stdin>"  # no source text: the rich reporter omits the frame


def _span_of(text: str, needle: str, line: int) -> Span:
    """The span of ``needle`` on 1-based ``line`` of ``text``, in code points."""
    column = text.split("\n")[line - 1].index(needle) + 1
    return Span(line, column, line, column + len(needle))


def _findings() -> list[Finding]:
    return sorted(
        [
            Finding(
                code="MCP201", name="tool-name-missing", severity=Severity.ERROR,
                message="Tool has no 'name'",
                path=JSON_PATH, span=Span(7, 3, 13, 4), pointer="/tools/1", checklist=(1,),
                fingerprint="9f2c1e0b7a6d5c4b3a291807f6e5d4c3",
            ),
            Finding(
                code="MCP210", name="description-action-verb-missing", severity=Severity.WARNING,
                message="Description 'Récupère la météo — pour une ville.' does not start with an action verb; "
                "start with what the tool does, e.g. 'Get the weather…'",
                path=JSON_PATH, span=_span_of(JSON_TEXT, '"Récupère la météo — pour une ville."', 8),
                pointer="/tools/1/description", checklist=(2,),
                fingerprint="0c1d2e3f405162738495a6b7c8d9eaf1",
            ),
            Finding(
                code="MCP204", name="duplicate-tool-name", severity=Severity.ERROR,
                message="Tool name 'search' is already used by the tool at /tools/0",
                path=JSON_PATH, span=_span_of(JSON_TEXT, '"search"', 15), pointer="/tools/2/name",
                checklist=(1,), tool="search", fingerprint="57066dcf638cdb3dc052116b974648de",
                related=(Related("first defined here", "/tools/0/name", _span_of(JSON_TEXT, '"search"', 3)),),
            ),
            Finding(
                code="MCP202", name="tool-name-format", severity=Severity.WARNING,
                message="Tool name '検索ツール' is not snake_case ASCII, e.g. 'search_documents'",
                path=YAML_PATH, span=_span_of(YAML_TEXT, "検索ツール", 2), pointer="/tools/0/name",
                checklist=(1,), tool="検索ツール", fingerprint="aa11bb22cc33dd44ee55ff6600778899",
            ),
            Finding(
                code="MCP230", name="description-emoji", severity=Severity.INFO,
                message="Description contains emoji '🔍': plain text reads the same in every client",
                path=YAML_PATH, span=_span_of(YAML_TEXT, '"🔍\t検索: find documents, fast"', 3),
                pointer="/tools/0/description", checklist=(2, 3), tool="検索ツール",
                fingerprint="1234567890abcdef1234567890abcdef",
            ),
            Finding(
                code="MCP201", name="tool-name-missing", severity=Severity.ERROR,
                message="Tool has no 'name'",
                path=STDIN_PATH, span=Span(1, 12, 1, 40), pointer="/tools/0", checklist=(1,),
                fingerprint="ffeeddccbbaa99887766554433221100",
            ),
        ],
        key=lambda f: f.sort_key,
    )


FILES = (
    FileReport(STDIN_PATH, "2026-07-28", "list", 1),
    FileReport(JSON_PATH, "2025-11-25", "list", 3),
    FileReport(YAML_PATH, "2025-11-25", "list", 1),
)
SOURCES = {JSON_PATH: JSON_TEXT, YAML_PATH: YAML_TEXT}


def _context(findings, *, color=False, width=100, files=FILES) -> ReportContext:
    return ReportContext(
        rules=RULES,
        summary=summarize(findings, RULES, files),
        tool_version="0.0.0-test",  # redacted: the snapshots must not change with each release
        files=files,
        color=color,
        width=width,
        sources=SOURCES,
    )


# ---------------------------------------------------------------- golden files


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_golden(fmt):
    findings = _findings()
    assert_golden(render(fmt, findings, _context(findings)), GOLDEN / f"findings.{fmt}.{EXTENSIONS[fmt]}")


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_golden_no_findings(fmt):
    files = (FileReport(JSON_PATH, "2025-11-25", "list", 3),)
    assert_golden(render(fmt, [], _context([], files=files)), GOLDEN / f"empty.{fmt}.{EXTENSIONS[fmt]}")


def test_every_format_has_a_snapshot():
    assert set(EXTENSIONS) == set(FORMATS)


# ---------------------------------------------------------------- SARIF


def _sarif_validator():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(shared_path("schemas", "sarif-2.1.0.json").read_text(encoding="utf-8"))
    checker = jsonschema.FormatChecker()
    assert "uri-reference" in checker.checkers, "install the test extra: jsonschema[format-nongpl]"
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=checker)


def _assert_valid_sarif(text: str) -> dict:
    log = json.loads(text)
    errors = sorted(_sarif_validator().iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)
    return log


def test_sarif_validates_against_schema():
    findings = _findings()
    log = _assert_valid_sarif(render("sarif", findings, _context(findings)))
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == [r.code for r in RULES]
    assert run["columnKind"] == "unicodeCodePoints"
    for res in run["results"]:
        assert run["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        assert "primaryLocationLineHash" not in res.get("partialFingerprints", {})
    uris = {res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for res in run["results"]}
    assert "servers/weather%20server.json" in uris
    assert "manifests/%E6%A4%9C%E7%B4%A2.yaml" in uris


def test_sarif_without_results_is_valid_and_lists_rules():
    log = _assert_valid_sarif(render("sarif", [], _context([])))
    run = log["runs"][0]
    assert run["results"] == []
    assert len(run["tool"]["driver"]["rules"]) == len(RULES)


def test_sarif_descriptions_fit_github_limits():
    for descriptor in sarif.sarif_log([], _context([]))["runs"][0]["tool"]["driver"]["rules"]:
        for key in ("shortDescription", "fullDescription", "help"):
            assert descriptor[key]["text"].strip()
        assert len(descriptor["shortDescription"]["text"]) <= 1024
        assert len(descriptor["fullDescription"]["text"]) <= 1024
        assert len(descriptor["properties"]["tags"]) <= 20


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        ("mcp/tools.json", "mcp/tools.json"),
        ("mcp/my tools.json", "mcp/my%20tools.json"),
        ("a:b.json", "a%3Ab.json"),  # otherwise "a:" would read as a URI scheme
        ("../other/x#1.json", "../other/x%231.json"),
        ("/abs/path/m.json", "file:///abs/path/m.json"),
        ("C:/work/m.json", "C%3A/work/m.json"),  # off Windows, a folder named "C:" in the checkout
        ("<stdin>", "%3Cstdin%3E"),
    ],
)
def test_sarif_artifact_uri(path, uri):
    assert sarif.artifact_uri(path) == uri


def test_sarif_artifact_uri_of_a_windows_drive(monkeypatch):
    monkeypatch.setattr(sarif.os, "name", "nt")
    assert sarif.artifact_uri("C:/work/m.json") == "file:///C:/work/m.json"


def test_sarif_real_run_validates():
    result = run_mcplint("check", "fixtures/reporters/input-bad.json", "--format", "sarif")
    assert result.returncode == 1, result.stderr.decode()
    log = _assert_valid_sarif(result.stdout.decode("utf-8"))
    results = log["runs"][0]["results"]
    assert results, "the fixture should have findings"
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {
        "fixtures/reporters/input-bad.json"
    }
    assert all(r["partialFingerprints"]["mcplint/v1"] for r in results)


def test_sarif_real_run_with_space_in_path(tmp_path):
    bad = (FIXTURES / "reporters" / "input-bad.json").read_text(encoding="utf-8")
    (tmp_path / "my tools").mkdir()
    (tmp_path / "my tools" / "server manifest.json").write_text(bad, encoding="utf-8")
    result = run_mcplint("check", "my tools", "--format", "sarif", cwd=tmp_path)
    assert result.returncode == 1, result.stderr.decode()
    log = _assert_valid_sarif(result.stdout.decode("utf-8"))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris == {"my%20tools/server%20manifest.json"}


# ---------------------------------------------------------------- GitHub


def test_github_escaping():
    assert github.escape_data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b"
    assert github.escape_property("dir,1/a:b%\n.json") == "dir%2C1/a%3Ab%25%0A.json"
    finding = Finding(
        code="MCP999", name="x-y", severity=Severity.INFO, message="line one\nline two: 100%",
        path="we:ird,dir/m.json", span=Span(2, 3, 2, 9), pointer="/tools/0",
    )
    assert github.annotation(finding) == (
        "::notice file=we%3Aird%2Cdir/m.json,line=2,endLine=2,col=3,endColumn=9,title=MCP999 x-y"
        "::line one%0Aline two: 100%25"
    )


def test_github_multiline_span_has_no_columns():
    (finding,) = [f for f in _findings() if f.path == JSON_PATH and f.pointer == "/tools/1"]
    assert finding.span.line != finding.span.end_line
    line = github.annotation(finding)
    assert "col=" not in line and "endColumn=" not in line


# ---------------------------------------------------------------- rich


def test_rich_color_on_and_off():
    findings = _findings()
    plain = render("rich", findings, _context(findings, color=False))
    colored = render("rich", findings, _context(findings, color=True))
    assert not ANSI.search(plain) and "\x1b" not in plain
    assert ANSI.search(colored)
    assert ANSI.sub("", re.sub(r"\x1b\[[0-9;]*m", "", colored)) == plain


def test_rich_ignores_environment(monkeypatch):
    findings = _findings()
    expected = render("rich", findings, _context(findings))
    for name, value in [("FORCE_COLOR", "1"), ("COLUMNS", "40"), ("TERM", "xterm-256color"), ("TTY_COMPATIBLE", "1")]:
        monkeypatch.setenv(name, value)
    assert render("rich", findings, _context(findings)) == expected


def test_rich_user_text_is_not_markup():
    finding = Finding(
        code="MCP201", name="tool-name-missing", severity=Severity.ERROR,
        message="Tool '[bold red]x[/]' uses :smile: and \u202egnirts\u202c",
        path="[red]m.json", span=Span(1, 1, 1, 2), pointer="/tools/0",
    )
    ctx = _context([finding])
    out = render("rich", [finding], ReportContext(**{**ctx.__dict__, "sources": {"[red]m.json": "{[b]x[/b]}\n"}}))
    assert "[bold red]x[/]" in out and ":smile:" in out and "[red]m.json:1:1:" in out
    assert "{[b]x[/b]}" in out
    assert "\u202e" not in out and "<U+202E>" in out


def _caret_columns(out: str) -> list[tuple[str, str]]:
    """(source row, caret row) pairs from the code frames, gutters removed."""
    rows = out.split("\n")
    pairs = []
    for above, below in zip(rows, rows[1:]):
        if re.match(r"^ +\| +\^", below) and re.match(r"^ *\d+ \|", above):
            pairs.append((above.split("|", 1)[1], below.split("|", 1)[1]))
    return pairs


def _marked(source_row: str, caret_row: str) -> str:
    from rich.cells import cell_len

    start = caret_row.index("^")
    end = caret_row.rindex("^") + 1
    taken, width = [], 0
    for char in source_row:
        if start <= width < end:
            taken.append(char)
        width += cell_len(char)
    return "".join(taken)


def test_rich_carets_align_with_wide_characters_and_tabs():
    findings = _findings()
    out = render("rich", findings, _context(findings))
    marked = [_marked(*pair) for pair in _caret_columns(out)]
    assert '"search"' in marked
    assert "検索ツール" in marked
    # the tab after the emoji (which ends at cell 20 of the line) expands to the stop at 24
    assert '"🔍    検索: find documents, fast"' in marked
    assert '"Récupère la météo — pour une ville."' in marked


def test_rich_long_line_is_cropped_around_the_span():
    line = json.dumps({"tools": [{"name": f"tool_{i}", "description": "Do a thing."} for i in range(200)]})
    needle = '"tool_150"'
    column = line.index(needle) + 1
    finding = Finding(
        code="MCP204", name="duplicate-tool-name", severity=Severity.ERROR, message="dup",
        path="min.json", span=Span(1, column, 1, column + len(needle)), pointer="/tools/150/name",
    )
    ctx = ReportContext(rules=RULES, summary=summarize([finding], RULES, ()), tool_version="0",
                        width=80, sources={"min.json": line})
    out = render("rich", [finding], ctx)
    frame = [row for row in out.split("\n") if re.match(r"^ *(\d+)? \|", row)]
    assert all(len(row) <= 80 for row in frame), frame
    (pair,) = _caret_columns(out)
    assert _marked(*pair) == needle
    assert "…" in pair[0]


def test_rich_frame_escapes_bidi_controls_and_handles_crlf():
    source = '{"tools": [\r\n  {"name": "a\u202eb", "x": 1}\r\n]}\r\n'
    finding = Finding(
        code="MCP202", name="tool-name-format", severity=Severity.WARNING, message="bidi",
        path="crlf.json", span=Span(2, 12, 2, 17), pointer="/tools/0/name",
    )
    ctx = ReportContext(rules=RULES, summary=summarize([finding], RULES, ()), tool_version="0",
                        sources={"crlf.json": source})
    out = render("rich", [finding], ctx)
    assert "\u202e" not in out and "\r" not in out
    (pair,) = _caret_columns(out)
    assert _marked(*pair) == '"a<U+202E>b"'


def test_rich_missing_source_omits_frame():
    findings = _findings()
    out = render("rich", findings, _context(findings))
    block = out.split("<stdin>:1:12:")[1].split("\n\n")[0]
    assert "|" not in block.split("\n")[1]
    assert "= pointer: /tools/0" in block


def test_rich_width_is_respected_by_tables():
    findings = _findings()
    out = render("rich", findings, _context(findings, width=70))
    checklist = out.split("Checklist")[1]
    assert all(len(row) <= 70 for row in checklist.split("\n")), checklist


def test_empty_findings_render_cleanly_everywhere():
    for fmt in FORMATS:
        out = render(fmt, [], _context([]))
        assert out.endswith("\n") and "Traceback" not in out
    assert "No problems found in 3 manifests (5 tools)" in render("rich", [], _context([]))
    assert json.loads(render("json", [], _context([])))["findings"] == []


def test_rich_real_run_is_plain_when_piped():
    result = run_mcplint("check", "fixtures/reporters/input-bad.json")
    out = result.stdout.decode("utf-8")
    assert result.returncode == 1, result.stderr.decode()
    assert "\x1b" not in out
    assert "fixtures/reporters/input-bad.json:" in out and "Checklist" in out
    env = {**os.environ, "FORCE_COLOR": "1"}
    env.pop("NO_COLOR", None)
    forced = subprocess.run(
        [sys.executable, "-m", "mcplint", "check", "fixtures/reporters/input-bad.json"],
        cwd=ROOT, capture_output=True, env=env, timeout=120,
    )
    assert ANSI.search(forced.stdout.decode("utf-8"))
    env["NO_COLOR"] = "1"
    plain = subprocess.run(
        [sys.executable, "-m", "mcplint", "check", "fixtures/reporters/input-bad.json"],
        cwd=ROOT, capture_output=True, env=env, timeout=120,
    )
    assert plain.stdout.decode("utf-8") == out


def test_rich_ascii_fast_path_matches_general_path(monkeypatch):
    import random

    from mcplint.reporters import terminal

    rng = random.Random(7)
    cases = []
    for _ in range(3000):
        n = rng.choice([0, 1, 5, 30, 90, 200, 1000])
        text = "".join(rng.choice('ab c{}"') for _ in range(n)) + rng.choice(["", "   "])
        start = rng.randint(0, len(text) + 1)
        stop = rng.randint(start + 1, len(text) + 2)
        cases.append((text, start, stop, rng.choice([20, 50, 97])))
    fast = [terminal._window(*case) for case in cases]
    monkeypatch.setattr(terminal, "_PRINTABLE", re.compile("(?!)"))  # force the general path
    slow = [terminal._window(*case) for case in cases]
    assert [(line, marks.rstrip()) for line, marks in fast] == [(line, marks.rstrip()) for line, marks in slow]


def test_a_related_place_outside_any_file_is_told_by_its_pointer_alone():
    """An audit's finding names its message (audit:x#message-2); a related message has no file
    line, and repeating the finding's own name for it would point at the wrong message."""
    from mcplint.findings import NOWHERE

    finding = Finding(code="MCP645", name="server-exited-unanswered", severity=Severity.ERROR,
                      message="The server exited", path="audit:x#message-2", span=NOWHERE, pointer="/1/exit",
                      related=(Related("the request (message 1)", "/0/message", NOWHERE),),
                      fingerprint="0" * 32)
    ctx = ReportContext(rules=RULES, summary=summarize([finding], RULES, ()), tool_version="0", width=100)
    out = render("rich", [finding], ctx)
    assert "= the request (message 1): /0/message" in out
    assert out.count("audit:x#message-2") == 2  # the file header and the finding's own line, no more


def test_a_report_keeps_at_most_its_limit_and_one_note_stands_for_the_rest(tmp_path):
    """A folder of small files has no other bound: 1,500 manifests made 634,000 findings and a
    9 GB SARIF report (attack round 3, F6). Past the limit one note, as severe as the worst finding
    left out, stands for them, so the exit code is the one all findings give."""
    from mcplint.findings import REPORT_LIMIT, within_report_limit

    def make(path, line, severity=Severity.WARNING, left_out=0):
        return Finding(code="MCP202", name="tool-name-style", severity=severity, message="m", path=path,
                       span=Span(line, 1, line, 2), pointer=f"/tools/{line}/name", left_out=left_out)

    found = [make("b.json", 1, Severity.ERROR), *(make("a.json", i) for i in range(1, 8)), make("c.json", 1, left_out=40)]
    once = within_report_limit(found, 3)
    assert [(f.path, f.span.line) for f in once[:3]] == [("a.json", 1), ("a.json", 2), ("a.json", 3)]
    note = once[3]
    assert note.fingerprint == REPORT_LIMIT and note.left_out == 4 + 1 + 40 and note.severity is Severity.ERROR
    assert (note.path, note.span.line) == ("a.json", 4)
    again = within_report_limit([*once, make("0.json", 1)], 3)  # applied again as findings come
    assert again[-1].left_out == 46 and again[-1].path == "a.json" and len(again) == 4
    # through the command line (the limit lowered to 2): the headline says so
    for i in range(3):
        (tmp_path / f"m{i}.json").write_text(json.dumps({"tools": [{"name": "GetX", "inputSchema": {"type": "object"}}]}))
    proc = subprocess.run([sys.executable, "-c", "import sys; from mcplint import findings; findings.MAX_REPORTED = 2; "
                           "sys.argv = ['mcplint', 'check', '.', '--select', 'MCP202']; from mcplint.entry import main; main()"],
                          cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "MCPLINT_JOBS": "1", "NO_COLOR": "1"})
    assert "1 more were left out (a report shows at most 100 per rule per file, and 2 in all)" in proc.stdout, proc.stdout


def test_counts_include_the_findings_a_left_out_note_stands_for(tmp_path):
    """A report shows 100 findings of a rule per file and one note for the rest; the counts per
    rule, per severity and per checklist item are of all of them (launchdarkly's 199 MCP311
    findings were counted as 101, round 9)."""
    tools = [{"name": f"get_item_{i}", "description": "Get an item by its id.",
              "inputSchema": {"type": "object", "properties": {"item_id": {"type": "string"}}}} for i in range(150)]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": tools}))
    summary = json.loads(run_mcplint("check", str(path), "-f", "json", "--select", "MCP311").stdout)["summary"]
    assert summary["findings"] == 101 and summary["left_out"] == 50
    assert summary["by_rule"] == {"MCP311": 150} and summary["by_severity"]["warning"] == 150
    assert next(entry for entry in summary["checklist"] if entry["item"] == 5)["findings"] == 150
