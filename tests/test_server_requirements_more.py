"""Server requirements judged from traffic and tool schemas (issue 10, §1 and §4): server
requests without the client's capability (MCP638), the stateless protocol's rules (MCP639,
MCP642-MCP644), `x-mcp-header` (MCP332-MCP334) and the echo of an unsupported version
(MCP628). The case files (fixtures/rules/) pin where each rule fires; these pin versions,
severities and the checklist, then audit real servers: the misbehaving stdlib ones in
fixtures/servers/ and the official SDK's, which must stay clean."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mcplint.findings import Severity
from mcplint.testing import lint_text
from servers import SERVERS, HttpServer, StdioClient, new_tag, server_command, wait_for_no_orphans

ROOT = SERVERS.parent.parent
MINE = ["MCP332", "MCP333", "MCP334", "MCP628", "MCP638", "MCP639", "MCP642", "MCP643", "MCP644"]
V = "io.modelcontextprotocol/protocolVersion"
CAPS = "io.modelcontextprotocol/clientCapabilities"
MESSAGES = [{"role": "user", "content": {"type": "text", "text": "Summarise the report."}}]


def _jsonl(*records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def _client(message, **extra):
    return {"from": "client", "message": {"jsonrpc": "2.0", **message}, **extra}


def _server(message, **extra):
    return {"from": "server", "message": {"jsonrpc": "2.0", **message}, **extra}


def _init(version, capabilities, offered=None):
    return [
        _client({"id": 1, "method": "initialize", "params": {
            "protocolVersion": offered or version, "capabilities": capabilities,
            "clientInfo": {"name": "c", "version": "1"}}}),
        _server({"id": 1, "result": {"protocolVersion": version, "capabilities": {"tools": {}},
                                     "serverInfo": {"name": "s", "version": "1"}}}),
        _client({"method": "notifications/initialized"}),
    ]


def _meta(capabilities=None, version="2026-07-28"):
    meta = {V: version}
    if capabilities is not None:
        meta[CAPS] = capabilities
    return meta


def _found(records, codes=MINE, version=None, fmt="jsonl"):
    text = records if isinstance(records, str) else _jsonl(*records)
    return sorted((f.code, f.severity) for f in lint_text(text, fmt, select=codes, version=version))


# -- MCP638: the client's capabilities -----------------------------------------------------------
@pytest.mark.parametrize("version,severity", [("2024-11-05", Severity.WARNING), ("2025-03-26", Severity.WARNING),
                                              ("2025-06-18", Severity.ERROR), ("2025-11-25", Severity.ERROR)])
def test_a_server_request_without_the_capability_is_a_should_before_2025_06_18_and_a_must_after(version, severity):
    asks = [_server({"id": "s1", "method": "sampling/createMessage", "params": {"messages": MESSAGES, "maxTokens": 9}}),
            _server({"id": "s2", "method": "roots/list"})]
    assert _found(_init(version, {}) + asks) == [("MCP638", severity)] * 2
    assert _found(_init(version, {"sampling": {}, "roots": {"listChanged": True}}) + asks) == []


def test_modes_tools_and_context_are_judged_from_2025_11_25_only():
    asks = [_server({"id": "s1", "method": "elicitation/create", "params": {
                "mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e1"}}),
            _server({"id": "s2", "method": "sampling/createMessage", "params": {
                "messages": MESSAGES, "maxTokens": 9, "tools": [{"name": "t", "inputSchema": {"type": "object"}}]}}),
            _server({"id": "s3", "method": "sampling/createMessage", "params": {
                "messages": MESSAGES, "maxTokens": 9, "includeContext": "allServers"}})]
    declared = {"elicitation": {}, "sampling": {}}
    # the mode and the tools are MUST NOTs; includeContext without sampling.context a SHOULD NOT
    assert _found(_init("2025-11-25", declared) + asks) == [
        ("MCP638", Severity.ERROR), ("MCP638", Severity.ERROR), ("MCP638", Severity.WARNING)]
    assert _found(_init("2025-06-18", declared) + asks) == []  # no modes, tools or context capability yet
    full = {"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}, "context": {}}}
    assert _found(_init("2025-11-25", full) + asks) == []


def test_input_requests_are_judged_against_each_requests_own_capabilities():
    ask = {"resultType": "input_required", "requestState": "s",
           "inputRequests": {"roots": {"method": "roots/list"}}}
    records = [
        _client({"id": 1, "method": "tools/call", "params": {"name": "t", "arguments": {}, "_meta": _meta({"roots": {}})}}),
        _server({"id": 1, "result": ask}),
        # capabilities are per request: the next one declares none, so the same ask is a violation
        _client({"id": 2, "method": "tools/call", "params": {"name": "t", "arguments": {}, "_meta": _meta({})}}),
        _server({"id": 2, "result": ask}),
        # no clientCapabilities at all is MCP643's (a malformed request), not judged here
        _client({"id": 3, "method": "tools/call", "params": {"name": "t", "arguments": {}, "_meta": _meta()}}),
        _server({"id": 3, "result": ask}),
    ]
    assert _found(records, ["MCP638"]) == [("MCP638", Severity.ERROR)]


# -- MCP628: the echo of an unsupported offer ------------------------------------------------------
def test_echoing_the_unsupported_offer_is_one_error_and_other_unknown_versions_stay_warnings():
    def offer(version, answered):
        return _init(answered, {}, offered=version)[:2]

    assert _found(offer("1999-01-01", "1999-01-01")) == [("MCP628", Severity.ERROR)]
    assert _found(offer("2025-06-18", "2025-06-19")) == [("MCP628", Severity.WARNING)]
    assert _found(offer("DRAFT-2026-v1", "DRAFT-2026-v1")) == [("MCP628", Severity.WARNING)]
    assert _found(offer("1999-01-01", "2025-11-25")) == []


# -- the stateless protocol -------------------------------------------------------------------------
def test_stateless_rules_do_not_judge_handshake_sessions():
    records = _init("2025-11-25", {"roots": {}}) + [
        _server({"id": "s1", "method": "roots/list"}),
        _client({"id": 2, "method": "server/discover", "params": {"_meta": _meta({})}}),
        _server({"id": 2, "error": {"code": -32601, "message": "Method not found"}}),
        _client({"id": 3, "method": "tools/list", "params": {"cursor": "2"}}),
        _server({"id": 3, "result": {"tools": [], "nextCursor": "3"}}),
    ]
    assert _found(records) == []


def test_discover_refused_is_judged_only_once_the_server_is_seen_serving_2026_07_28():
    refused = [_client({"id": 1, "method": "server/discover", "params": {"_meta": _meta({})}}),
               _server({"id": 1, "error": {"code": -32601, "message": "Method not found"}})]
    served = [_client({"id": 2, "method": "prompts/list", "params": {"_meta": _meta({})}}),
              _server({"id": 2, "result": {"resultType": "complete", "prompts": [], "ttlMs": 0,
                                           "cacheScope": "public"}})]
    assert _found(refused + served) == [("MCP642", Severity.ERROR)]
    assert _found(refused, version="2026-07-28") == []


def test_a_request_without_required_meta_fails_checklist_item_8_on_the_command_line(tmp_path):
    records = [_client({"id": 1, "method": "server/discover", "params": {"_meta": _meta()}}, probe="missing-meta"),
               _server({"id": 1, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"],
                                            "capabilities": {}, "ttlMs": 0, "cacheScope": "public"}})]
    (tmp_path / "session.jsonl").write_text(_jsonl(*records), "utf-8")
    run = subprocess.run([sys.executable, "-m", "mcplint", "check", "session.jsonl", "--select", "MCP643",
                          "--format", "json"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 1, run.stderr
    report = json.loads(run.stdout)
    assert [f["rule"] for f in report["findings"]] == ["MCP643"]
    item = next(i for i in report["summary"]["checklist"] if i["item"] == 8)
    assert item["status"] == "fail" and item["rules"] == ["MCP643"], item


@pytest.mark.parametrize("others,reported", [(9_999, 1), (10_000, 0)])
def test_cache_scope_remembers_the_newest_10000_listings_so_memory_stays_bounded(others, reported):
    def page(i, cursor, scope, following):
        params = {"_meta": _meta({}), **({"cursor": cursor} if cursor else {})}
        result = {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": scope}
        if following:
            result["nextCursor"] = following
        return [_client({"id": i, "method": "tools/list", "params": params}), _server({"id": i, "result": result})]

    records = page(0, None, "private", "first")
    for i in range(others):
        records += page(i + 1, None, "public", f"c{i}")
    records += page(others + 1, "first", "public", None)
    assert _found(records, ["MCP644"]) == [("MCP644", Severity.ERROR)] * reported


# -- x-mcp-header ----------------------------------------------------------------------------------------
def _manifest(properties, version_fields=True):
    tools = [{"name": "execute_sql", "description": "Run SQL.", "inputSchema": {"type": "object", "properties": properties}}]
    extra = {"resultType": "complete", "ttlMs": 0, "cacheScope": "public"} if version_fields else {}
    return json.dumps({**extra, "tools": tools})


def test_x_mcp_header_rules_are_errors_and_a_warning_from_2026_07_28_only():
    properties = {"region": {"type": "string", "x-mcp-header": "Region Name"},
                  "amount": {"type": "number", "x-mcp-header": "Amount"},
                  "password": {"type": "string", "x-mcp-header": "Password"}}
    assert _found(_manifest(properties), fmt="json") == [
        ("MCP332", Severity.ERROR), ("MCP333", Severity.ERROR), ("MCP334", Severity.WARNING)]
    assert _found(_manifest(properties, version_fields=False), fmt="json") == []  # inferred 2025-11-25
    assert _found(_manifest(properties), version="2025-11-25", fmt="json") == []


def test_x_mcp_header_walk_is_bounded_on_hostile_schemas():
    deep: dict = {"type": "string", "x-mcp-header": "Deep"}
    for _ in range(5_000):
        deep = {"type": "object", "properties": {"p": deep}}
    wide = {f"p{i}": {"type": "string", "x-mcp-header": f"H{i}"} for i in range(30_000)}
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))  # the JSON loader, not the walk, recurses
    assert _found(_manifest({"deep": deep}), ["MCP332", "MCP333", "MCP334"], version="2026-07-28", fmt="json") == []
    assert _found(_manifest(wide), ["MCP332"], version="2026-07-28", fmt="json") == []


# -- MCP637 and the 2026-07-28 tasks extension ------------------------------------------------------------
def test_progress_after_a_2026_07_28_task_result_is_not_late():
    records = [
        _client({"id": 1, "method": "tools/call", "params": {"name": "t", "arguments": {},
                                                             "_meta": {**_meta({}), "progressToken": "p"}}}),
        _server({"method": "notifications/progress", "params": {"progressToken": "p", "progress": 1}}),
        _server({"id": 1, "result": {"resultType": "task", "taskId": "t1", "status": "working"}}),
        _server({"method": "notifications/progress", "params": {"progressToken": "p", "progress": 2}}),
    ]
    assert _found(records, ["MCP637"]) == []


# -- live audits ---------------------------------------------------------------------------------------------
def _audit(*args, timeout=240):
    run = subprocess.run([sys.executable, "-m", "mcplint", "audit", "--format", "json", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=timeout)
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def _mine(report):
    return sorted((f["rule"], f["severity"]) for f in report["findings"] if f["rule"] in MINE)


def _probe(report, name):
    return next(p for p in report["summary"]["audit"]["probes"] if p["name"] == name)


def test_handshake_server_that_echoes_the_offer_and_asks_for_sampling_over_stdio():
    tag = new_tag()
    report = _audit("--env", f"MCPLINT_FIXTURE_TAG={tag}", "--", *server_command("overreaching_handshake"))
    assert wait_for_no_orphans(tag) == []
    assert _mine(report) == [("MCP628", "error"), ("MCP638", "error")]
    assert _probe(report, "unsupported-version")["detail"] == "initialize with 1999-01-01: answered with '1999-01-01'"


def test_stateless_server_misbehaving_over_stdio():
    report = _audit("--call-read-only", "--", *server_command("stateless_misbehaves"))
    assert report["summary"]["audit"]["era"] == "modern"
    assert _mine(report) == [("MCP638", "error"), ("MCP639", "error"), ("MCP643", "error"), ("MCP644", "error")]
    assert _probe(report, "missing-meta")["detail"] == "server/discover without clientCapabilities: result"
    assert [f["rule"] for f in report["findings"] if f["severity"] == "error"] and all(
        f["rule"] in MINE for f in report["findings"] if f["severity"] == "error")


def test_stateless_server_misbehaving_over_http(tmp_path):
    record = tmp_path / "session.jsonl"
    with HttpServer("stateless_misbehaves") as server:
        report = _audit("--call-read-only", "--record", str(record), server.url)
    # no server-to-client request over HTTP: this server sends it on stdio only
    assert _mine(report) == [("MCP638", "error"), ("MCP643", "error"), ("MCP644", "error")]
    assert _probe(report, "missing-meta")["detail"] == "server/discover without clientCapabilities: HTTP 200, result"
    checked = subprocess.run([sys.executable, "-m", "mcplint", "check", str(record), "--format", "json"],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert _mine(json.loads(checked.stdout)) == _mine(report)


def test_sdk_server_is_clean_in_both_eras_and_refuses_the_missing_meta_probe():
    modern = _audit("--call-read-only", "--", *server_command("sdk_server"))
    assert modern["summary"]["audit"]["era"] == "modern" and _mine(modern) == []
    assert _probe(modern, "missing-meta")["detail"] == "server/discover without clientCapabilities: error -32602"
    handshake = _audit("--protocol-version", "2025-11-25", "--", *server_command("sdk_server"))
    assert handshake["summary"]["audit"]["era"] == "handshake" and _mine(handshake) == []
    with HttpServer("sdk_server") as server:
        http = _audit(server.url)
    assert _mine(http) == []
    assert _probe(http, "missing-meta")["detail"] == ("server/discover without clientCapabilities: "
                                                      "HTTP 400, error -32602")


def test_compliant_servers_answer_the_unsupported_offer_with_a_version_they_support():
    offer = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "tests", "version": "0"}}}
    for name in ("sdk_server", "plain_server"):
        with StdioClient(name) as client:
            answer = client.request(offer)
        records = [{"from": "client", "message": offer}, {"from": "server", "message": answer}]
        assert answer["result"]["protocolVersion"] != "1999-01-01", name
        assert _found(records, ["MCP628"]) == [], name
    plain = _audit("--", *server_command("plain_server"))
    assert _mine(plain) == []


def test_a_stateless_server_slow_to_start_is_audited_as_stateless():
    """Its answer to server/discover comes after --timeout, then it rejects initialize listing only
    2026-07-28: the audit ended with "the server rejected initialize: -32022" (round 9, ha-mcp's cold
    start). It asks server/discover again and audits the stateless server, saying it is slow."""
    run = subprocess.run([sys.executable, "-m", "mcplint", "audit", "--format", "json", "--timeout", "2.5", "--",
                          *server_command("slow_stateless", "--delay", "3")],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 1), run.stderr
    report = json.loads(run.stdout)
    assert report["summary"]["protocol_versions"] == ["2026-07-28"]
    assert "server/discover was answered only after --timeout" in run.stderr
