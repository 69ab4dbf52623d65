"""`mcplint audit` on the command line: flags, bad input, unreachable and misdirecting
endpoints, credentials, and the HTTP transport against tiny in-process HTTP servers.

The full audits of real MCP servers are in test_audit_e2e.py; the servers here only
answer what a test needs (a redirect, a 401, an SSE body cut into pieces)."""

from __future__ import annotations

import io
import json
import socket
import sys
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import pytest

from conftest import run_mcplint
from mcplint.audit.http import HttpClient
from mcplint.audit.recorder import Recorder
from mcplint.audit.stdio import ServerError


def one_line_error(proc, code: int = 2) -> str:
    err = proc.stderr.decode()
    assert proc.returncode == code, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("mcplint: error:")]
    assert lines, err
    return lines[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def http_server(respond):
    """A threaded HTTP/1.1 server on 127.0.0.1; ``respond(handler, body)`` answers each request.
    Yields (url, requests seen)."""
    seen: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            seen.append({"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body})
            respond(self, body)

        do_POST = do_GET = do_DELETE = _any

        def log_message(self, *args):
            pass

    class Server(ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            pass  # a client that hangs up (a timeout test, a TLS hello) is expected here

    server = Server(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/mcp", seen
    finally:
        server.shutdown()
        server.server_close()


def send(handler, status: int, body: bytes = b"", headers: dict | None = None):
    handler.send_response(status)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


# --- flags and bad input -------------------------------------------------------------------------
@pytest.mark.parametrize("args, message", [
    ((), "Missing argument"),
    (("http://127.0.0.1:1/mcp", "extra"), "a URL takes no further arguments"),
    (("--env", "A=1", "http://127.0.0.1:1/mcp"), "--env and --cwd apply to a server command"),
    (("--header", "X-A: 1", "--", "python", "-V"), "--header applies to a URL"),
    (("--header", "no colon", "http://127.0.0.1:1/mcp"), "expected 'Name: value'"),
    (("--header", "Authorization: Bearer $MCPLINT_TEST_UNSET_VARIABLE", "http://127.0.0.1:1/mcp"),
     "environment variable MCPLINT_TEST_UNSET_VARIABLE is not set"),
    (("--header", "Host: elsewhere", "http://127.0.0.1:1/mcp"), "set by the audit itself"),
    (("--env", "NOEQUALS", "--", "python", "-V"), "expected KEY=VALUE"),
    (("--record", "session.txt", "http://127.0.0.1:1/mcp"), "name the file *.jsonl"),
    (("--probe-rate-limit", "501", "http://127.0.0.1:1/mcp"), "between 1 and 500"),
    (("--probe-rate-limit", "0", "http://127.0.0.1:1/mcp"), "between 1 and 500"),
    (("--timeout", "0", "http://127.0.0.1:1/mcp"), "--timeout must be"),
    (("--protocol-version", "2099-01-01", "http://127.0.0.1:1/mcp"), "is not one of"),
    (("--cwd", "/nonexistent/folder", "--", "python", "-V"), "not a directory"),
    (("ftp://example.com/mcp",), "expected an http:// or https:// URL"),
    (("https://user:secret@example.com/mcp",), "put credentials in --header"),
    (("--config", "missing.yaml", "http://127.0.0.1:1/mcp"), "config file not found"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    proc = run_mcplint("audit", *args)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert message in err
    assert "Traceback" not in err


def test_help_lists_the_interface():
    text = run_mcplint("audit", "--help").stdout.decode()
    for flag in ("--record", "--env", "--cwd", "--header", "--timeout", "--call-read-only", "--allow-calls",
                 "--probe-rate-limit", "--protocol-version", "--format", "--output", "--select", "--ignore",
                 "--fail-on", "--config"):
        assert flag in text


# --- unreachable, unstartable -----------------------------------------------------------------------
def test_nothing_listening():
    port = free_port()
    started = time.monotonic()
    line = one_line_error(run_mcplint("audit", f"http://127.0.0.1:{port}/mcp"))
    assert line == f"mcplint: error: http://127.0.0.1:{port}/mcp: nothing is listening at 127.0.0.1:{port} (connection refused)"
    assert time.monotonic() - started < 10


def test_command_not_found():
    line = one_line_error(run_mcplint("audit", "--", "mcplint-no-such-command-xyz", "--flag"))
    assert line == "mcplint: error: cannot start the server: mcplint-no-such-command-xyz: command not found"


def test_a_server_that_prints_its_usage_and_exits_is_quoted():
    """launchdarkly's server needs a `start` subcommand: without it, it prints its usage to stdout
    and exits 0, and the error said only "exited with status 0" (repository mode round 3)."""
    usage = "print('USAGE'); print('  srv start [--transport stdio]'); print('\\x1b[31mCOMMANDS')"
    line = one_line_error(run_mcplint("audit", "--timeout", "5", "--", sys.executable, "-c", usage))
    assert line.startswith("mcplint: error: the server exited with status 0"), line
    assert line.endswith("its standard output says: USAGE / srv start [--transport stdio] / \\x1b[31mCOMMANDS"), line


def test_tls_to_a_plain_http_server():
    with http_server(lambda handler, body: send(handler, 200, b"{}")) as (url, _):
        line = one_line_error(run_mcplint("audit", url.replace("http://", "https://"), "--timeout", "3"))
    assert "TLS error" in line


def test_record_file_cannot_be_written(tmp_path):
    line = one_line_error(run_mcplint("audit", "--record", str(tmp_path / "missing" / "s.jsonl"), "--", "python", "-V"))
    assert "cannot write" in line


# --- redirects are never followed --------------------------------------------------------------------
@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_redirect_to_another_origin_is_reported_not_followed(tmp_path, status):
    with http_server(lambda handler, body: send(handler, 200, b"{}")) as (elsewhere, hits):
        with http_server(lambda handler, body: send(handler, status, b"", {"Location": elsewhere})) as (url, seen):
            record = tmp_path / "s.jsonl"
            line = one_line_error(run_mcplint("audit", url, "--record", str(record),
                                              "--header", "Authorization: Bearer $SECRET_FOR_TEST",
                                              env={"SECRET_FOR_TEST": "t0ps3cret"}))
    assert line == (f"mcplint: error: {url}: the server redirected server/discover to {elsewhere} (HTTP {status}); "
                    "mcplint never follows redirects: audit that URL instead")
    assert hits == [], "the audit followed the redirect"
    assert len(seen) == 1
    assert seen[0]["headers"]["Authorization"] == "Bearer t0ps3cret"  # sent to the given origin only
    recorded = [json.loads(line) for line in record.read_text().splitlines()]
    assert recorded[1]["http"]["status"] == status and recorded[1]["http"]["headers"]["Location"] == elsewhere
    assert "t0ps3cret" not in record.read_text()


# --- credentials -----------------------------------------------------------------------------------------
def test_refused_credentials_are_recorded_redacted_and_the_session_is_linted(tmp_path):
    challenge = 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"'

    def respond(handler, body):
        message = json.loads(body) if body else {}
        if message.get("method") == "server/discover":
            send(handler, 400, json.dumps({"jsonrpc": "2.0", "id": None,
                                           "error": {"code": -32600, "message": "Bad Request"}}).encode(),
                 {"Content-Type": "application/json"})
        else:
            send(handler, 401, b"unauthorized", {"WWW-Authenticate": challenge, "Content-Type": "text/plain",
                                                  "Set-Cookie": "session=abc"})

    record = tmp_path / "s.jsonl"
    with http_server(respond) as (url, seen):
        proc = run_mcplint("audit", url, "--format", "json", "--record", str(record),
                           "-H", "Authorization: Bearer ${SECRET_FOR_TEST}", "-H", "X-Api-Key: $SECRET_FOR_TEST",
                           env={"SECRET_FOR_TEST": "t0ps3cret"})
    err = proc.stderr.decode()
    assert proc.returncode == 2, err  # turned away: nothing past initialize was audited
    assert "answered initialize with HTTP 401; the credentials given with --header were refused" in err
    text = record.read_text()
    assert "t0ps3cret" not in text and "t0ps3cret" not in proc.stdout.decode()
    lines = [json.loads(line) for line in text.splitlines()]
    client = [line for line in lines if line["from"] == "client"]
    assert all(line["http"]["headers"]["Authorization"] == "<redacted>" for line in client)
    assert all(line["http"]["headers"]["X-Api-Key"] == "<redacted>" for line in client)
    assert lines[-1]["http"]["headers"]["WWW-Authenticate"] == challenge
    assert lines[-1]["http"]["headers"]["Set-Cookie"] == "<redacted>"
    assert lines[-1]["message"] is None and lines[-1]["raw"] == "unauthorized"
    assert [s["headers"]["Authorization"] for s in seen] == ["Bearer t0ps3cret"] * 2  # discover, initialize
    report = json.loads(proc.stdout)
    assert report["summary"]["audit"]["target"] == url
    # with --record, findings are located in the transcript (a file a person can open)
    assert report["findings"] and all(f["path"] == str(record) and f["line"] >= 1 for f in report["findings"])


# --- the HTTP transport: SSE bodies in pieces ---------------------------------------------------------------
def test_sse_response_in_chunks_with_crlf_and_priming():
    events = [
        b"id: p1\r\ndata: \r\n\r\n",  # priming: no message
        b'event: message\r\ndata: {"jsonrpc": "2.0", "method": "notifications/progress", '
        b'"params": {"progressToken": 1, "progress": 1}}\r\n\r\n',
        b": keep-alive\r\n\r\n",
        b'data: {"jsonrpc": "2.0", "id": 1, "result": {"ok": true}}\r\n\r\n',
    ]

    def respond(handler, body):
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        stream = b"".join(events)
        for start in range(0, len(stream), 7):  # cut anywhere, also inside CRLF pairs
            piece = stream[start:start + 7]
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            handler.wfile.flush()
        handler.wfile.write(b"0\r\n\r\n")

    out = io.StringIO()
    with http_server(respond) as (url, seen):
        client = HttpClient(url, {}, Recorder(out), "mcplint-test")
        reply = client.exchange("POST", {"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=5,
                                until=lambda m: m.get("id") == 1)
        client.close()
    assert reply.status == 200
    assert reply.response(1) == {"jsonrpc": "2.0", "id": 1, "result": {"ok": True}}
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["from"] for line in lines] == ["client", "server", "server"]
    assert lines[0]["http"]["headers"]["Accept"] == "application/json, text/event-stream"
    assert lines[0]["http"]["headers"]["Content-Length"] == str(len(seen[0]["body"]))
    assert lines[1]["message"]["method"] == "notifications/progress"
    assert lines[2]["http"]["status"] == 200 and lines[2]["message"]["id"] == 1


def test_recorded_request_headers_are_exactly_what_was_sent():
    out = io.StringIO()
    with http_server(lambda handler, body: send(handler, 202)) as (url, seen):
        client = HttpClient(url, {"X-Trace": "1"}, Recorder(out), "mcplint-test")
        client.exchange("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"}, timeout=5,
                        headers={"MCP-Protocol-Version": "2025-11-25"})
        client.close()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["http"]["headers"] == seen[0]["headers"]  # nothing added behind our back
    assert list(lines[0]["http"]["headers"])[:3] == ["Host", "User-Agent", "Accept"]
    assert lines[1]["message"] is None and lines[1]["http"]["status"] == 202


def test_a_silent_server_times_out():
    def respond(handler, body):
        time.sleep(3)

    with http_server(respond) as (url, _):
        client = HttpClient(url, {}, Recorder(io.StringIO()), "mcplint-test")
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            client.exchange("POST", {"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=0.5)
        assert time.monotonic() - started < 2
        client.close()


def test_an_endless_stream_is_cut_at_the_deadline():
    def respond(handler, body):
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        for _ in range(40):
            handler.wfile.write(b": still here\n\n")
            handler.wfile.flush()
            time.sleep(0.1)

    with http_server(respond) as (url, _):
        client = HttpClient(url, {}, Recorder(io.StringIO()), "mcplint-test")
        started = time.monotonic()
        reply = client.exchange("GET", None, timeout=5, read_bound=0.4, accept="text/event-stream")
        assert time.monotonic() - started < 2
        assert reply.status == 200 and reply.cut_short and reply.messages == []
        client.close()


def test_connection_refused_is_a_server_error():
    client = HttpClient(f"http://127.0.0.1:{free_port()}/mcp", {}, Recorder(io.StringIO()), "t")
    with pytest.raises(ServerError, match="nothing is listening"):
        client.exchange("POST", {"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=2)


# --- SARIF for an audit -----------------------------------------------------------------------------------
def _valid_sarif(text: str) -> dict:
    from conftest import shared_path

    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(shared_path("schemas", "sarif-2.1.0.json").read_text(encoding="utf-8"))
    log = json.loads(text)
    validator = jsonschema.validators.validator_for(schema)(schema, format_checker=jsonschema.FormatChecker())
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(log)]
    assert not errors, errors
    return log


def _uris(log: dict) -> set[str]:
    return {loc["physicalLocation"]["artifactLocation"]["uri"]
            for result in log["runs"][0]["results"] for loc in result["locations"]}


def test_sarif_names_the_url():
    """Without --record, a finding is located at a pseudo-location naming the message,
    audit:<host/path>#message-<n>: a scheme-less relative URI that GitHub accepts (an
    http: URI makes it reject the whole upload), with the name as a logical location."""
    def respond(handler, body):
        send(handler, 401, b"", {"Content-Type": "text/plain"})  # no challenge: a finding

    with http_server(respond) as (url, _):
        proc = run_mcplint("audit", url, "--format", "sarif")
    assert proc.returncode == 2, proc.stderr.decode()  # turned away at initialize, after the report
    log = _valid_sarif(proc.stdout.decode())
    name = url.split("://", 1)[1].rstrip("/")
    uris = _uris(log)
    assert uris and all(u.startswith(quote(f"audit:{name}#message-", safe="/")) for u in uris), uris
    for result in log["runs"][0]["results"]:
        location = result["locations"][0]
        assert "region" not in location["physicalLocation"]
        assert location["logicalLocations"][0]["fullyQualifiedName"].startswith(f"audit:{name}#message-")


def test_sarif_names_the_command(tmp_path):
    from conftest import ROOT

    server = ROOT / "fixtures" / "servers" / "wrong_error_codes.py"
    if not server.exists():
        pytest.skip("fixtures/servers is not there yet")
    sarif = tmp_path / "audit.sarif"
    proc = run_mcplint("audit", "--format", "json", "--sarif-output", str(sarif), "--", sys.executable, str(server))
    assert proc.returncode == 1, proc.stderr.decode()
    log = _valid_sarif(sarif.read_text())
    findings = json.loads(proc.stdout)["findings"]
    assert findings and all(f["path"].startswith("audit:wrong_error_codes#message-") for f in findings)
    assert all(f["line"] is None and f["column"] is None for f in findings)  # nothing to open: no position
    assert _uris(log) == {quote(f["path"], safe="/") for f in findings}


# --- no process outlives the audit ---------------------------------------------------------------------------
def _tagged(tag: str) -> list[int]:
    from pathlib import Path

    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if f"MCPLINT_AUDIT_TEST_TAG={tag}".encode() in (entry / "environ").read_bytes().split(b"\0"):
                    if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                        found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signum", [2, 15])  # SIGINT (Ctrl-C), SIGTERM
def test_interrupted_audit_leaves_no_process(tmp_path, signum):
    """The server and a child it started (both ignoring their input) are gone after mcplint is interrupted."""
    import os
    import subprocess

    server = tmp_path / "silent.py"
    server.write_text(
        "import subprocess, sys, time\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "time.sleep(60)\n"
    )
    tag = f"{os.getpid()}-{signum}"
    env = {k: v for k, v in os.environ.items()}
    proc = subprocess.Popen([sys.executable, "-m", "mcplint", "audit", "--timeout", "30",
                             "--env", f"MCPLINT_AUDIT_TEST_TAG={tag}", "--", sys.executable, str(server)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while len(_tagged(tag)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_tagged(tag)) == 2
        proc.send_signal(signum)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 3
        while _tagged(tag) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _tagged(tag) == []
        assert proc.returncode != 0
    finally:
        proc.kill()
        for pid in _tagged(tag):
            os.kill(pid, 9)


def test_a_server_that_ignores_its_input_is_killed_when_the_audit_ends(tmp_path):
    import os

    server = tmp_path / "stubborn.py"
    server.write_text(
        "import json, signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "for line in sys.stdin:\n"
        "    try:\n"
        "        msg = json.loads(line)\n"
        "    except ValueError:\n"
        "        continue\n"
        "    if not isinstance(msg, dict):\n"
        "        continue\n"
        "    if msg.get('method') == 'initialize':\n"
        "        print(json.dumps({'jsonrpc': '2.0', 'id': msg['id'], 'result': {'protocolVersion': '2025-11-25',"
        " 'capabilities': {}, 'serverInfo': {'name': 's', 'version': '1'}}}), flush=True)\n"
        "    elif 'id' in msg:\n"
        "        print(json.dumps({'jsonrpc': '2.0', 'id': msg['id'], 'error': {'code': -32601, 'message': 'Method not"
        " found'}}), flush=True)\n"
        "time.sleep(60)  # ignores the end of its input and SIGTERM\n"
    )
    tag = f"{os.getpid()}-stubborn"
    started = time.monotonic()
    proc = run_mcplint("audit", "--format", "json", "--env", f"MCPLINT_AUDIT_TEST_TAG={tag}", "--",
                       sys.executable, str(server))
    assert proc.returncode in (0, 1), proc.stderr.decode()
    assert time.monotonic() - started < 15
    assert _tagged(tag) == []


# --- the docs' example runs on a checkout --------------------------------------------------------------------
def test_the_documented_audit_example_runs():
    """The first audit command of docs/audit.md, as written (with this interpreter)."""
    import shlex

    from conftest import ROOT

    pytest.importorskip("mcp")
    section = (ROOT / "docs" / "audit.md").read_text("utf-8")
    line = next(line for line in section.splitlines() if line.startswith(".venv/bin/mcplint audit"))
    args = shlex.split(line)[1:]
    args = [sys.executable if arg == ".venv/bin/python" else arg for arg in args]
    proc = run_mcplint(*args[:1], "--format", "json", *args[1:])
    assert proc.returncode == 0, proc.stderr.decode()
    report = json.loads(proc.stdout)
    assert report["summary"]["tools"] == 5
    assert [f for f in report["findings"] if f["severity"] != "info"] == []
    assert {p["name"] for p in report["summary"]["audit"]["probes"] if p["status"] == "ran"} >= {
        "unknown-tool", "unknown-method", "input-validation", "call-read-only"}


def test_a_failed_audit_keeps_its_partial_transcript(tmp_path):
    server = tmp_path / "banner.py"
    server.write_text(
        "import json, sys\n"
        "line = sys.stdin.readline()\n"
        "print(json.dumps({'jsonrpc': '2.0', 'id': json.loads(line)['id'], 'error': {'code': -32601, 'message': 'no'}}),"
        " flush=True)\n"
        "for i in range(30): print('Server ready on stdio' + ' !' * 100, flush=True)\n"
        "sys.stdin.read()\n"
    )
    record = tmp_path / "s.jsonl"
    line = one_line_error(run_mcplint("audit", "--record", str(record), "--", sys.executable, str(server)))
    assert line.startswith("mcplint: error: the server wrote more than 20 lines that are not JSON-RPC to standard "
                           "output (the first: 'Server ready on stdio ! !")
    assert "...'); mcplint stopped reading" in line and len(line) < 300  # the first bad line, shortened
    recorded = [json.loads(line) for line in record.read_text().splitlines()]
    assert [r["from"] for r in recorded] == ["client", "server", "client"] + ["server"] * 20
    assert recorded[1]["message"]["error"]["code"] == -32601
    assert {r["message"] for r in recorded[3:]} == {None}
    assert all(r["raw"].startswith("Server ready on stdio !") for r in recorded[3:])  # what MCP617 reports


# --- era detection and negotiation, against a scripted stdio server ---------------------------------------
SCRIPTED = r'''
import json, os, sys
answers = json.loads(os.environ["SCRIPT"])
for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if not isinstance(msg, dict) or "id" not in msg or not isinstance(msg.get("method"), str):
        continue
    key, params = msg["method"], msg.get("params") or {}
    if key == "initialize":
        key += ":" + params["protocolVersion"]
    elif params.get("cursor"):
        key += ":" + params["cursor"]
    answer = answers.get(key, {"error": {"code": -32601, "message": "Method not found: " + msg["method"]}})
    if answer != "silent":
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], **answer}), flush=True)
'''

SERVER_INFO = {"name": "scripted", "version": "1"}


def scripted_audit(tmp_path, script: dict, *options: str):
    server = tmp_path / "scripted.py"
    server.write_text(SCRIPTED)
    record = tmp_path / "s.jsonl"
    proc = run_mcplint("audit", "--format", "json", "--timeout", "2", "--record", str(record), *options,
                       "--env", "SCRIPT=" + json.dumps(script), "--", sys.executable, str(server))
    lines = [json.loads(line) for line in record.read_text().splitlines()] if record.exists() else []
    return proc, lines


def initialized(version: str, capabilities: dict | None = None) -> dict:
    return {"result": {"protocolVersion": version, "capabilities": capabilities or {}, "serverInfo": SERVER_INFO}}


def test_discover_listing_only_unknown_versions_falls_back_to_initialize(tmp_path):
    proc, lines = scripted_audit(tmp_path, {
        "server/discover": {"result": {"supportedVersions": ["2099-01-01"], "capabilities": {}}},
        "initialize:1999-01-01": initialized("2025-06-18"),
    })
    audit = report_of(proc)["summary"]["audit"]
    assert (audit["era"], audit["protocol_version"]) == ("handshake", "2025-06-18")
    methods = [line["message"].get("method") for line in lines if line["from"] == "client" and line["message"]]
    assert methods[:3] == ["server/discover", "initialize", "notifications/initialized"]
    assert lines[2]["probe"] == "unsupported-version"


def test_an_error_for_the_unknown_version_gets_the_real_offer(tmp_path):
    proc, lines = scripted_audit(tmp_path, {
        "initialize:1999-01-01": {"error": {"code": -32602, "message": "Unsupported protocol version",
                                            "data": {"supported": ["2025-11-25"], "requested": "1999-01-01"}}},
        "initialize:2025-11-25": initialized("2025-11-25"),
    })
    audit = report_of(proc)["summary"]["audit"]
    assert audit["protocol_version"] == "2025-11-25"
    probe = next(p for p in audit["probes"] if p["name"] == "unsupported-version")
    assert probe["detail"] == "initialize with 1999-01-01: error -32602"


def test_forced_version_is_offered_as_is(tmp_path):
    proc, lines = scripted_audit(tmp_path, {"initialize:2025-03-26": initialized("2025-03-26")},
                                 "--protocol-version", "2025-03-26")
    assert report_of(proc)["summary"]["audit"]["protocol_version"] == "2025-03-26"
    assert lines[0]["message"]["method"] == "initialize"  # no server/discover when a handshake version is forced


def test_forced_stateless_version_needs_server_discover(tmp_path):
    proc, _ = scripted_audit(tmp_path, {}, "--protocol-version", "2026-07-28")
    assert one_line_error(proc) == ("mcplint: error: server/discover at 2026-07-28 failed (error -32601); "
                                    "the server does not speak the stateless protocol")


def test_an_echoed_unknown_version_is_reported(tmp_path):
    proc, _ = scripted_audit(tmp_path, {"initialize:1999-01-01": initialized("1999-01-01")})
    assert "the server negotiated protocol version '1999-01-01', which mcplint does not know" in proc.stderr.decode()


def test_pages_are_followed_and_a_repeated_cursor_ends_the_listing(tmp_path):
    tool = {"inputSchema": {"type": "object"}, "description": "Look up a thing."}
    proc, lines = scripted_audit(tmp_path, {
        "initialize:1999-01-01": initialized("2025-11-25", {"tools": {}}),
        "tools/list": {"result": {"tools": [{"name": "get_a", **tool}], "nextCursor": "p2"}},
        "tools/list:p2": {"result": {"tools": [{"name": "get_b", **tool}], "nextCursor": "p2"}},
    })
    assert report_of(proc)["summary"]["tools"] == 2
    lists = [line for line in lines if line["from"] == "client" and line["message"]
             and line["message"].get("method") == "tools/list" and "probe" not in line]
    assert [(line["message"].get("params") or {}).get("cursor") for line in lists] == [None, "p2"]


def test_without_the_tools_capability_no_tool_is_called(tmp_path):
    proc, lines = scripted_audit(tmp_path, {"initialize:1999-01-01": initialized("2025-11-25")})
    probes = {p["name"]: p for p in report_of(proc)["summary"]["audit"]["probes"]}
    assert probes["tools/list"]["status"] == "skipped" and probes["unknown-tool"]["status"] == "skipped"
    assert not any(line["message"] and line["message"].get("method", "").startswith("tools/")
                   for line in lines if line["from"] == "client")


def report_of(proc) -> dict:
    assert proc.returncode in (0, 1), proc.stderr.decode()
    return json.loads(proc.stdout)
