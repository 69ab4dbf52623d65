"""The fixture servers in fixtures/servers do what the audit tests rely on, driven with raw JSON-RPC.

Each misbehaving server breaks exactly its rule; the compliant ones answer like the spec wants.
Over HTTP each server starts once per module; stdio servers start per test (they are cheap).
"""

from __future__ import annotations

import json
import time

import pytest

from servers import HttpServer, StdioClient, free_port, orphans, post, wait_for_no_orphans

MODERN_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": {}}


def call(request_id: int, name: str, arguments: dict, meta: dict | None = None) -> dict:
    params = {"name": name, "arguments": arguments, **({"_meta": meta} if meta else {})}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def initialize(version: str = "2025-11-25", request_id: int = 1) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "tests", "version": "0"}}}


# --- the compliant SDK server ------------------------------------------------------------------
def test_sdk_server_stdio_serves_the_handshake_era_and_logs_calls(tmp_path):
    log = tmp_path / "calls.jsonl"
    with StdioClient("sdk_server", env={"MCPLINT_FIXTURE_CALL_LOG": str(log)}) as server:
        assert server.initialize("2025-06-18")["result"]["protocolVersion"] == "2025-06-18"
        listed = server.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})["result"]["tools"]
        tools = {tool["name"]: tool for tool in listed}
        assert tools["delete_note"]["annotations"]["readOnlyHint"] is False
        assert tools["delete_note"]["annotations"]["destructiveHint"] is True
        assert all(t["annotations"]["readOnlyHint"] for name, t in tools.items() if name != "delete_note")
        assert tools["add_numbers"]["outputSchema"]["type"] == "object"
        answer = server.request(call(3, "add_numbers", {"a": 2, "b": 3}))["result"]
        assert answer["structuredContent"] == {"total": 5}
        assert json.loads(answer["content"][0]["text"]) == answer["structuredContent"]  # mirrored
        assert server.request(call(4, "divide_numbers", {"dividend": 1, "divisor": 0}))["result"]["isError"] is True
        assert server.request(call(5, "add_numbers", {"a": "two"}))["result"]["isError"] is True
        unknown = server.request(call(6, "no_such_tool", {}))
        assert unknown["error"]["code"] == -32602 and "no_such_tool" in unknown["error"]["message"]
        assert server.request({"jsonrpc": "2.0", "id": 7, "method": "ping"})["result"] == {}
    assert [json.loads(line)["tool"] for line in log.read_text().splitlines()] == [
        "add_numbers", "divide_numbers", "add_numbers", "no_such_tool"]


def test_sdk_server_stdio_serves_2026_07_28_via_discover():
    with StdioClient("sdk_server", "--tools", "20", "--lying-tool") as server:
        discover = server.request({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                                   "params": {"_meta": MODERN_META}})["result"]
        assert "2026-07-28" in discover["supportedVersions"]
        listed = server.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": MODERN_META}})
        names = [tool["name"] for tool in listed["result"]["tools"]]
        assert len(names) == 21 and "delete_cache" in names  # 20 + the lying tool
        lying = next(tool for tool in listed["result"]["tools"] if tool["name"] == "delete_cache")
        assert lying["annotations"]["readOnlyHint"] is True


def test_destructive_tool_writes_the_marker(tmp_path):
    marker = tmp_path / "deleted"
    with StdioClient("sdk_server", env={"MCPLINT_FIXTURE_MARKER": str(marker)}) as server:
        server.initialize()
        assert server.request(call(2, "delete_note", {"note_id": "n1"}))["result"]["isError"] is False
    assert marker.read_text() == "delete_note n1\n"


@pytest.fixture(scope="module")
def sdk_http():
    with HttpServer("sdk_server") as server:
        yield server


