"""Baselines, run for real: --write-baseline, then --baseline reports only new findings."""

from __future__ import annotations

import json

import pytest

from conftest import run_mcplint

SERVER = """\
tools:
  - name: get_user
    inputSchema:
      type: object
      properties:
        id: {type: string}
  - name: deleteUser
    description: Delete.
    inputSchema: {type: object}
"""
# The same tools: other indentation, other key order, flow style, and the tools swapped.
REFORMATTED = """\
tools:
-   inputSchema: {type: object}
    description: Delete.
    name: deleteUser
-   inputSchema:
        properties:
            id:
                type: string
        type: object
    name: get_user
"""
KNOWN = {"MCP202", "MCP210", "MCP212", "MCP311", "MCP411"}


def _check(tmp_path, *args):
    proc = run_mcplint("check", *args, "-f", "json", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr.decode()
    return proc, json.loads(proc.stdout)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "server.yaml").write_text(SERVER)
    proc = run_mcplint("check", "server.yaml", "--write-baseline", "baseline.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == b""
    assert proc.stderr.decode() == "mcplint: wrote 5 finding(s) to baseline baseline.json\n"
    return tmp_path


def test_the_baseline_file_is_versioned_sorted_and_readable(project):
    text = (project / "baseline.json").read_text()
    data = json.loads(text)
    assert data["version"] == 1 and data["tool"] == "mcplint"
    entries = data["findings"]
    assert {e["rule"] for e in entries} == KNOWN
    assert all(set(e) == {"rule", "name", "path", "pointer", "message", "fingerprint"} for e in entries)
    assert all(e["path"] == "server.yaml" for e in entries)
    pointers = {e["rule"]: e["pointer"] for e in entries}
    assert pointers["MCP311"] == "/tools/[get_user]/inputSchema/properties/id"  # named, not numbered
    assert pointers["MCP212"] == "/tools/[deleteUser]/description"
    keys = [(e["path"], e["rule"], e["pointer"]) for e in entries]
    assert keys == sorted(keys)
    lines = text.splitlines()
    assert len(lines) == 6 + len(entries) and all(line.startswith('    {"rule"') for line in lines[4:-2])
    # Writing again gives the same bytes: the file only changes when findings do.
    run_mcplint("check", "server.yaml", "--write-baseline", "baseline.json", cwd=project)
    assert (project / "baseline.json").read_text() == text


def test_a_run_with_the_baseline_is_clean(project):
    proc, report = _check(project, "server.yaml", "--baseline", "baseline.json", "--fail-on", "warning")
    assert proc.returncode == 0
    assert report["findings"] == []
    assert report["summary"]["baseline"] == {"file": "baseline.json", "matched": 5, "stale": 0, "new": 0}
    assert "5 finding(s) listed in the baseline baseline.json are not shown" in proc.stderr.decode()
    assert "no longer match" not in proc.stderr.decode()


def test_only_a_new_problem_is_reported_and_fails(project):
    (project / "server.yaml").write_text(SERVER + "  - name: get_order\n    description: Get one order by its id.\n")
    proc, report = _check(project, "server.yaml", "--baseline", "baseline.json")
    assert proc.returncode == 1
    assert [(f["rule"], f["pointer"]) for f in report["findings"]] == [("MCP301", "/tools/2")]
    assert report["summary"]["baseline"] == {"file": "baseline.json", "matched": 5, "stale": 0, "new": 1}
    assert report["summary"]["findings"] == 1


def test_reformatting_and_moving_tools_keeps_findings_matched(project):
    (project / "server.yaml").write_text(REFORMATTED)
    proc, report = _check(project, "server.yaml", "--baseline", "baseline.json", "--fail-on", "warning")
    assert proc.returncode == 0, report["findings"]
    assert report["summary"]["baseline"]["matched"] == 5
    # Converted to JSON under the same name, the findings still match: no line numbers involved.
    (project / "server.yaml").write_text(json.dumps({"tools": [
        {"name": "deleteUser", "description": "Delete.", "inputSchema": {"type": "object"}},
        {"name": "get_user", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}},
    ]}, indent=4))
    proc, report = _check(project, "server.yaml", "--baseline", "baseline.json", "--fail-on", "warning")
    assert proc.returncode == 0, report["findings"]


