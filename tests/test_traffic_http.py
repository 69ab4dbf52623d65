"""HTTP transport rules (MCP800-MCP825) beyond their case files: HAR captures, the
real corpus, the checklist evidence they give, and the helpers in mcplint/capture/http.py."""

from __future__ import annotations

import json

import pytest

from conftest import shared_path
from mcplint import engine
from mcplint.capture import http
from mcplint.capture.lint import lint_capture
from mcplint.capture.records import Record
from mcplint.config import Config
from mcplint.document.pointer import Pointer
from mcplint.testing import lint_text

HTTP_RULES = ["MCP80", "MCP81", "MCP82"]  # code prefixes: MCP800-MCP829
URL = "http://127.0.0.1:38002/mcp"
JSON = {"content-type": "application/json"}


def entry(started: str, method: str, status: int, request_headers: dict, response_headers: dict,
          body: str | None = None, response: str = "", mime: str = "application/json") -> dict:
    """One HAR entry, as mitmproxy writes it."""
    request = {"method": method, "url": URL, "httpVersion": "HTTP/1.1",
               "headers": [{"name": k, "value": v} for k, v in request_headers.items()]}
    if body is not None:
        request["postData"] = {"mimeType": "application/json", "text": body}
    return {
        "startedDateTime": started,
        "request": request,
        "response": {"status": status, "httpVersion": "HTTP/1.1",
                     "headers": [{"name": k, "value": v} for k, v in response_headers.items()],
                     "content": {"size": len(response), "mimeType": mime, "text": response}},
    }


def har(*entries) -> str:
    return json.dumps({"log": {"version": "1.2", "creator": {"name": "mitmproxy", "version": "12.2.3"},
                               "entries": list(entries)}}, indent=1)


def rpc(**fields) -> str:
    return json.dumps({"jsonrpc": "2.0", **fields}, separators=(",", ":"))


