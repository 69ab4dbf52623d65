"""Checklist item 8 judged by the standard code each failure calls for, not only by code ranges
(issue 10, part 1): real fixture servers audited end to end, plus the capture paths the audit
does not take (a HAR file, a recorded transcript read back).

- swapped_standard_codes.py: -32602 for an unknown method (the 1.x Python SDK's answer), -32600
  and -32700 swapped: MCP715, over stdio and HTTP.
- html_error_page.py: an HTML 400 debug page with a traceback for malformed JSON and for an
  invalid request: MCP717 (item 8) and MCP718 (items 10 and 19).
- plain_server.py, the compliant baseline: none of MCP715-MCP718, over stdio and HTTP.

Every subprocess has a hard timeout; HTTP servers listen on 127.0.0.1 and are stopped, process
group and all, whatever happens.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from mcplint.testing import lint_text
from servers import HttpServer, server_command

TIMEOUT = 90
NEW_RULES = {"MCP715", "MCP716", "MCP717", "MCP718"}


def mcplint(*args: str) -> dict:
    command, rest = args[0], args[1:]
    env = {**{k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "mcplint", command, "--format", "json", *rest], cwd=ROOT,
                          capture_output=True, timeout=TIMEOUT, env=env)
    assert proc.returncode in (0, 1), f"exit {proc.returncode}: {proc.stderr.decode()[-2000:]}"
    return json.loads(proc.stdout)


def audit_stdio(server: str, *options: str) -> dict:
    return mcplint("audit", *options, "--", *server_command(server))


def audit_http(server: str, *options: str) -> dict:
    with HttpServer(server) as running:
        return mcplint("audit", *options, running.url)


def ours(report: dict) -> list[tuple[str, str, str]]:
    return [(f["rule"], f["severity"], f["message"]) for f in report["findings"] if f["rule"] in NEW_RULES]


def status(report: dict, item: int) -> str:
    return next(i["status"] for i in report["summary"]["checklist"] if i["item"] == item)


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_wrong_standard_codes_fail_item_8(transport):
    report = (audit_stdio if transport == "stdio" else audit_http)("swapped_standard_codes")
    assert ours(report) == [
        ("MCP715", "warning", "the unknown method 'mcplint/no-such-method' was answered with -32602 (Invalid params); "
                            "JSON-RPC's code for it is -32601 (Method not found)"),
        ("MCP715", "warning", "text that is not valid JSON was answered with -32600 (Invalid Request); "
                            "JSON-RPC's code for it is -32700 (Parse error)"),
        ("MCP715", "warning", "valid JSON that is not a valid request was answered with -32700 (Parse error); "
                            "JSON-RPC's code for it is -32600 (Invalid Request)"),
    ]
    assert status(report, 8) == "fail"


def test_html_debug_page_fails_items_8_10_and_19(tmp_path):
    record = tmp_path / "session.jsonl"
    audited = audit_http("html_error_page", "--record", str(record))
    found = ours(audited)
    assert [(rule, severity) for rule, severity, _ in found] == [
        ("MCP717", "warning"), ("MCP718", "warning"), ("MCP717", "warning"), ("MCP718", "warning")]
    assert found[0][2].startswith("malformed JSON was answered with an HTML page (HTTP 400), not a JSON-RPC error")
    assert found[2][2].startswith("an invalid request was answered with an HTML page (HTTP 400)")
    assert found[1][2].startswith("an HTML page sent with HTTP 400 shows a stack trace")
    assert [status(audited, item) for item in (8, 10, 19)] == ["fail", "fail", "fail"]
    # The recorded transcript, read back by `mcplint check`, holds the page and says the same.
    checked = mcplint("check", str(record))
    assert ours(checked) == found
    pages = [json.loads(line) for line in record.read_text().splitlines()]
    assert sum("Traceback" in line.get("raw", "") for line in pages if line["from"] == "server") == 2


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_compliant_server_stays_silent(transport):
    report = (audit_stdio if transport == "stdio" else audit_http)("plain_server")
    assert ours(report) == []
    assert status(report, 8) == "pass"


PAGE = ('<html><body><h1>400 Bad Request</h1><pre>Traceback (most recent call last):\n'
        '  File "/srv/app/main.py", line 12, in handle\nValueError: Expecting value</pre></body></html>')


def har_entry(body: str, status: int, content_type: str, text: str) -> dict:
    return {
        "startedDateTime": "2026-11-23T12:00:00.000Z", "time": 1,
        "request": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "httpVersion": "HTTP/1.1",
                    "headers": [{"name": "Content-Type", "value": "application/json"}], "cookies": [],
                    "queryString": [], "headersSize": -1, "bodySize": len(body),
                    "postData": {"mimeType": "application/json", "text": body}},
        "response": {"status": status, "statusText": "", "httpVersion": "HTTP/1.1",
                     "headers": [{"name": "Content-Type", "value": content_type}], "cookies": [],
                     "content": {"size": len(text), "mimeType": content_type, "text": text},
                     "redirectURL": "", "headersSize": -1, "bodySize": len(text)},
        "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0},
    }


def test_har_of_a_real_client_judges_the_request_itself(tmp_path):
    """No probe tags in a browser's HAR: the body that is not JSON, the request with a number as
    its method and the typo'd method name are what say which code is due."""
    ok = {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                                                "serverInfo": {"name": "notes", "version": "1.0"}}}
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "web", "version": "1"}}}
    typo = {"jsonrpc": "2.0", "id": 2, "method": "tools/lists"}
    typo_answer = {"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "Invalid request parameters"}}
    invalid = {"jsonrpc": "2.0", "id": 3, "method": 1}
    invalid_answer = {"jsonrpc": "2.0", "id": 3, "error": {"code": -32700, "message": "Parse error"}}
    har = {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
        har_entry(json.dumps(init), 200, "application/json", json.dumps(ok)),
        har_entry(json.dumps(typo), 200, "application/json", json.dumps(typo_answer)),
        har_entry(json.dumps(invalid), 400, "application/json", json.dumps(invalid_answer)),
        har_entry('{"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {', 400, "text/html", PAGE),
    ]}}
    path = tmp_path / "browser.har"
    path.write_text(json.dumps(har))
    found = [(f["rule"], f["pointer"], f["message"]) for f in mcplint("check", str(path))["findings"]
             if f["rule"] in NEW_RULES]
    assert found == [
        ("MCP715", "/log/entries/1/response/content/text/error/code",
         "the unknown method 'tools/lists' was answered with -32602 (Invalid params); JSON-RPC's code for it is "
         "-32601 (Method not found)"),
        ("MCP715", "/log/entries/2/response/content/text/error/code",
         "valid JSON that is not a valid request was answered with -32700 (Parse error); JSON-RPC's code for it "
         "is -32600 (Invalid Request)"),
        ("MCP717", "/log/entries/3/response/content/text",
         'malformed JSON was answered with an HTML page (HTTP 400), not a JSON-RPC error; send {"jsonrpc": '
         '"2.0", "id": null, "error": {"code": -32700, ...}} so clients can tell what failed'),
        ("MCP718", "/log/entries/3/response/content/text",
         "an HTML page sent with HTTP 400 shows a stack trace; turn off debug error pages and answer with a short "
         "JSON-RPC error"),
    ]


DISCOVER = ('{"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": '
            '{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}\n'
            '{"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", '
            '"supportedVersions": ["2026-07-28"], "capabilities": {}, "ttlMs": 0, "cacheScope": "public"}}}\n')
UNKNOWN = ('{"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "mcplint/no-such-method", "params": '
           '{"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}, "probe": "unknown-method"}\n'
           '{"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "Invalid"}}}\n')


HANDSHAKE_UNKNOWN = ('{"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "mcplint/no-such-method"}, '
                     '"probe": "unknown-method"}\n'
                     '{"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "x"}}}\n')


@pytest.mark.parametrize("transcript, version, severity", [
    (HANDSHAKE_UNKNOWN, "2025-11-25", "warning"), (DISCOVER + UNKNOWN, None, "error")])
def test_unknown_method_is_an_error_where_2026_07_28_requires_32601(transcript, version, severity):
    """JSON-RPC names -32601 without a MUST (warning); 2026-07-28 requires it (error)."""
    findings = lint_text(transcript, "jsonl", select=["MCP715"], version=version)
    assert [f.severity.value for f in findings] == [severity]