def test_a_changed_value_is_a_new_finding_and_its_old_entry_is_stale(project):
    (project / "server.yaml").write_text(SERVER.replace("Delete.", "Remove."))
    proc, report = _check(project, "server.yaml", "--baseline", "baseline.json", "--fail-on", "warning")
    assert proc.returncode == 1
    assert [(f["rule"], f["message"][:22]) for f in report["findings"]] == [("MCP212", "Description 'Remove.' ")]
    assert report["summary"]["baseline"] == {"file": "baseline.json", "matched": 4, "stale": 1, "new": 1}
    assert ("mcplint: 1 baseline entries no longer match any finding; refresh with --write-baseline\n"
            in proc.stderr.decode())


def test_fixed_findings_leave_stale_entries_that_do_not_fail(project):
    fixed = SERVER.replace("    inputSchema:\n      type: object", "    description: Get one user by id.\n"
                           "    inputSchema:\n      type: object", 1)
    (project / "server.yaml").write_text(fixed)
    proc, report = _check(project, "server.yaml", "--baseline", "baseline.json", "--fail-on", "warning")
    assert proc.returncode == 0
    assert report["summary"]["baseline"]["stale"] == 1  # MCP210 on get_user is gone
    assert "1 baseline entries no longer match" in proc.stderr.decode()


def test_matching_counts_occurrences(tmp_path):
    tool = "  - name: get_user\n    inputSchema: {type: object}\n"
    (tmp_path / "server.yaml").write_text("tools:\n" + tool)
    run_mcplint("check", "server.yaml", "--select", "MCP210", "--write-baseline", "b.json", cwd=tmp_path)
    (tmp_path / "server.yaml").write_text("tools:\n" + tool + tool)  # the same finding twice now
    proc, report = _check(tmp_path, "server.yaml", "--select", "MCP210", "--baseline", "b.json", "--fail-on", "warning")
    assert proc.returncode == 1
    assert len(report["findings"]) == 1
    assert report["summary"]["baseline"] == {"file": "b.json", "matched": 1, "stale": 0, "new": 1}


def test_paths_are_relative_to_the_working_directory(tmp_path):
    (tmp_path / "servers").mkdir()
    (tmp_path / "servers" / "crm.yaml").write_text(SERVER)
    (tmp_path / "servers" / "other.yaml").write_text("tools:\n  - name: get_order\n    inputSchema: {type: object}\n")
    run_mcplint("check", "servers", "--write-baseline", "baseline.json", cwd=tmp_path)
    entries = json.loads((tmp_path / "baseline.json").read_text())["findings"]
    assert {e["path"] for e in entries} == {"servers/crm.yaml", "servers/other.yaml"}
    proc, report = _check(tmp_path, "servers", "--baseline", "baseline.json", "--fail-on", "warning")
    assert proc.returncode == 0 and report["summary"]["baseline"]["matched"] == len(entries)
    # A run over one file (as pre-commit does) calls the other file's entries neither matched nor stale.
    proc, report = _check(tmp_path, "servers/crm.yaml", "--baseline", "baseline.json", "--fail-on", "warning")
    assert proc.returncode == 0
    assert report["summary"]["baseline"] == {"file": "baseline.json", "matched": 5, "stale": 0, "new": 0}
    # A deleted file's entries are stale.
    (tmp_path / "servers" / "other.yaml").unlink()
    proc, report = _check(tmp_path, "servers", "--baseline", "baseline.json")
    assert report["summary"]["baseline"]["stale"] == len(entries) - 5
    # Run from another directory, the paths differ: nothing matches (keep one working directory).
    proc, report = _check(tmp_path / "servers", "crm.yaml", "--baseline", "../baseline.json")
    assert report["summary"]["baseline"]["matched"] == 0


def test_baseline_applies_after_config_selection(tmp_path):
    (tmp_path / "server.yaml").write_text(SERVER)
    (tmp_path / ".mcplint.yaml").write_text("ignore: [MCP311]\n")
    run_mcplint("check", "server.yaml", "--write-baseline", "b.json", cwd=tmp_path)
    entries = json.loads((tmp_path / "b.json").read_text())["findings"]
    assert {e["rule"] for e in entries} == KNOWN - {"MCP311"}