def test_sdk_server_http_both_eras_and_origin(sdk_http):
    status, headers, body = post(sdk_http.url, initialize("2025-11-25"))
    assert status == 200 and body["result"]["protocolVersion"] == "2025-11-25" and "mcp-session-id" in headers
    status, _, body = post(sdk_http.url, {"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                                          "params": {"_meta": MODERN_META}},
                           headers={"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"})
    assert status == 200 and "2026-07-28" in body["result"]["supportedVersions"]
    status, _, _ = post(sdk_http.url, initialize(), headers={"Origin": "http://evil.example"})
    assert status == 403


def test_sdk_server_http_with_the_sdk_bearer_auth():
    with HttpServer("sdk_server", "--token", "fixture-token") as server:
        status, headers, body = post(server.url, initialize())
        assert status == 401 and body["error"] == "invalid_token"
        assert f'resource_metadata="http://127.0.0.1:{server.port}/.well-known/oauth-protected-resource/mcp"' in (
            headers["www-authenticate"])
        status, _, body = post(server.url, initialize(), headers={"Authorization": "Bearer fixture-token"})
        assert status == 200 and body["result"]["protocolVersion"] == "2025-11-25"


# --- the plain-stdlib baseline -----------------------------------------------------------------
def test_plain_server_stdio_answers_like_the_spec():
    with StdioClient("plain_server") as server:
        assert server.initialize("2025-06-18")["result"]["protocolVersion"] == "2025-06-18"
        assert server.request("{not json")["error"]["code"] == -32700
        assert server.request({"id": 3, "method": "ping"})["error"]["code"] == -32600
        assert server.request([{"jsonrpc": "2.0", "id": 4, "method": "ping"}])["error"]["code"] == -32600
        assert server.request({"jsonrpc": "2.0", "id": 5, "method": "nope/x"})["error"]["code"] == -32601
        assert server.request(call(6, "nope", {}))["error"]["code"] == -32602
        invalid = server.request(call(7, "add_numbers", {"a": "1"}))["result"]
        assert invalid["isError"] is True and "'b'" in invalid["content"][0]["text"]
        version_probe = server.request(initialize("1999-01-01", 8))["result"]
        assert version_probe["protocolVersion"] == "2025-11-25"
        tools = server.request({"jsonrpc": "2.0", "id": 9, "method": "tools/list"})["result"]["tools"]
        assert "title" in tools[0]  # still the 2025-06-18 session: the probe changed nothing


def test_plain_server_keeps_to_the_negotiated_version():
    with StdioClient("plain_server") as server:
        server.initialize("2024-11-05")
        tools = server.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})["result"]["tools"]
        assert all(set(tool) == {"name", "description", "inputSchema"} for tool in tools)
        assert "structuredContent" not in server.request(call(3, "add_numbers", {"a": 1, "b": 2}))["result"]
    with StdioClient("plain_server") as server:
        server.initialize("2025-03-26")
        answers = server.request([{"jsonrpc": "2.0", "id": 2, "method": "ping"},
                                  {"jsonrpc": "2.0", "id": 3, "method": "ping"}])
        assert [answer["id"] for answer in answers] == [2, 3]


@pytest.fixture(scope="module")
def plain_http():
    with HttpServer("plain_server", "--token", "fixture-token", "--rate-limit", "20") as server:
        yield server


def test_plain_server_http_gatekeeping(plain_http):
    auth = {"Authorization": "Bearer fixture-token"}
    status, headers, _ = post(plain_http.url, initialize())
    assert status == 401 and 'resource_metadata="http://127.0.0.1:' in headers["www-authenticate"]
    status, _, body = post(plain_http.url, initialize(), headers=auth)
    assert status == 200 and body["result"]["protocolVersion"] == "2025-11-25"
    assert post(plain_http.url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=auth)[0] == 202
    assert post(plain_http.url, initialize(), headers={**auth, "Origin": "http://evil.example"})[0] == 403
    assert post(plain_http.url, initialize(), headers={**auth, "Origin": "http://127.0.0.1:9"})[0] == 200
    status, _, body = post(plain_http.url, {"jsonrpc": "2.0", "id": 2, "method": "ping"},
                           headers={**auth, "MCP-Protocol-Version": "garbage"})
    assert status == 400 and body["error"]["code"] == -32600
    status, _, body = post(plain_http.url, "{oops", headers=auth)
    assert status == 400 and body["error"]["code"] == -32700
    status, _, body = post(plain_http.url, [{"jsonrpc": "2.0", "id": 3, "method": "ping"}],
                           headers={**auth, "MCP-Protocol-Version": "2025-06-18"})
    assert status == 400 and body["error"]["code"] == -32600
    statuses = [post(plain_http.url, {"jsonrpc": "2.0", "id": 9, "method": "ping"}, headers=auth)
                for _ in range(20)]
    throttled = [headers for status, headers, _ in statuses if status == 429]
    assert throttled and throttled[0]["retry-after"] == "10"


# --- the misbehaving servers -------------------------------------------------------------------
def test_wrong_error_codes():
    with StdioClient("wrong_error_codes") as server:
        server.initialize()
        assert server.request("{not json")["error"]["code"] == "PARSE_ERROR"
        assert server.request({"id": 2, "method": "ping"})["error"]["code"] == -1
        assert server.request({"jsonrpc": "2.0", "id": 3, "method": "nope/x"})["error"]["code"] == 404
        assert server.request(call(4, "nope", {}))["error"]["code"] == 500


