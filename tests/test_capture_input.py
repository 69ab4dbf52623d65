"""Reading captures: JSONL transcripts and HAR files, good and bad, located exactly.

Bad input never loses the rest of the file: a line that is not JSON is a finding (MCP600)
and everything after it is still linted. Whole-file problems are one line on stderr, exit 2.
"""

from __future__ import annotations

import base64
import json
import resource
import subprocess
import sys

import pytest

from conftest import ROOT, run_mcplint
from mcplint.capture import sse
from mcplint.testing import lint_text
from test_bad_input import assert_one_line_error

INIT = [
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}},
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {
        "protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}},
    {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}},
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}},
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
        {"name": "getWeather", "description": "Get the weather for a city.",
         "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name."}}}}]}}},
]


def jsonl(records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def check_json(tmp_path, name: str, content: bytes, *extra: str):
    path = tmp_path / name
    path.write_bytes(content)
    proc = run_mcplint("check", str(path), "--format", "json", *extra)
    assert b"Traceback" not in proc.stderr, proc.stderr.decode()
    return proc, path


# -- locations ------------------------------------------------------------------------------


def test_jsonl_findings_name_the_line_column_and_pointer_of_the_value(tmp_path):
    proc, _ = check_json(tmp_path, "session.jsonl", jsonl(INIT).encode(), "--select", "MCP202")
    finding, = json.loads(proc.stdout)["findings"]
    assert finding["pointer"] == "/4/message/result/tools/0/name"
    line = jsonl(INIT).splitlines()[4]
    assert (finding["line"], finding["column"]) == (5, line.index('"getWeather"') + 1)
    assert finding["tool"] == "getWeather"
    payload = json.loads(proc.stdout)
    assert payload["summary"]["protocol_versions"] == ["2025-06-18"]
    assert payload["summary"]["captures"] == 1 and payload["summary"]["tools"] == 1


def test_har_findings_point_inside_the_embedded_sse_event(tmp_path):
    body = "event: message\r\nid: 7\r\ndata: " + json.dumps(INIT[4]["message"]) + "\r\n\r\n"
    har = {"log": {"version": "1.2", "entries": [
        _entry("2026-01-01T00:00:01Z", INIT[3]["message"], body, "text/event-stream"),
        _entry("2026-01-01T00:00:00Z", INIT[0]["message"], json.dumps(INIT[1]["message"]), "application/json"),
    ]}}
    text = json.dumps(har, indent=1)
    proc, _ = check_json(tmp_path, "capture.har", text.encode(), "--select", "MCP202")
    payload = json.loads(proc.stdout)
    finding, = payload["findings"]
    assert finding["pointer"] == "/log/entries/0/response/content/text/0/result/tools/0/name"
    line_text = text.splitlines()[finding["line"] - 1]
    # The column is the value's own, inside the escaped string: \"getWeather\"
    assert line_text[finding["column"] - 1:].startswith('\\"getWeather\\"')
    assert payload["summary"]["protocol_versions"] == ["2025-06-18"]  # sorted by startedDateTime


def test_base64_har_bodies_are_decoded(tmp_path):
    encoded = base64.b64encode(json.dumps(INIT[4]["message"]).encode()).decode()
    entry = _entry("2026-01-01T00:00:01Z", INIT[3]["message"], encoded, "application/json")
    entry["response"]["content"]["encoding"] = "base64"
    har = {"log": {"entries": [_entry("2026-01-01T00:00:00Z", INIT[0]["message"], json.dumps(INIT[1]["message"]),
                                      "application/json"), entry]}}
    proc, _ = check_json(tmp_path, "b64.har", json.dumps(har).encode(), "--select", "MCP202")
    finding, = json.loads(proc.stdout)["findings"]
    assert finding["pointer"].endswith("/response/content/text/result/tools/0/name")


def _entry(started, request, body, mime, status=200):
    return {
        "startedDateTime": started,
        "request": {"method": "POST", "url": "http://127.0.0.1:9/mcp", "headers": [
            {"name": "Content-Type", "value": "application/json"}], "postData": {
            "mimeType": "application/json", "text": json.dumps(request)}},
        "response": {"status": status, "headers": [{"name": "Content-Type", "value": mime}],
                     "content": {"mimeType": mime, "text": body}},
    }


# -- bad input that is a finding: the rest is still linted -----------------------------------


def test_a_line_that_is_not_json_is_a_finding_and_the_rest_is_linted(tmp_path):
    lines = jsonl(INIT).splitlines()
    lines.insert(2, "INFO server ready")
    proc, _ = check_json(tmp_path, "noisy.jsonl", ("\n".join(lines) + "\n").encode(), "--select", "MCP600,MCP202")
    findings = {(f["rule"], f["line"]) for f in json.loads(proc.stdout)["findings"]}
    assert findings == {("MCP600", 3), ("MCP202", 6)}
    assert proc.returncode == 1


def test_truncated_last_line(tmp_path):
    text = jsonl(INIT)[:-20]
    proc, _ = check_json(tmp_path, "cut.jsonl", text.encode(), "--select", "MCP600")
    finding, = json.loads(proc.stdout)["findings"]
    assert finding["line"] == 5 and finding["message"].startswith("Truncated JSON")


def test_sse_body_with_a_partial_event(tmp_path):
    body = "event: message\ndata: " + json.dumps(INIT[4]["message"])[:40]
    har = {"log": {"entries": [_entry("2026-01-01T00:00:00Z", INIT[3]["message"], body, "text/event-stream")]}}
    proc, _ = check_json(tmp_path, "partial.har", json.dumps(har).encode(), "--select", "MCP600")
    finding, = json.loads(proc.stdout)["findings"]
    assert finding["message"].startswith("SSE event ends early")
    assert finding["pointer"] == "/log/entries/0/response/content/text/0"


def test_the_sse_parser_keeps_ids_joins_data_lines_and_drops_priming_events():
    events = sse.parse("id: a\ndata: \n\n: comment\r\nevent: message\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\ndata: x")
    assert [(e.data, e.id, e.event, e.complete) for e in events] == [
        ('{"a":\n1}', "a", "message", True), ("x", "a", None, False),
    ]


# -- whole-file problems: exit 2, one line ---------------------------------------------------


@pytest.mark.parametrize("name,content,fragments", [
    ("empty.jsonl", b"", ["empty file"]),
    ("blank.jsonl", b"\n\n  \n", ["empty file"]),
    ("dataset.jsonl", b'{"text": "hello", "label": 1}\n{"text": "bye", "label": 0}\n', ["not an MCP transcript"]),
    ("binary.jsonl", b"\x00\x01\x02" * 100, ["binary file"]),
    ("site.har", json.dumps({"log": {"entries": [{"request": {"method": "GET", "url": "https://example.com/"},
                                                  "response": {"status": 200, "content": {"text": "<html>"}}}]}}).encode(),
     ["no MCP traffic in this HAR file", "1 entries"]),
    ("notahar.har", b'{"version": "1.2"}', ["not a HAR file"]),
    ("broken.har", b'{"log": {"entries": [', ["invalid JSON"]),
])
def test_unusable_captures_are_one_line_errors(tmp_path, name, content, fragments):
    proc, path = check_json(tmp_path, name, content)
    assert_one_line_error(proc, str(path), *fragments)


def test_walked_folders_skip_jsonl_files_that_are_not_transcripts(tmp_path):
    (tmp_path / "data.jsonl").write_text('{"text": "hello"}\n')
    (tmp_path / "session.jsonl").write_text(jsonl(INIT))
    proc = run_mcplint("check", str(tmp_path), "--format", "json", "-v")
    assert proc.returncode in (0, 1), proc.stderr.decode()
    assert "skipped" in proc.stderr.decode() and "data.jsonl" in proc.stderr.decode()
    assert json.loads(proc.stdout)["summary"]["captures"] == 1


def test_a_transcript_on_standard_input():
    proc = run_mcplint("check", "-", "--format", "json", "--select", "MCP202", stdin=jsonl(INIT).encode())
    finding, = json.loads(proc.stdout)["findings"]
    assert finding["path"] == "<stdin>" and finding["line"] == 5


def test_a_gigabyte_transcript_is_streamed_in_constant_memory(tmp_path):
    """1 GiB: a session with 1,000 pings, then one 1 GiB line (sparse, so it costs no disk),
    then more traffic. The huge line is a finding; memory stays small; what follows is
    still linted."""
    path = tmp_path / "huge.jsonl"
    pings = [r for i in range(1000) for r in (
        {"from": "client", "message": {"jsonrpc": "2.0", "id": f"p{i}", "method": "ping"}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": f"p{i}", "result": {}}},
    )]
    head = jsonl(INIT[:3] + pings).encode()
    tail = ("\n" + jsonl(INIT[3:])).encode()
    with open(path, "wb") as handle:
        handle.write(head + b'{"from": "server", "message": "')
        handle.seek(1 << 30, 1)
        handle.write(b'"}' + tail)
    code = (
        "import resource, subprocess, sys\n"
        f"proc = subprocess.run([sys.executable, '-m', 'mcplint', 'check', {str(path)!r}, '--format', 'json',"
        " '--select', 'MCP600,MCP202'], capture_output=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.stdout.write(proc.stdout.decode())\n"
        "sys.stderr.write(proc.stderr.decode())\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, timeout=300)
    peak_kib, _, report = proc.stdout.decode().partition("\n")
    assert int(peak_kib) < 200 * 1024, f"peak memory {int(peak_kib) // 1024} MiB"
    findings = {(f["rule"], f["line"], f["message"][:30]) for f in json.loads(report)["findings"]}
    assert findings == {("MCP600", 2004, "Line is 1024.0 MiB, over the 2"), ("MCP202", 2006, "Tool name 'getWeather' is not ")}


def test_detected_versions_match_what_each_corpus_capture_negotiated():
    from conftest import shared_path

    corpus = shared_path("corpus")
    expected = {}
    for row in (corpus / "README.md").read_text().splitlines():
        cells = [c.strip() for c in row.split("|")]
        if len(cells) > 3 and cells[1].startswith("`") and ".jsonl" in cells[1]:
            versions = [v.strip("* ") for v in cells[3].split("/")]
            for name, version in zip((n.strip(" `") for n in cells[1].split(",")), versions * 3):
                expected[name] = version
    assert len(expected) >= 20
    for name, version in expected.items():
        proc = run_mcplint("check", str(corpus / "transcripts" / name), "--format", "json", "--select", "MCP600")
        assert json.loads(proc.stdout)["summary"]["protocol_versions"] == [version], name


def test_a_capture_no_request_of_which_was_answered_says_so(tmp_path):
    """mcp-server-qdrant died while downloading a model: its recording holds only the client's
    lines, and the report said "No problems found" as if the server had been judged."""
    path = tmp_path / "dead.jsonl"
    path.write_text(json.dumps({"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                           "clientInfo": {"name": "c", "version": "1"}}}}) + "\n")
    proc = run_mcplint("check", str(path))
    assert proc.returncode == 0
    assert proc.stderr.decode() == (f"mcplint: warning: {path}: no request in the capture was answered, so nothing "
                                    "the server does could be judged (protocol version 2026-07-28 was not negotiated)\n")
    answered = run_mcplint("check", str(ROOT / "fixtures" / "captures" / "weather-http.jsonl"))
    assert b"was answered" not in answered.stderr