@pytest.mark.parametrize("content,message", [
    (None, "b.json: baseline file not found (create it with --write-baseline)"),
    ("{not json", "b.json: baseline is not valid JSON: Expecting property name enclosed in double quotes (line 1)"),
    ('{"findings": []}', "b.json: not an mcplint baseline (expected"),
    ('{"version": 1, "tool": "eslint", "findings": []}', "b.json: not an mcplint baseline"),
    ('[1, 2]', "b.json: not an mcplint baseline"),
    ('{"version": 2, "tool": "mcplint", "findings": []}', "b.json: baseline version 2 is not supported"),
    ('{"version": 1, "tool": "mcplint", "findings": [{"rule": "MCP210"}]}',
     "b.json: findings[0]: an entry needs string 'rule', 'path' and 'fingerprint'"),
])
def test_a_bad_baseline_file_is_a_one_line_error(tmp_path, content, message):
    (tmp_path / "server.yaml").write_text(SERVER)
    if content is not None:
        (tmp_path / "b.json").write_text(content)
    proc = run_mcplint("check", "server.yaml", "--baseline", "b.json", cwd=tmp_path)
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert err.startswith(f"mcplint: error: {message}") and err.count("\n") == 1, err
    assert proc.stdout == b""


def test_baseline_and_write_baseline_do_not_combine(tmp_path):
    (tmp_path / "server.yaml").write_text(SERVER)
    (tmp_path / "b.json").write_text('{"version": 1, "tool": "mcplint", "findings": []}')
    proc = run_mcplint("check", "server.yaml", "--baseline", "b.json", "--write-baseline", "b.json", cwd=tmp_path)
    assert proc.returncode == 2 and b"cannot be combined" in proc.stderr


def test_no_baseline_is_written_when_a_file_cannot_be_linted(tmp_path):
    (tmp_path / "server.yaml").write_text(SERVER)
    (tmp_path / "broken.json").write_text('{"tools": [')
    proc = run_mcplint("check", "server.yaml", "broken.json", "--write-baseline", "b.json", cwd=tmp_path)
    assert proc.returncode == 2
    assert "baseline not written: 1 file(s) could not be linted" in proc.stderr.decode()
    assert not (tmp_path / "b.json").exists()


def test_an_empty_baseline_reports_everything(tmp_path):
    (tmp_path / "clean.yaml").write_text(
        "tools:\n  - name: get_user\n    description: Get one user by id from the directory.\n"
        "    annotations: {readOnlyHint: true}\n    inputSchema: {type: object, properties: {}}\n"
    )
    proc = run_mcplint("check", "clean.yaml", "--write-baseline", "b.json", "--select", "MCP210", cwd=tmp_path)
    assert proc.returncode == 0
    assert json.loads((tmp_path / "b.json").read_text()) == {"version": 1, "tool": "mcplint", "findings": []}
    (tmp_path / "server.yaml").write_text(SERVER)
    proc, report = _check(tmp_path, "server.yaml", "--baseline", "b.json", "--fail-on", "warning")
    assert proc.returncode == 1 and len(report["findings"]) == 5


def test_the_readme_commands_work_with_the_baseline_inside_the_linted_folder(tmp_path):
    (tmp_path / "server.yaml").write_text(SERVER)
    proc = run_mcplint("check", ".", "--write-baseline", ".mcplint-baseline.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr.decode()
    # Walking "." finds the baseline too: it is skipped as a non-manifest, and rewriting it is stable.
    before = (tmp_path / ".mcplint-baseline.json").read_text()
    run_mcplint("check", ".", "--write-baseline", ".mcplint-baseline.json", cwd=tmp_path)
    assert (tmp_path / ".mcplint-baseline.json").read_text() == before
    proc = run_mcplint("check", ".", "--baseline", ".mcplint-baseline.json", "--fail-on", "warning", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()


def test_a_baseline_cannot_probe_paths_outside_the_working_directory(project, tmp_path_factory):
    """An entry's path is looked up (is its file gone? then it is stale) only inside the working
    directory: a hostile baseline's `stale` count told whether /etc/shadow exists (attack round 5)."""
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "there.json").write_text("{}")
    data = json.loads((project / "baseline.json").read_text())
    entry = data["findings"][0]
    probes = [str(elsewhere / "there.json"), str(elsewhere / "missing.json"), "../elsewhere/missing.json",
              "gone.yaml"]
    data["findings"] += [{**entry, "path": path} for path in probes]
    (project / "baseline.json").write_text(json.dumps(data))
    proc, report = _check(project, "server.yaml", "--baseline", "baseline.json")
    assert report["summary"]["baseline"]["stale"] == 1  # gone.yaml only: the others are never looked up