def test_errors_swapped():
    with StdioClient("errors_swapped") as server:
        server.initialize()
        failed = server.request(call(2, "get_forecast", {"city": "Lisbon"}))
        assert failed["error"]["code"] == -32603 and "unavailable" in failed["error"]["message"]
        unknown = server.request(call(3, "no_such_tool", {}))["result"]
        assert unknown["isError"] is True


def test_accepts_batches_at_every_version():
    with StdioClient("accepts_batches") as server:
        server.initialize("2025-11-25")
        answers = server.request([{"jsonrpc": "2.0", "id": 2, "method": "ping"},
                                  {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}])
        assert [answer["id"] for answer in answers] == [2, 3]


def test_bad_structured_content():
    with StdioClient("bad_structured_content") as server:
        server.initialize()
        point = server.request(call(2, "get_point", {"name": "square"}))["result"]
        assert point["structuredContent"]["x"] == "one"  # the schema says number
        assert "structuredContent" not in server.request(call(3, "get_size", {"name": "square"}))["result"]
        colour = server.request(call(4, "get_colour", {"name": "square"}))["result"]
        assert colour["structuredContent"] == {"colour": "red"} and colour["content"][0]["text"] == "The colour is red."


@pytest.mark.parametrize("name, headers, expected", [
    ("ignores_version_header", {"MCP-Protocol-Version": "garbage"}, 200),
    ("foreign_origin", {"Origin": "http://evil.example"}, 200),
    ("auth_no_challenge", {}, 401),
])
def test_http_misbehaviour(name, headers, expected):
    with HttpServer(name) as server:
        status, found, _ = post(server.url, initialize(), headers=headers)
        assert status == expected
        assert "www-authenticate" not in found


def test_redirects_everything_elsewhere():
    with HttpServer("redirects", "--to", "http://127.0.0.1:9/mcp") as server:
        status, headers, _ = post(server.url, initialize())
        assert status == 307 and headers["location"] == "http://127.0.0.1:9/mcp"


def test_plain_server_without_rate_limit_never_throttles():
    with HttpServer("plain_server") as server:
        assert {post(server.url, {"jsonrpc": "2.0", "id": n, "method": "ping"})[0] for n in range(60)} == {200}


# --- failure modes -----------------------------------------------------------------------------
def test_hangs_answers_nothing():
    with StdioClient("hangs") as server:
        assert server.request(initialize(), timeout=0.5) is None
        assert server.proc.poll() is None  # still alive, just silent
    assert not wait_for_no_orphans(server.tag)


def test_hangs_over_http_never_responds():
    with HttpServer("hangs") as server:
        with pytest.raises(TimeoutError):
            post(server.url, initialize(), timeout=0.5)
    assert not wait_for_no_orphans(server.tag)


def test_crashes_after_n_messages():
    with StdioClient("crashes", "--after", "2") as server:
        assert server.initialize()["result"]
        assert server.read_line(timeout=0.3) is None  # the 2nd message (initialized) needs no answer...
        assert server.request({"jsonrpc": "2.0", "id": 3, "method": "ping"}) is None
        assert server.proc.wait(5) == 3
    assert "fatal: simulated crash after 2 messages" in server.stderr_text


def test_garbage_stdout_prints_a_banner_first():
    with StdioClient("garbage_stdout") as server:
        server.send(initialize())
        assert server.read_line() == "Notes server 1.0 ready, listening on stdio"
        assert json.loads(server.read_line())["result"]["protocolVersion"] == "2025-11-25"


def test_never_initializes_answers_everything_else():
    with StdioClient("never_initializes") as server:
        assert server.request(initialize(), timeout=0.5) is None
        discover = server.request({"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {}})
        assert discover["error"]["code"] == -32601
        assert server.request({"jsonrpc": "2.0", "id": 3, "method": "ping"})["result"] == {}


def test_orphans_finds_tagged_processes_until_they_are_gone():
    """The positive control for every no-orphan assertion: the tag is seen while the server lives."""
    with StdioClient("plain_server") as server:
        # Between fork and exec /proc shows the parent's environment, without the tag: an answer
        # proves the server has started.
        assert server.initialize()
        assert orphans(server.tag) == [server.proc.pid]
    assert not wait_for_no_orphans(server.tag)


def test_free_port_has_no_listener():
    port = free_port()
    started = time.monotonic()
    with pytest.raises(ConnectionRefusedError):
        post(f"http://127.0.0.1:{port}/mcp", initialize(), timeout=2)
    assert time.monotonic() - started < 2
