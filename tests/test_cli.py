"""The command line as users run it: exit codes, selection, stdin, output files, walking."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import run_mcplint

DUP = '{"tools": [{"name": "a_tool", "inputSchema": {"type": "object"}}, {"name": "a_tool", "inputSchema": {"type": "object"}}]}'
CLEAN = '{"tools": [{"name": "get_time", "description": "Get the current time in a time zone.", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}]}'


def findings_of(proc) -> list[dict]:
    return json.loads(proc.stdout)["findings"]


def test_version_and_help():
    from mcplint import __version__

    proc = run_mcplint("--version")
    assert proc.returncode == 0 and proc.stdout.decode().strip() == f"mcplint {__version__}"
    proc = run_mcplint("--help")
    assert proc.returncode == 0 and b"check" in proc.stdout and b"explain" in proc.stdout


def test_exit_codes_follow_fail_on(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text(DUP)
    assert run_mcplint("check", str(path), "-f", "json", "--select", "MCP204").returncode == 1
    assert run_mcplint("check", str(path), "-f", "json", "--select", "MCP204", "--fail-on", "never").returncode == 0
    clean = tmp_path / "clean.json"
    clean.write_text(CLEAN)
    assert run_mcplint("check", str(clean), "-f", "json", "--select", "MCP204").returncode == 0


def test_select_and_ignore_by_code_prefix_slug_and_commas(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text('{"tools": [{"name": "", "name": "x", "inputSchema": {}}, {"name": "x", "inputSchema": {}}]}')
    for selector, expected in [
        ("MCP204", {"MCP204"}),
        ("duplicate-tool-name", {"MCP204"}),
        ("MCP101,MCP204", {"MCP101", "MCP204"}),
    ]:
        proc = run_mcplint("check", str(path), "-f", "json", "--select", selector)
        assert {f["rule"] for f in findings_of(proc)} == expected, selector
    proc = run_mcplint("check", str(path), "-f", "json", "--select", "MCP1,MCP2", "--ignore", "duplicate-json-key")
    rules = {f["rule"] for f in findings_of(proc)}
    assert "MCP101" not in rules and "MCP204" in rules


def test_json_output_shape(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text(DUP)
    proc = run_mcplint("check", str(path), "-f", "json", "--select", "MCP204")
    payload = json.loads(proc.stdout)
    (finding,) = payload["findings"]
    assert {"rule", "checklist", "severity", "message", "path", "line", "column", "pointer", "tool"} <= set(finding)
    assert finding["rule"] == "MCP204" and finding["checklist"] == [1] and finding["tool"] == "a_tool"
    assert finding["pointer"] == "/tools/1/name" and (finding["line"], finding["column"]) == (1, DUP.rindex("\"a_tool\"") + 1)
    assert payload["summary"]["findings"] == 1 and len(payload["summary"]["checklist"]) == 21


def test_stdin_and_output_file(tmp_path):
    out = tmp_path / "report.json"
    proc = run_mcplint("check", "-", "-f", "json", "--select", "MCP204", "--output", str(out), stdin=DUP.encode())
    assert proc.returncode == 1 and proc.stdout == b""
    (finding,) = json.loads(out.read_text())["findings"]
    assert finding["path"] == "<stdin>" and finding["line"] == 1


def test_stdin_yaml_is_detected():
    yaml_doc = b"tools:\n  - name: x\n    inputSchema: {type: object}\n  - name: x\n    inputSchema: {type: object}\n"
    proc = run_mcplint("check", "-", "-f", "json", "--select", "MCP204", stdin=yaml_doc)
    assert [f["line"] for f in findings_of(proc)] == [4]


def test_walking_skips_vendor_folders_and_non_manifests(tmp_path):
    for folder in ("node_modules/pkg", ".git", ".venv", "mcp"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "tools.json").write_text(DUP)
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("")
    (tmp_path / "package.json").write_text('{"name": "x", "version": "1"}')
    (tmp_path / "tsconfig.json").write_text('{\n  // comments make this invalid JSON\n  "compilerOptions": {}\n}')
    proc = run_mcplint("check", str(tmp_path), "-f", "json", "--select", "MCP204", "-v")
    assert proc.returncode == 1, proc.stderr
    assert {f["path"].split("/")[-2] for f in findings_of(proc)} == {"mcp"}
    stderr = proc.stderr.decode()
    assert "1 manifest(s) and 0 capture(s) linted, 2 file(s) skipped" in stderr
    assert "skipped" in stderr and "package.json: not an MCP tool manifest" in stderr


def test_bad_flags_are_one_line_errors(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text(CLEAN)
    for args, fragment in [
        (("--protocol-version", "2023-01-01"), "--protocol-version '2023-01-01' is not one of"),
        (("--select", "no-such-rule"), "--select: unknown rule 'no-such-rule'"),
        (("--config", str(tmp_path / "missing.yaml")), "config file not found"),
    ]:
        proc = run_mcplint("check", str(path), *args)
        assert proc.returncode == 2 and fragment in proc.stderr.decode(), proc.stderr
        assert len(proc.stderr.decode().strip().splitlines()) == 1


def test_rules_and_explain():
    proc = run_mcplint("rules", "--format", "json")
    rules = json.loads(proc.stdout)
    assert proc.returncode == 0 and rules
    assert all(set(r) == {"id", "name", "checklist", "category", "severity", "summary"} for r in rules)
    assert run_mcplint("rules").returncode == 0
    proc = run_mcplint("explain", "duplicate-tool-name")
    text = proc.stdout.decode()
    assert proc.returncode == 0 and text.startswith("# MCP204 duplicate-tool-name") and "## Bad" in text
    proc = run_mcplint("explain", "MCP999")
    assert proc.returncode == 2 and b"unknown rule 'MCP999'" in proc.stderr
    # `mcplint rule MCP204` is answered "did you mean 'rules'?": `rules MCP204` is `explain MCP204`
    assert run_mcplint("rules", "MCP204").stdout == run_mcplint("explain", "MCP204").stdout
    assert run_mcplint("rules", "MCP999").returncode == 2


def test_colour_follows_no_color_and_force_color(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text(DUP)
    args = ("check", str(path), "--select", "MCP204")
    plain = run_mcplint(*args)  # not a TTY: plain, stable text
    assert b"\x1b[" not in plain.stdout and b"MCP204" in plain.stdout
    forced = run_mcplint(*args, env={"NO_COLOR": "", "FORCE_COLOR": "1"})
    assert b"\x1b[" in forced.stdout
    assert b"\x1b[" not in run_mcplint(*args, env={"NO_COLOR": "", "FORCE_COLOR": "0"}).stdout
    assert b"\x1b[" not in run_mcplint(*args, env={"NO_COLOR": "1", "FORCE_COLOR": "1"}).stdout
    assert b"\x1b[" not in run_mcplint(*args, "--output", str(tmp_path / "r.txt"), env={"FORCE_COLOR": "1", "NO_COLOR": ""}).stdout


def test_rule_options_from_config(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text('{"tools": [{"name": "frob_city", "description": "Frobnicate a city name into coordinates.", "inputSchema": {"type": "object"}}]}')
    proc = run_mcplint("check", str(path), "-f", "json", "--select", "MCP211", cwd=tmp_path)
    assert [f["rule"] for f in findings_of(proc)] == ["MCP211"]
    (tmp_path / ".mcplint.yaml").write_text("options:\n  description-not-imperative:\n    extra-verbs: [frobnicate]\n")
    proc = run_mcplint("check", str(path), "-f", "json", "--select", "MCP211", cwd=tmp_path)
    assert findings_of(proc) == []
    for body, fragment in [
        ("options:\n  description-not-imperative:\n    extra-verb: [geocode]\n", "options.description-not-imperative.extra-verb: unknown setting"),
        ("options:\n  description-not-imperative:\n    extra-verbs: geocode\n", "options.description-not-imperative.extra-verbs: Input should be a valid list"),
        ("options:\n  tool-name-style:\n    style: SHOUTING\n", "options.tool-name-style.style"),
        ("options:\n  no-such-rule: {}\n", "options: unknown rule 'no-such-rule'"),
    ]:
        (tmp_path / ".mcplint.yaml").write_text(body)
        proc = run_mcplint("check", str(path), "-f", "json", cwd=tmp_path)
        stderr = proc.stderr.decode()
        assert proc.returncode == 2 and fragment in stderr and len(stderr.strip().splitlines()) == 1, stderr


def test_paths_are_relative_to_the_working_directory_even_through_symlinks(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "tools.json").write_text(DUP)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    proc = run_mcplint("check", str(tmp_path / "link" / "tools.json"), "-f", "json", "--select", "MCP204", cwd=tmp_path / "real")
    assert [f["path"] for f in findings_of(proc)] == ["tools.json"]


def test_fingerprints_survive_reformatting_and_moving_tools(tmp_path):
    tools = [
        {"name": "get_user", "description": "Getting a user.", "inputSchema": {"type": "object"}},
        {"name": "list_users", "description": "Listing users.", "inputSchema": {"type": "object"}},
    ]
    path = tmp_path / "tools.json"
    prints = []
    for order, indent in [((0, 1), None), ((1, 0), 4)]:
        path.write_text(json.dumps({"tools": [tools[i] for i in order]}, indent=indent))
        proc = run_mcplint("check", str(path), "-f", "json", "--select", "MCP211")
        prints.append(sorted(f["fingerprint"] for f in findings_of(proc)))
    assert len(prints[0]) == 2 and prints[0] == prints[1]
    path.write_text(json.dumps({"tools": [tools[0] | {"description": "Fetching a user."}, tools[1]]}))
    changed = sorted(f["fingerprint"] for f in findings_of(run_mcplint("check", str(path), "-f", "json", "--select", "MCP211")))
    assert len(set(changed) & set(prints[0])) == 1  # the edited description is a new finding


def test_a_deleted_working_directory_is_a_one_line_error(tmp_path):
    """It was "internal error: FileNotFoundError" (attack round 5, run in a folder its setup removed)."""
    script = f'mkdir "{tmp_path}/gone" && cd "{tmp_path}/gone" && rmdir "{tmp_path}/gone" && exec "$0" -m mcplint check .'
    proc = subprocess.run(["sh", "-c", script, sys.executable], capture_output=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode() == ("mcplint: error: the current directory no longer exists (it was deleted or "
                                    "moved): cd to a folder that does\n")
