"""Traffic rules whose level follows the spec's word for the negotiated version (issue 10, §2).

The case files (fixtures/rules/) check where a rule fires; these check how loud it is."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mcplint.findings import Severity
from mcplint.testing import lint_text


def _jsonl(*records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def _init(version, capabilities):
    return [
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {
            "protocolVersion": version, "capabilities": capabilities, "serverInfo": {"name": "s", "version": "1"}}}},
        {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}},
    ]


def _levels(code, records, version=None):
    findings = lint_text(_jsonl(*records), "jsonl", select=[code], version=version)
    return [f.severity for f in findings]


@pytest.mark.parametrize("version,level", [
    ("2024-11-05", Severity.WARNING), ("2025-03-26", Severity.WARNING),
    ("2025-06-18", Severity.ERROR), ("2025-11-25", Severity.ERROR),
])
def test_mcp630_list_changed_flag_is_a_should_before_2025_06_18(version, level):
    records = _init(version, {"tools": {}}) + [
        {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}}]
    assert _levels("MCP630", records) == [level]


def test_mcp630_subscribe_flag_is_a_warning_at_2025_03_26_but_logging_stays_an_error():
    records = _init("2025-03-26", {"resources": {}}) + [
        {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/resources/updated",
                                       "params": {"uri": "file:///a"}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/message",
                                       "params": {"level": "info", "data": "x"}}}]
    assert _levels("MCP630", records) == [Severity.WARNING, Severity.ERROR]


def test_mcp630_a_configured_severity_still_wins(tmp_path):
    records = _init("2025-03-26", {"tools": {}}) + [
        {"from": "server", "message": {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}}]
    (tmp_path / "session.jsonl").write_text(_jsonl(*records), "utf-8")
    (tmp_path / ".mcplint.yaml").write_text("select: [MCP630]\nseverity:\n  MCP630: error\n", "utf-8")
    run = subprocess.run([sys.executable, "-m", "mcplint", "check", "session.jsonl", "--format", "json"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    findings = json.loads(run.stdout)["findings"]
    assert [f["severity"] for f in findings] == ["error"], run.stderr


def test_mcp620_a_processed_batch_is_a_warning_after_2025_03_26():
    records = [
        {"from": "client", "message": [{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]},
        {"from": "server", "message": [{"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}]}]
    assert _levels("MCP620", records, "2025-06-18") == [Severity.WARNING]
    assert _levels("MCP620", records, "2024-11-05") == []


def test_mcp705_unknown_tool_answered_with_a_result_is_a_warning():
    records = [
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
            {"name": "read_graph", "inputSchema": {"type": "object"}}]}}},
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                       "params": {"name": "nope", "arguments": {}}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {
            "content": [{"type": "text", "text": "Unknown tool"}], "isError": True}}}]
    assert _levels("MCP705", records, "2025-11-25") == [Severity.WARNING]


def test_mcp805_a_429_without_retry_after_is_info():
    records = [
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 7, "method": "tools/list"},
         "http": {"method": "POST", "url": "http://127.0.0.1:9/mcp", "headers": {"Host": "127.0.0.1:9"}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 7, "error": {"code": -32000, "message": "slow down"}},
         "http": {"status": 429, "headers": {"content-type": "application/json"}}}]
    assert _levels("MCP805", records, "2025-11-25") == [Severity.INFO]


def _origin_exchange(origin, version, probe=None):
    request = {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
               "http": {"method": "POST", "url": "http://127.0.0.1:38001/mcp",
                        "headers": {"Host": "127.0.0.1:38001", "Origin": origin, "MCP-Protocol-Version": version}}}
    if probe:
        request["probe"] = probe
    return [request, {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": []}},
                      "http": {"status": 200, "headers": {"content-type": "application/json"}}}]


@pytest.mark.parametrize("code,version,default", [
    ("MCP821", "2025-11-25", Severity.ERROR), ("MCP822", "2025-06-18", Severity.ERROR)])
def test_foreign_origin_is_certain_only_for_an_origin_no_server_allows(code, version, default):
    probe = _origin_exchange("http://mcplint-probe.invalid", version, probe="foreign-origin")
    assert _levels(code, probe, version) == [default]
    assert _levels(code, _origin_exchange("http://attacker.invalid:8080", version), version) == [default]
    assert _levels(code, _origin_exchange("https://app.acme.com", version), version) == [Severity.INFO]
    assert _levels(code, _origin_exchange("http://localhost:5173", version), version) == []


def _har_entry(url, body, status, text, mime):
    return {"startedDateTime": "2026-11-23T12:00:00.000Z", "time": 1,
            "request": {"method": "POST", "url": url, "httpVersion": "HTTP/1.1",
                        "headers": [{"name": "Host", "value": "127.0.0.1:38001"},
                                    {"name": "Content-Type", "value": "application/json"}],
                        "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
            "response": {"status": status, "statusText": "", "httpVersion": "HTTP/1.1",
                         "headers": [{"name": "Content-Type", "value": mime}],
                         "content": {"size": len(text), "mimeType": mime, "text": text}}}


@pytest.mark.parametrize("endpoint,found", [
    ("http://127.0.0.1:38001/messages?sessionId=5f0e2a7c-1b7d-4f7e-9a55-0c1f3b1e9d20", 0),  # HTTP+SSE
    ("http://127.0.0.1:38001/messages/?session_id=9d1c5a0b7e3f4a2c8b6d", 0),  # the Python SDK's HTTP+SSE
    ("http://127.0.0.1:38001/mcp", 1),  # Streamable HTTP: 202 with no body
])
def test_mcp815_http_sse_answers_a_notification_202_accepted_with_text(endpoint, found):
    notification = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    har = {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [
        _har_entry(endpoint, notification, 202, "Accepted", "text/plain; charset=utf-8")]}}
    findings = lint_text(json.dumps(har), "har", select=["MCP815"], version="2025-03-26")
    assert len(findings) == found, [f.message for f in findings]
    assert all("202 answer to a notification has a body" in f.message for f in findings)
