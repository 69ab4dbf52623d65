"""What a newcomer meets on the command line: --quiet and --statistics, suggestions for typos,
the hint for a server's options without --, `mcplint rules` piped, and init's template."""

from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, ROOT, run_mcplint
from servers import server_command

CRM = str(FIXTURES / "manifests" / "crm-server.yaml")  # 13 findings: 3 errors, 6 warnings, 4 info
CLEAN = str(FIXTURES / "manifests" / "clean-server.json")
HEADLINE = "Found 13 problems (3 errors, 6 warnings, 4 info) in 1 manifest (4 tools), protocol version 2025-11-25."


def out(*args, **kwargs) -> tuple[int, str, str]:
    proc = run_mcplint(*args, **kwargs)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


# ---------------------------------------------------------------- --quiet


def test_the_headline_counts_the_findings_left_out(tmp_path):
    """100 findings of a rule per file are shown; the headline says how many more there were."""
    properties = {f"p{i}": {"type": "string"} for i in range(103)}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "get_thing", "description": "Get a thing by its id.",
                                           "inputSchema": {"type": "object", "properties": properties}}]}))
    code, quiet, _ = out("check", str(path), "--quiet", "--fail-on", "never")
    assert code == 0
    assert quiet.splitlines()[-1].endswith(
        " 3 more were left out (a report shows at most 100 per rule per file)."), quiet.splitlines()[-1]


def test_quiet_prints_the_findings_and_one_summary_line():
    code, full, _ = out("check", CRM, "--fail-on", "never")
    code_q, quiet, err = out("check", CRM, "--quiet", "--fail-on", "never")
    assert code == code_q == 0 and err == ""
    assert "Checklist" in full and "rule " in full and "Checklist" not in quiet
    assert quiet.endswith(f"\n\n{HEADLINE}\n")
    assert quiet.count("Found 13 problems") == 1
    assert "13 problems (3 errors" not in quiet.split(HEADLINE)[0]  # no per-file heading
    # every finding, frame and note of the full report is there, in the same order
    findings = [line for line in full.splitlines() if ": error[" in line or ": warning[" in line or ": info[" in line]
    assert len(findings) == 13
    assert [line for line in quiet.splitlines() if line in findings] == findings
    assert quiet.count("   = pointer: ") == 13


@pytest.mark.parametrize("flag", ["--quiet", "-q"])
def test_quiet_and_clean_is_one_line(flag):
    code, text, err = out("check", CLEAN, flag)
    assert code == 0 and err == ""
    assert text == "No problems found in 1 manifest (4 tools), protocol version 2026-07-28.\n"


def test_quiet_keeps_the_exit_code_and_goes_with_verbose():
    assert out("check", CRM, "-q")[0] == 1
    code, text, err = out("check", CRM, "-q", "-v")  # -v logs to stderr; the pre-commit hook passes -q
    assert code == 1 and text.endswith(f"\n{HEADLINE}\n") and "1 manifest(s) and 0 capture(s) linted" in err


@pytest.mark.parametrize("fmt", ["json", "sarif", "github", "junit", "gitlab"])
def test_machine_formats_ignore_quiet(fmt):
    # a hook's built-in --quiet must not break `args: [-f, github]`: the report is the same
    plain, quiet = run_mcplint("check", CRM, "-f", fmt), run_mcplint("check", CRM, "-f", fmt, "--quiet")
    assert quiet.returncode == plain.returncode == 1 and quiet.stderr == b""
    if fmt == "json":
        assert json.loads(quiet.stdout)["findings"] == json.loads(plain.stdout)["findings"]
    else:
        assert len(quiet.stdout) == len(plain.stdout)


# ---------------------------------------------------------------- --statistics


def test_statistics_counts_per_rule_most_first():
    code, text, err = out("check", CRM, "--statistics")
    assert code == 1 and err == ""
    rows, headline = text.split("\n\n")
    assert headline == HEADLINE + "\n"
    rows = [row.split() for row in rows.splitlines()]
    assert rows[:2] == [["3", "MCP331", "format-hint-unconstrained"], ["2", "MCP202", "tool-name-style"]]
    assert sum(int(count) for count, _, _ in rows) == 13 and len(rows) == 10
    ones = [code for count, code, _ in rows if count == "1"]
    assert ones == sorted(ones)  # ties by code
    payload = json.loads(run_mcplint("check", CRM, "-f", "json").stdout)
    assert {code: int(count) for count, code, _ in rows} == payload["summary"]["by_rule"]


