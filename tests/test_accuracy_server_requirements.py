"""Server requirements judged from traffic (issue 10, §4): ping answers, completion limits,
log levels and secrets, progress. The case files (fixtures/rules/) pin where each rule fires;
these pin versions, severities, the checklist item and the command line end to end."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mcplint.findings import Severity
from mcplint.testing import lint_text

CODES = ["MCP633", "MCP634", "MCP635", "MCP636", "MCP637"]
TOKEN = "ghp_aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zCaB3d"


def _jsonl(*records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def _client(message):
    return {"from": "client", "message": {"jsonrpc": "2.0", **message}}


def _server(message):
    return {"from": "server", "message": {"jsonrpc": "2.0", **message}}


def _init(version):
    return [
        _client({"id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}),
        _server({"id": 1, "result": {"protocolVersion": version, "capabilities": {"logging": {}, "completions": {}},
                                     "serverInfo": {"name": "s", "version": "1"}}}),
        _client({"method": "notifications/initialized"}),
    ]


def _found(records, codes=CODES, version=None):
    return [(f.code, f.severity) for f in lint_text(_jsonl(*records), "jsonl", select=codes, version=version)]


def _violating():
    return [
        _client({"id": 2, "method": "ping"}), _server({"id": 2, "result": {"ok": True}}),
        _client({"id": 3, "method": "completion/complete", "params": {
            "ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}}}),
        _server({"id": 3, "result": {"completion": {"values": [str(i) for i in range(150)]}}}),
        _server({"method": "notifications/message", "params": {"level": "fatal", "data": "boom"}}),
        _server({"method": "notifications/message", "params": {"level": "debug", "data": {"token": TOKEN}}}),
        _client({"id": 4, "method": "tools/call", "params": {"name": "t", "arguments": {}, "_meta": {"progressToken": 4}}}),
        _server({"method": "notifications/progress", "params": {"progressToken": 4, "progress": 2}}),
        _server({"method": "notifications/progress", "params": {"progressToken": 4, "progress": 1}}),
        _server({"id": 4, "result": {"content": []}}),
        _server({"method": "notifications/progress", "params": {"progressToken": 4, "progress": 3}}),
    ]


def _conforming():
    return [
        _client({"id": 2, "method": "ping"}), _server({"id": 2, "result": {}}),
        _client({"id": 3, "method": "completion/complete", "params": {
            "ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}}}),
        _server({"id": 3, "result": {"completion": {"values": [str(i) for i in range(100)], "total": 150,
                                                    "hasMore": True}}}),
        _server({"method": "notifications/message", "params": {"level": "critical", "data": "disk full"}}),
        _client({"id": 4, "method": "tools/call", "params": {"name": "t", "arguments": {}, "_meta": {"progressToken": 4}}}),
        _server({"method": "notifications/progress", "params": {"progressToken": 4, "progress": 1}}),
        _server({"method": "notifications/progress", "params": {"progressToken": 4, "progress": 2}}),
        _server({"id": 4, "result": {"content": []}}),
    ]


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_each_requirement_fires_as_an_error_and_a_conforming_session_is_silent(version):
    # every requirement is a MUST (or the schema) in every handshake version
    assert sorted(_found(_init(version) + _violating())) == [
        ("MCP633", Severity.ERROR), ("MCP634", Severity.ERROR), ("MCP635", Severity.ERROR),
        ("MCP636", Severity.ERROR), ("MCP637", Severity.ERROR), ("MCP637", Severity.ERROR)]
    assert _found(_init(version) + _conforming()) == []


def test_ping_is_not_judged_at_2026_07_28_which_has_no_ping():
    records = [_client({"id": 2, "method": "ping"}), _server({"id": 2, "result": {"ok": True}})]
    assert _found(records, ["MCP633"], version="2026-07-28") == []
    assert _found(records, ["MCP633"], version="2025-11-25") == [("MCP633", Severity.ERROR)]


def test_progress_after_a_task_was_created_or_for_a_reused_token_is_not_late():
    start = [_client({"id": 5, "method": "tools/call", "params": {"name": "t", "arguments": {},
                                                                  "_meta": {"progressToken": "x"}}}),
             _server({"method": "notifications/progress", "params": {"progressToken": "x", "progress": 1}})]
    late = _server({"method": "notifications/progress", "params": {"progressToken": "x", "progress": 2}})
    task = _server({"id": 5, "result": {"task": {"taskId": "t1", "status": "working"}}})
    done = _server({"id": 5, "result": {"content": []}})
    reuse = _client({"id": 6, "method": "tools/call", "params": {"name": "t", "arguments": {},
                                                                 "_meta": {"progressToken": "x"}}})
    again = _server({"method": "notifications/progress", "params": {"progressToken": "x", "progress": 0.5}})
    assert _found(start + [task, late], ["MCP637"], version="2025-11-25") == []
    assert _found(start + [done, reuse, again], ["MCP637"]) == []
    assert _found(start + [done, again], ["MCP637"]) == [("MCP637", Severity.ERROR)]


def test_a_log_secret_fails_checklist_item_19_on_the_command_line(tmp_path):
    (tmp_path / "session.jsonl").write_text(_jsonl(*_init("2025-06-18"), *_violating()[4:6]), "utf-8")
    run = subprocess.run([sys.executable, "-m", "mcplint", "check", "session.jsonl", "--select", "MCP635,MCP636",
                          "--format", "json"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 1, run.stderr
    report = json.loads(run.stdout)
    assert sorted(f["rule"] for f in report["findings"]) == ["MCP635", "MCP636"]
    assert TOKEN not in run.stdout  # the JSON report names the credential only by its first characters
    item = next(i for i in report["summary"]["checklist"] if i["item"] == 19)
    assert item["status"] == "fail" and item["rules"] == ["MCP636"], item


@pytest.mark.parametrize("others,reported", [(9_999, 1), (10_000, 0)])
def test_progress_remembers_the_newest_10000_tokens_so_memory_stays_bounded(others, reported):
    def progress(token, value):
        return _server({"method": "notifications/progress", "params": {"progressToken": token, "progress": value}})
    records = [progress("first", 5)] + [progress(i, 1) for i in range(others)] + [progress("first", 1)]
    assert len(_found(records, ["MCP637"])) == reported
