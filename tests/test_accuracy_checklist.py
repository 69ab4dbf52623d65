"""The checklist never says more than it knows: info findings are notes, not failures, and an
item whose subject the protocol version lacks is not assessable rather than passed."""

from __future__ import annotations

import json

from conftest import run_mcplint

TOOL = {"name": "get_weather", "description": "Get the current weather for a city.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}},
                        "required": ["city"]}}


def checklist(*args: str, manifest: dict) -> dict[int, dict]:
    proc = run_mcplint("check", "-", "--format", "json", *args, stdin=json.dumps(manifest).encode())
    assert proc.returncode in (0, 1), proc.stderr
    return {entry["item"]: entry for entry in json.loads(proc.stdout)["summary"]["checklist"]}


def test_an_info_finding_is_a_note_and_does_not_fail_its_item():
    unannotated = dict(TOOL, name="delete_user", title="Delete user", description="Delete a user account.")
    items = checklist("--protocol-version", "2025-06-18", manifest={"tools": [unannotated]})  # MCP411: info
    assert items[20]["findings"] == 1 and items[20]["status"] == "pass" and items[20]["notes"] == 1


def test_a_warning_still_fails_its_item():
    items = checklist(manifest={"tools": [dict(TOOL, name="GetWeather")]})
    assert items[1]["status"] == "fail"


def test_items_whose_subject_the_version_lacks_are_not_assessable():
    old = checklist("--protocol-version", "2024-11-05", manifest={"tools": [TOOL]})
    for item in (7, 20):
        assert old[item]["status"] == "not-assessable", old[item]
        assert "protocol version 2024-11-05 has no tool" in old[item]["note"]
    # Item 20 passes only when some tool is annotated or looks destructive (tests/test_checklist_evidence.py).
    annotated = dict(TOOL, title="Get weather", annotations={"readOnlyHint": True, "openWorldHint": False})
    new = checklist("--protocol-version", "2025-06-18", manifest={"tools": [annotated]})
    assert new[7]["status"] == "pass" and new[20]["status"] == "pass"


def test_a_2025_03_26_capture_does_not_pass_the_protocol_version_header_item(tmp_path):
    lines = [
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {
            "protocolVersion": "2025-03-26", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}},
        {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}},
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [TOOL]}}},
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    proc = run_mcplint("check", str(path), "--format", "json")
    items = {entry["item"]: entry for entry in json.loads(proc.stdout)["summary"]["checklist"]}
    for item in (12, 13, 14, 21):
        assert items[item]["status"] == "not-assessable" and "2025-03-26 has no" in items[item]["note"], items[item]