def test_statistics_with_nothing_found_is_the_summary_line():
    assert out("check", CLEAN, "--statistics") == (
        0, "No problems found in 1 manifest (4 tools), protocol version 2026-07-28.\n", "")
    assert out("check", CLEAN, "--statistics", "--quiet")[1].count("\n") == 1


def test_statistics_is_refused_by_machine_formats():
    code, text, err = out("check", CRM, "--statistics", "-f", "json")
    assert code == 2 and text == ""
    assert err == "mcplint: error: --statistics applies to --format rich; the json report already counts findings per rule\n"


def test_audit_quiet_and_statistics_on_a_real_server():
    command = server_command("wrong_error_codes")
    code, quiet, _ = out("audit", "--quiet", "--", *command)
    assert code == 1 and "Checklist" not in quiet
    assert quiet.splitlines()[-1].startswith("Found 6 problems (1 error, 5 warnings) in 1 capture")
    assert "audit:wrong_error_codes#message-" in quiet
    code, stats, _ = out("audit", "--statistics", "--", *command)
    assert code == 1 and stats.splitlines()[0].split() == ["4", "MCP704", "error-code-ad-hoc"]
    assert stats.splitlines()[-1] == quiet.splitlines()[-1]


# ---------------------------------------------------------------- typos


@pytest.mark.parametrize("args,message", [
    (("explain", "MCP2O2"), "unknown rule 'MCP2O2'; did you mean MCP202? (see `mcplint rules`)"),
    (("explain", "tool-name-styl"), "unknown rule 'tool-name-styl'; did you mean tool-name-style?"),
    (("check", CLEAN, "--select", "MCP2O2"), "--select: unknown rule 'MCP2O2'; did you mean MCP202?"),
    (("check", CLEAN, "--ignore", "MCP204,tool-name-styl"), "--ignore: unknown rule 'tool-name-styl'; did you mean tool-name-style?"),
    (("audit", "--select", "duplicate-tool-nam", "http://127.0.0.1:1/mcp"), "--select: unknown rule 'duplicate-tool-nam'; did you mean duplicate-tool-name?"),
    (("explain", "zzzz"), "unknown rule 'zzzz' (see `mcplint rules`)"),  # nothing close: no guess
])
def test_unknown_rules_on_the_command_line_get_a_suggestion(args, message):
    code, _, err = out(*args)
    assert code == 2 and err.startswith("mcplint: error: ") and err.count("\n") == 1, err
    assert message in err, err


@pytest.mark.parametrize("config,message", [
    ("fail_on: warning\n", "fail_on: unknown setting; did you mean fail-on?"),
    ("selct: [MCP101]\n", "selct: unknown setting; did you mean select?"),
    ("max_file_size_mb: 5\n", "max_file_size_mb: unknown setting; did you mean max-file-size-mb?"),
    ("colour: red\n", "colour: unknown setting\n"),  # nothing close
    ("select: [MCP2O2]\n", "select: unknown rule 'MCP2O2'; did you mean MCP202?"),
    ("extend-select: [tool-name-styl]\n", "extend-select: unknown rule 'tool-name-styl'; did you mean tool-name-style?"),
    ("ignore: [MCP2O4]\n", "ignore: unknown rule 'MCP2O4'; did you mean MCP204?"),
    ("severity:\n  tool-name-styl: info\n", "severity: unknown rule 'tool-name-styl'; did you mean tool-name-style?"),
    ("options:\n  tool-name-styl: {}\n", "options: unknown rule 'tool-name-styl'; did you mean tool-name-style?"),
    ("options:\n  tool-name-style:\n    styel: snake_case\n", "options.tool-name-style.styel: unknown setting; did you mean style?"),
    ("options:\n  description-not-imperative:\n    extra_verbs: [geocode]\n",
     "options.description-not-imperative.extra_verbs: unknown setting; did you mean extra-verbs?"),
    ("per-file-ignores:\n  '*.json': [MCP2O2]\n", "per-file-ignores.*.json: unknown rule 'MCP2O2'; did you mean MCP202?"),
    ("servers:\n  - name: a\n    comand: [python, server.py]\n", "servers.0.comand: unknown setting; did you mean command?"),
])
def test_config_typos_get_a_suggestion(tmp_path, config, message):
    (tmp_path / ".mcplint.yaml").write_text(config, encoding="utf-8")
    (tmp_path / "tools.json").write_text(open(CLEAN, encoding="utf-8").read(), encoding="utf-8")
    code, _, err = out("check", "tools.json", cwd=tmp_path)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"mcplint: error: {tmp_path / '.mcplint.yaml'}: ") and message in err, err