INITIALIZE = entry(
    "2026-11-22T02:14:18.000+00:00", "POST", 200, {"Host": "127.0.0.1:38002"},
    {"content-type": "text/event-stream", "mcp-session-id": "5c5f76cbd21b410ea545004a069946ac"},
    rpc(id=1, method="initialize", params={"protocolVersion": "2025-11-25", "capabilities": {},
                                           "clientInfo": {"name": "corpus-sdk-client", "version": "0.1.0"}}),
    "event: message\r\ndata: " + rpc(id=1, result={"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                                                    "serverInfo": {"name": "corpus-demo", "version": "1.0.0"}}) + "\r\n\r\n",
    "text/event-stream",
)
SESSION = {"Host": "127.0.0.1:38002", "mcp-session-id": "5c5f76cbd21b410ea545004a069946ac",
           "mcp-protocol-version": "2025-11-25"}


# -- HAR captures ---------------------------------------------------------------------------


def test_har_foreign_origin_accepted_over_sse_is_one_finding_at_the_entry_status():
    events = ("id: 1\ndata: \n\n"  # a priming event, then two messages on one response
              "event: message\ndata: " + rpc(method="notifications/message", params={"level": "info", "data": "x"})
              + "\n\nevent: message\ndata: " + rpc(id=2, result={}) + "\n\n")
    ping = entry("2026-11-22T02:14:19.000+00:00", "POST", 200, {**SESSION, "Origin": "http://evil.example"},
                 {"content-type": "text/event-stream", "Access-Control-Allow-Origin": "*"},
                 rpc(id=2, method="ping"), events, "text/event-stream")
    # Entries as mitmproxy appends them: the ping completed first; order comes from startedDateTime.
    findings = lint_text(har(ping, INITIALIZE), "har", select=HTTP_RULES)
    assert [(f.code, f.pointer) for f in findings] == [("MCP821", "/log/entries/0/response/status")]
    origin, = findings[0].related
    assert origin.pointer == "/log/entries/0/request/headers/3/value"


def test_har_401_without_challenge_and_429_without_retry_after():
    unauthorized = entry("2026-11-22T02:14:19.000+00:00", "POST", 401, SESSION, {"content-type": "text/plain"},
                         rpc(id=2, method="tools/list"), "Unauthorized", "text/plain")
    limited = entry("2026-11-22T02:14:20.000+00:00", "POST", 429, SESSION, {"content-type": "application/json"},
                    rpc(id=3, method="tools/list"), rpc(id=3, error={"code": -32000, "message": "Too many requests"}))
    findings = lint_text(har(INITIALIZE, unauthorized, limited), "har", select=HTTP_RULES)
    assert [(f.code, f.pointer) for f in findings] == [
        ("MCP800", "/log/entries/1/response/status"),
        ("MCP805", "/log/entries/2/response/status"),
    ]


def test_har_unknown_method_outside_404_in_a_stateless_session():
    meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}}}
    headers = {"Host": "127.0.0.1:38002", "mcp-protocol-version": "2026-07-28"}
    listing = entry("2026-11-22T02:14:18.000+00:00", "POST", 200, {**headers, "mcp-method": "tools/list"}, JSON,
                    rpc(id=1, method="tools/list", params=meta),
                    rpc(id=1, result={"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "private"}))
    unknown = entry("2026-11-22T02:14:19.000+00:00", "POST", 200, {**headers, "mcp-method": "nonexistent/method"}, JSON,
                    rpc(id=2, method="nonexistent/method", params=meta),
                    rpc(id=2, error={"code": -32601, "message": "Method not found"}))
    findings = lint_text(har(listing, unknown), "har", select=HTTP_RULES)
    assert [(f.code, f.pointer) for f in findings] == [("MCP820", "/log/entries/1/response/status")]


# -- the corpus -------------------------------------------------------------------------------

# What the corpus README's "What is on the wire" says the servers do wrong, and nothing else.
EXPECTED = {
    "everything-http-probes.jsonl": [
        ("MCP812", "/6/http/headers/MCP-Protocol-Version"),  # the probe's bad version (client, info)
        ("MCP812", "/8/http/headers"),  # the probe without the header (client, info)
        ("MCP819", "/21/http/status"),  # deleted session id -> 400
        ("MCP821", "/1/http/status"),  # foreign Origin initialize -> 200
        ("MCP821", "/17/http/status"),  # foreign Origin ping -> 200
    ],
    "python-sdk-demo-http-probes-2025-11-25.jsonl": [
        ("MCP812", "/6/http/headers/MCP-Protocol-Version"),
        ("MCP812", "/8/http/headers"),
        ("MCP824", "/11/http/headers/mcp-session-id"),  # a fresh id on the 400 "Missing session ID"
    ],
    "python-sdk-demo-http-probes.jsonl": [
        ("MCP811", "/3/message/error/code"),  # header/_meta mismatch answered -32600, not -32020
        ("MCP812", "/2/http/headers/MCP-Protocol-Version"),
        ("MCP825", "/3/http/headers/mcp-session-id"),  # a 2026-07-28 server minting a session id
    ],
}


def _corpus_files():
    corpus = shared_path("corpus")
    return sorted([*corpus.glob("transcripts/*.jsonl"), *corpus.glob("har/*.har")])


def _lint(path, version=None):
    plan = engine.Plan.build(Config(select=HTTP_RULES), version=version)
    return lint_capture(str(path), path.name, plan)


def test_corpus_http_findings_are_exactly_the_known_deviations():
    for path in _corpus_files():
        linted = _lint(path)
        got = sorted((f.code, f.pointer) for f in linted.findings)
        assert got == sorted(EXPECTED.get(path.name, [])), (path.name, [(f.code, f.pointer, f.message) for f in linted.findings])
        for finding in linted.findings:
            if finding.code == "MCP812":
                assert finding.severity.value == "info"


def test_checklist_items_over_http_and_stdio():
    corpus = shared_path("corpus")
    over_http = _lint(corpus / "transcripts" / "everything-http.jsonl").unassessed
    assert 17 not in over_http and 21 not in over_http
    assert over_http[18] == "the capture has no 429 or throttling response"
    over_stdio = _lint(corpus / "transcripts" / "everything-stdio.jsonl").unassessed
    assert {17, 18, 21} <= set(over_stdio)


# -- helpers ----------------------------------------------------------------------------------


def test_challenges_parse_schemes_params_and_quoted_commas():
    value = 'Basic realm="a, b", Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://x/.well-known/oauth-protected-resource"'
    assert http.challenges(value) == [
        ("basic", {"realm": "a, b"}),
        ("bearer", {"error": "insufficient_scope", "scope": "files:read files:write",
                    "resource_metadata": "https://x/.well-known/oauth-protected-resource"}),
    ]
    assert http.names_resource_metadata(value)
    assert not http.names_resource_metadata('Bearer error_description="no resource_metadata here"')
    assert http.challenges("Negotiate YIIB4wYGKwYBBQUCoIIB1zCC==") == [("negotiate", {})]


@pytest.mark.parametrize("origin,host,foreign", [
    ("http://evil.example", "127.0.0.1:38001", True),
    ("null", "127.0.0.1:38001", True),
    ("http://127.0.0.1:38001", "127.0.0.1:38001", False),
    ("http://localhost:5173", "127.0.0.1:38001", False),  # both loopback
    ("http://[::1]:3000", "localhost:8000", False),
    ("https://app.example.com", "mcp.example.com", True),
    ("https://mcp.example.com", "mcp.example.com:443", False),
])
def test_foreign_origin(origin, host, foreign):
    record = Record(0, Pointer((0, "message")), "client", None,
                    {"method": "POST", "url": f"http://{host}/mcp", "headers": {"Host": host, "Origin": origin}})
    assert (http.foreign_origin(record) is not None) is foreign


def test_session_ids_and_loopback():
    assert http.session_id_ok("a403e4f0-d797-44f6-9e6b-e0a15284e777")
    assert not http.session_id_ok("") and not http.session_id_ok("a b") and not http.session_id_ok("sesión")
    assert http.is_loopback("127.0.0.2") and http.is_loopback("[::1]") and http.is_loopback("app.localhost")
    assert not http.is_loopback("10.0.0.1") and not http.is_loopback("example.com")
