"""Issue 10, section 4: a tool annotated readOnlyHint: true whose description or destination
parameter says it saves, writes or exports to a file contradicts the hint (MCP414, checklist 20).
The spec's ToolAnnotations: readOnlyHint "If true, the tool does not modify its environment"."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import FIXTURES
from mcplint.findings import Severity
from mcplint.testing import lint_text

SCREENSHOT = {
    "name": "take_screenshot",
    "description": "Take a screenshot and save it to the given path.",
    "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
    "annotations": {"readOnlyHint": True},
}


def _tool(description, properties=None, **annotations):
    return {"name": "take_snapshot", "description": description,
            "inputSchema": {"type": "object", "properties": properties or {}},
            "annotations": {"readOnlyHint": True, **annotations}}


def _lint(*tools, version=None, select=("MCP414",)):
    return lint_text(json.dumps({"tools": list(tools)}), select=list(select), version=version)


def _mcplint(*args):
    return subprocess.run([sys.executable, "-m", "mcplint", *args], capture_output=True, text=True, timeout=60)


def test_screenshot_saved_to_a_path_is_a_warning_on_readonlyhint_for_item_20():
    [finding] = _lint(SCREENSHOT)
    assert finding.code == "MCP414" and finding.severity is Severity.WARNING
    assert finding.pointer == "/tools/0/annotations/readOnlyHint" and finding.checklist == (20,)
    assert "save it to the given path" in finding.message and "set readOnlyHint: false" in finding.message


@pytest.mark.parametrize("description,properties", [
    ("Render the dashboard.", {"output_path": {"type": "string", "description": "File to write the PNG to."}}),
    ("Render the dashboard.", {"out_file": {"type": "string", "description": "Saves the image here."}}),
    ("Render the dashboard.", {"destination": {"type": ["string", "null"], "description": "Where the image is stored."}}),
    ("Render the dashboard and export it to output.", {"output": {"type": "string"}}),
    ("Render the dashboard. The result will be persisted to the file you name.", {"file_name": {"type": "string"}}),
    ("Dumps the table; writes the rows into a CSV file.", {}),
    ("Render the dashboard and save the image to output_path.", {"output_path": {"type": "string"}}),
    ("take_snapshot saves the image to a file.", {}),
])
def test_writing_to_a_destination_fires(description, properties):
    assert [f.code for f in _lint(_tool(description, properties))] == ["MCP414"]


@pytest.mark.parametrize("description,properties", [
    ("Read the file at path.", {"path": {"type": "string", "description": "Path of the file to read."}}),
    ("Search files under a directory.", {"path": {"type": "string", "description": "Directory to search."}}),
    ("Render the dashboard as an image.", {"output_format": {"type": "string", "description": "Save as png or svg."}}),
    ("Render the dashboard as an image.", {"output": {"type": "string", "enum": ["png", "svg"], "description": "Write format."}}),
    ("Render the dashboard as an image.", {"save_to": {"type": "boolean", "description": "Whether to save it to a file."}}),
    ("Render the dashboard. It does not write to the output path.", {"output_path": {"type": "string"}}),
    ("Render the dashboard without saving it to disk.", {"filename": {"type": "string"}}),
    ("Render the dashboard. Nothing is ever saved to a file.", {}),
    ("Open the saved file at path and return the exported rows.", {"path": {"type": "string"}}),
    ("Return the store's open hours in a folder.", {"folder": {"type": "string", "description": "The store folder."}}),
    ("Return a screenshot as base64. Use save_screenshot to save it to a file.", {}),
    ("Return a screenshot. Call the save screenshot tool to save it to a file.", {}),
    ("Return a screenshot.", {"path": {"type": "string", "description": "Read from here; export_png saves to a path."}}),
])
def test_reads_formats_filters_and_denials_stay_silent(description, properties):
    assert _lint(_tool(description, properties)) == []


def test_honest_or_missing_hints_and_older_versions_stay_silent():
    honest = {**SCREENSHOT, "annotations": {"readOnlyHint": False, "destructiveHint": False}}
    unannotated = {key: value for key, value in SCREENSHOT.items() if key != "annotations"}
    assert _lint(honest, unannotated) == []
    assert _lint(SCREENSHOT, version="2024-11-05") == []  # no annotations before 2025-03-26


def test_a_tool_mcp410_flags_is_reported_once():
    save = {**SCREENSHOT, "name": "save_screenshot"}
    assert [f.code for f in _lint(save, select=("MCP410", "MCP414"))] == ["MCP410"]


def test_bundled_fixtures_stay_silent():
    # fixtures/real-servers holds true MCP414 findings of published servers, judged by test_real_servers.py.
    paths = [str(p) for p in sorted(FIXTURES.iterdir()) if p.name != "real-servers"]
    proc = _mcplint("check", *paths, "--select", "MCP414", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["summary"]["by_rule"].get("MCP414", 0) == 0


def test_cli_reports_it_and_escapes_hostile_server_text(tmp_path):
    name = "out_" + "x" * 5000 + "_path"
    hostile = _tool("Render.\n::error::x", {name: {"type": "string", "description": "\x1b[31m Save the PNG here \x07."}})
    manifest = tmp_path / "tools.json"
    manifest.write_text(json.dumps({"tools": [SCREENSHOT, hostile]}), "utf-8")
    proc = _mcplint("check", str(manifest), "--select", "MCP414", "--fail-on", "warning", "--format", "json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    assert [f["rule"] for f in findings] == ["MCP414", "MCP414"]
    assert all(f["severity"] == "warning" and len(f["message"]) <= 500 for f in findings)
    assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout
    github = _mcplint("check", str(manifest), "--select", "MCP414", "--format", "github")
    lines = github.stdout.splitlines()
    assert sum("MCP414" in line for line in lines) == 2 and "\x1b" not in github.stdout
    assert not any(line.startswith("::error") for line in lines)  # the description cannot forge a command