def test_pyproject_keys_get_a_suggestion(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.mcplint]\nfail_on = 'warning'\n", encoding="utf-8")
    (tmp_path / "tools.json").write_text(open(CLEAN, encoding="utf-8").read(), encoding="utf-8")
    _, _, err = out("check", "tools.json", cwd=tmp_path)
    assert "pyproject.toml: fail_on: unknown setting; did you mean fail-on?" in err


def test_suggestions():
    from mcplint.suggest import closest, did_you_mean

    assert closest("MCP2O2", ["MCP822", "MCP202", "MCP201"]) == "MCP202"  # a tie goes to letters in place
    assert closest("mcp202", ["MCP202"]) == "MCP202"
    assert closest("fail_on", ["select", "fail-on"]) == "fail-on"
    assert closest("x", ["select", "ignore"]) is None
    assert did_you_mean("select", ["select"]) == ""
    assert did_you_mean("selec", ["select", "severity"]) == "; did you mean select?"


# ---------------------------------------------------------------- audit: a server's options without --


def test_server_options_after_a_bare_command_get_a_hint():
    code, text, err = out("audit", "python3", "server.py", "--tools", "3", env={"COLUMNS": "200"})
    assert code == 2 and text == ""
    assert "No such option: --tools. If it is the server's, put the server's command after --: " \
           "mcplint audit [OPTIONS] -- python3 server.py --tools 3" in err, err
    # mcplint's own options before the command are skipped with their values
    _, _, err = out("audit", "--timeout", "5", "-f", "json", "python3", "server.py", "--tools=3", env={"COLUMNS": "200"})
    assert "mcplint audit [OPTIONS] -- python3 server.py --tools=3" in err, err


@pytest.mark.parametrize("args", [
    ("https://example.com/mcp", "--tools", "3"),  # a URL: the option is simply unknown
    ("--tools", "3", "python3", "server.py"),  # before any command
])
def test_no_hint_where_it_does_not_apply(args):
    code, _, err = out("audit", *args, env={"COLUMNS": "200"})
    assert code == 2 and "No such option: --tools" in err and "put the server's command after --" not in err


def test_a_bare_command_without_options_is_audited():
    python, script = server_command("plain_server")
    code, text, err = out("audit", python, script, "-q")
    assert code == 0, err
    assert text == "No problems found in 1 capture (2 tools), protocol version 2025-11-25.\n"
    assert out("audit", "-q", "--", python, script) == (code, text, err)


def test_check_hint_is_only_for_audit():
    code, _, err = out("check", CLEAN, "--bogus")
    assert code == 2 and "No such option: --bogus" in err and "--:" not in err


# ---------------------------------------------------------------- `mcplint rules` piped, init


def test_rules_piped_has_no_trailing_spaces():
    proc = run_mcplint("rules")
    lines = proc.stdout.decode().splitlines()
    assert proc.returncode == 0 and lines[0].split() == ["code", "name", "checklist", "severity", "summary"]
    assert len(lines) > 100 and [line for line in lines if line != line.rstrip()] == []
    assert any(line.startswith("MCP204  duplicate-tool-name ") for line in lines)


def test_init_template_names_all_that_check_reads(tmp_path):
    assert out("init", cwd=tmp_path)[0] == 0
    text = (tmp_path / ".mcplint.yaml").read_text(encoding="utf-8")
    head = text.split("\n\n", 1)[0]
    for words in ("tool, prompt", "resource listings", "captures (JSONL, HAR)", "servers listed under servers:"):
        assert words in head, head
    assert "every JSON, YAML, JSONL and HAR file" in text


def test_quiet_is_documented_in_the_pre_commit_hooks():
    from ruamel.yaml import YAML

    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert all("--quiet" in hook["entry"].split() for hook in hooks)  # run for real in test_precommit.py
