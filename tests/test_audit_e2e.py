"""`mcplint audit` end to end, against the real servers in fixtures/servers (no mocks).

- The compliant SDK server, over stdio and HTTP, in both eras: no warnings or errors, and its
  destructive tool is never called.
- Each misbehaving server: the exact findings, as golden files in fixtures/audit/ (regenerate with
  MCPLINT_UPDATE_GOLDEN=1 and read the diff). `--record` then `mcplint check` agrees with the audit.
- Servers that hang, crash, print garbage or never initialize, and a URL where nothing listens:
  exit 2 with one clear line, within the timeout bound, and no process left behind.
- Safety: what gets called, read from the servers' own call logs.

Every subprocess has a hard timeout. The SDK's HTTP server starts once per module; the small stdlib
servers start per case (a fraction of a second each).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, assert_golden
from servers import (PYTHON, SERVERS, TAG_VARIABLE, HttpServer, free_port, kill_tagged, new_tag, orphans,
                     server_command, wait_for_no_orphans)

GOLDEN = FIXTURES / "audit"
AUDIT_TIMEOUT = 90  # hard bound on any one mcplint run (a hang must never hang the suite)

pytestmark = pytest.mark.skipif(not (ROOT / "mcplint" / "commands" / "audit.py").exists(),
                                reason="mcplint audit is not built yet")


def run_audit(*args: str, env: dict | None = None, timeout: float = AUDIT_TIMEOUT) -> subprocess.CompletedProcess:
    """`python -m mcplint audit ARGS` as a user runs it, bounded in time."""
    inherited = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    return subprocess.run([sys.executable, "-m", "mcplint", "audit", *args], cwd=ROOT, capture_output=True,
                          env={**inherited, "NO_COLOR": "1", "COLUMNS": "100", **(env or {})}, timeout=timeout)


def stdio_audit(server: str, *server_args: str, options: tuple = (), env: dict | None = None,
                tag: str | None = None, timeout: float = AUDIT_TIMEOUT) -> subprocess.CompletedProcess:
    """Audit fixtures/servers/<server>.py over stdio; every --env given to the server, plus its tag."""
    env_options = [f"--env={key}={value}" for key, value in {**(env or {}), TAG_VARIABLE: tag or new_tag()}.items()]
    return run_audit(*options, *env_options, "--", *server_command(server, *server_args), timeout=timeout)


def report(proc: subprocess.CompletedProcess) -> dict:
    assert proc.returncode in (0, 1), f"exit {proc.returncode}: {proc.stderr.decode()[-3000:]}"
    return json.loads(proc.stdout)


def findings(proc: subprocess.CompletedProcess, at_least: str = "warning") -> list[dict]:
    order = ["info", "warning", "error"]
    return [f for f in report(proc)["findings"] if order.index(f["severity"]) >= order.index(at_least)]


def failed_items(proc: subprocess.CompletedProcess) -> list[int]:
    return [item["item"] for item in report(proc)["summary"]["checklist"] if item["status"] == "fail"]


def brief(found: list[dict]) -> list[str]:
    return [f"{f['rule']} {f['severity']} {f.get('pointer', '')} {f['message']}" for f in found]


# --- goldens -----------------------------------------------------------------------------------
GOLDEN_KEYS = ("rule", "severity", "line", "column", "pointer", "tool", "message")


def normalise(text: str, volatile: dict[str, str]) -> str:
    """Replace volatile strings (ports, temp paths, the interpreter) with stable names."""
    for value, name in sorted(volatile.items(), key=lambda item: -len(item[0])):
        text = text.replace(value, name)
    return re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", text)


def golden_text(proc: subprocess.CompletedProcess) -> str:
    """The audit's JSON report as a stable golden: what was audited at which version, one finding
    per line, each checklist item with the probes that assessed it, and what each probe saw."""
    data = report(proc)
    audit = data.get("summary", {}).get("audit", {})
    lines = [f"target: {audit.get('target')} ({audit.get('transport')}, {audit.get('era')}, "
             f"{audit.get('protocol_version')})"]
    lines += [f"path: {path}" for path in sorted({f["path"] for f in data["findings"]}) if path != audit.get("target")]
    lines.append("findings:")
    lines += [json.dumps({key: finding.get(key) for key in GOLDEN_KEYS}, ensure_ascii=False)
              for finding in data["findings"]]
    lines.append("checklist:")
    for item in data.get("summary", {}).get("checklist", []):
        probes = item.get("probes")
        lines.append(f"{item['item']:>2} {item['status']}" + (f"  probes: {', '.join(map(str, probes))}"
                                                             if probes else ""))
    lines.append("probes:")
    for probe in data.get("summary", {}).get("audit", {}).get("probes", []):
        detail = re.sub(r"\b\d+\.\d+ s\b", "N s", probe.get("detail") or "")  # timings
        lines.append(f"{probe['name']}: {probe['status']}: {detail}")
    return normalise("\n".join(lines) + "\n", {PYTHON: "PYTHON", str(SERVERS): "SERVERS", str(ROOT): "ROOT"})


# --- the compliant SDK server --------------------------------------------------------------------
@pytest.fixture(scope="module")
def sdk_http(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sdk-http")
    marker, log = folder / "marker", folder / "calls.jsonl"
    with HttpServer("sdk_server", env={"MCPLINT_FIXTURE_MARKER": str(marker),
                                       "MCPLINT_FIXTURE_CALL_LOG": str(log)}) as server:
        server.marker, server.log = marker, log
        yield server


def called_tools(log: Path) -> list[str]:
    return [json.loads(line)["tool"] for line in log.read_text().splitlines()] if log.exists() else []


SDK_READ_ONLY = {"add_numbers", "divide_numbers", "get_text_stats", "search_notes"}


@pytest.mark.parametrize("version, call_read_only", [
    (None, False), (None, True), ("2025-06-18", True), ("2025-11-25", False), ("2026-07-28", False)])
def test_sdk_server_over_stdio_is_clean(tmp_path, version, call_read_only):
    marker, log, tag = tmp_path / "marker", tmp_path / "calls.jsonl", new_tag()
    options = ("--format", "json") + (("--call-read-only",) if call_read_only else ()) + (
        ("--protocol-version", version) if version else ())
    proc = stdio_audit("sdk_server", options=options, tag=tag,
                       env={"MCPLINT_FIXTURE_MARKER": str(marker), "MCPLINT_FIXTURE_CALL_LOG": str(log)})
    assert brief(findings(proc)) == []
    assert failed_items(proc) == []
    assert proc.returncode == 0
    assert not marker.exists(), "the audit called the destructive tool"
    assert "delete_note" not in called_tools(log)
    if call_read_only:
        assert set(called_tools(log)) >= SDK_READ_ONLY
    assert not wait_for_no_orphans(tag)


# The one real deviation of the official SDK (mcp 2.3) over handshake-era HTTP: it answers a request
# whose method is not a string with -32602, where JSON-RPC 2.0 (section 5.1) gives -32600 for an
# invalid Request object. MCP715 reports it as a warning; nothing else may be found.
SDK_INVALID_REQUEST = ("MCP715 warning /19/message/error/code valid JSON that is not a valid request was answered "
                       "with -32602")


@pytest.mark.parametrize("version, call_read_only", [(None, True), ("2025-06-18", False), ("2025-11-25", True)])
def test_sdk_server_over_http_is_clean(sdk_http, version, call_read_only):
    options = ("--format", "json") + (("--call-read-only",) if call_read_only else ()) + (
        ("--protocol-version", version) if version else ())
    proc = run_audit(*options, sdk_http.url)
    assert [line for line in brief(findings(proc)) if not line.startswith(SDK_INVALID_REQUEST)] == []
    assert proc.returncode == 0
    assert not sdk_http.marker.exists(), "the audit called the destructive tool"
    assert "delete_note" not in called_tools(sdk_http.log)


def test_sdk_server_with_bearer_auth_is_clean():
    """The SDK's own auth: a 401 with a JSON OAuth error body and a WWW-Authenticate challenge."""
    with HttpServer("sdk_server", "--token", "fixture-token") as server:
        proc = run_audit("--format", "json", "--header", "Authorization: Bearer $FIXTURE_TOKEN", server.url,
                         env={"FIXTURE_TOKEN": "fixture-token"})
    probes = {probe["name"]: probe for probe in report(proc)["summary"]["audit"]["probes"]}
    assert probes["no-credentials"]["status"] == "ran" and "HTTP 401" in probes["no-credentials"]["detail"]
    assert brief(findings(proc)) == []
    assert b"fixture-token" not in proc.stdout


def test_sdk_server_goldens(sdk_http):
    """What a default audit of the compliant SDK server saw: every probe and checklist item."""
    assert_golden(golden_text(stdio_audit("sdk_server", options=("--format", "json"))),
                  GOLDEN / "sdk_server-stdio.txt")
    assert_golden(golden_text(run_audit("--format", "json", sdk_http.url)), GOLDEN / "sdk_server-http.txt")


def test_compliant_server_over_http_fails_no_checklist_item(sdk_http):
    assert failed_items(run_audit("--format", "json", sdk_http.url)) == []


def test_sdk_server_at_2024_11_05_leaks_newer_tool_fields(tmp_path):
    """The SDK sends title, outputSchema and annotations whatever version it negotiated."""
    proc = stdio_audit("sdk_server", options=("--format", "json", "--protocol-version", "2024-11-05"))
    assert_golden(golden_text(proc), GOLDEN / "sdk_server-2024-11-05.txt")


# --- the stdlib baseline and the misbehaving servers -----------------------------------------------
def test_plain_server_over_stdio_is_clean():
    proc = stdio_audit("plain_server", options=("--format", "json", "--call-read-only"))
    assert brief(findings(proc)) == []
    assert failed_items(proc) == []
    assert proc.returncode == 0


def test_cwd_is_where_the_server_starts():
    """A relative script path only resolves when --cwd is honoured."""
    proc = run_audit("--format", "json", "--cwd", str(SERVERS), "--", PYTHON, "plain_server.py")
    assert report(proc)["summary"]["tools"] == 2


STDIO_CASES = {
    # golden name: (server, audit options)
    "wrong_error_codes": ("wrong_error_codes", ()),
    "errors_swapped": ("errors_swapped", ("--call-read-only",)),
    "bad_structured_content": ("bad_structured_content", ("--call-read-only",)),
    "accepts_batches-stdio-2025-11-25": ("accepts_batches", ("--protocol-version", "2025-11-25")),
    "garbage_stdout": ("garbage_stdout", ()),  # a banner on stdout: recorded, reported (MCP617), skipped
}


@pytest.mark.parametrize("case", sorted(STDIO_CASES))
def test_misbehaving_server_over_stdio(case):
    server, options = STDIO_CASES[case]
    proc = stdio_audit(server, options=("--format", "json", *options))
    assert_golden(golden_text(proc), GOLDEN / f"{case}.txt")


HTTP_CASES = {
    # golden name: (server, server args, audit options)
    "plain_server-http": ("plain_server", ("--rate-limit", "40"), ("--probe-rate-limit", "60")),
    "auth_challenge-http": ("plain_server", ("--token", "fixture-token"),
                            ("--header", "Authorization: Bearer $FIXTURE_TOKEN")),
    "no_throttling-http": ("plain_server", (), ("--probe-rate-limit", "60", "--call-read-only")),
    "wrong_error_codes-http": ("wrong_error_codes", (), ()),
    "accepts_batches-http": ("accepts_batches", (), ()),
    "ignores_version_header-http": ("ignores_version_header", (), ()),
    "foreign_origin-http": ("foreign_origin", (), ()),
    "auth_no_challenge-http": ("auth_no_challenge", (), ("--header", "Authorization: Bearer $FIXTURE_TOKEN")),
}
COMPLIANT_HTTP = {"plain_server-http"}  # auth_challenge-http: see test_plain_server_with_bearer_auth_is_clean


@pytest.mark.parametrize("case", sorted(HTTP_CASES))
def test_misbehaving_server_over_http(case):
    server_name, server_args, options = HTTP_CASES[case]
    with HttpServer(server_name, *server_args) as server:
        proc = run_audit("--format", "json", *options, server.url, env={"FIXTURE_TOKEN": "fixture-token"})
        assert_golden(golden_text(proc), GOLDEN / f"{case}.txt")
        assert b"fixture-token" not in proc.stdout, "a credential leaked into the report"
        if case in COMPLIANT_HTTP:
            assert brief(findings(proc)) == []


def test_plain_server_with_bearer_auth_is_clean():
    with HttpServer("plain_server", "--token", "fixture-token") as server:
        proc = run_audit("--format", "json", "--header", "Authorization: Bearer $FIXTURE_TOKEN", server.url,
                         env={"FIXTURE_TOKEN": "fixture-token"})
    assert brief(findings(proc)) == []


# --- --record, then mcplint check ---------------------------------------------------------------------
def comparable(found: list[dict]) -> list[tuple]:
    return sorted((f["rule"], f["severity"], f.get("line"), f.get("pointer"), f["message"]) for f in found)


@pytest.mark.parametrize("server, options", [
    ("wrong_error_codes", ()),
    ("bad_structured_content", ("--call-read-only",)),
    ("sdk_server", ()),
])
def test_recorded_transcript_lints_to_the_same_findings(tmp_path, server, options):
    record = tmp_path / "session.jsonl"
    audited = stdio_audit(server, options=("--format", "json", "--record", str(record), *options))
    checked = subprocess.run([sys.executable, "-m", "mcplint", "check", str(record), "--format", "json"],
                             cwd=ROOT, capture_output=True, timeout=AUDIT_TIMEOUT)
    assert comparable(findings(checked, "info")) == comparable(findings(audited, "info"))
    assert all(json.loads(line)["from"] in ("client", "server") for line in record.read_text().splitlines())


def test_recorded_http_transcript_lints_the_same_and_redacts_credentials(tmp_path):
    record = tmp_path / "session.jsonl"
    with HttpServer("wrong_error_codes", "--token", "fixture-token") as server:
        audited = run_audit("--format", "json", "--record", str(record), "--header",
                            "Authorization: Bearer $FIXTURE_TOKEN", server.url, env={"FIXTURE_TOKEN": "fixture-token"})
    checked = subprocess.run([sys.executable, "-m", "mcplint", "check", str(record), "--format", "json"],
                             cwd=ROOT, capture_output=True, timeout=AUDIT_TIMEOUT)
    assert comparable(findings(checked, "info")) == comparable(findings(audited, "info"))
    text = record.read_text()
    assert "fixture-token" not in text
    assert all("http" in json.loads(line) for line in text.splitlines())


# --- failure modes: exit 2, one clear line, bounded in time, no orphans --------------------------------
def assert_fails_cleanly(proc: subprocess.CompletedProcess, started: float, bound: float, *expected: str,
                         stderr_tail: bool = False) -> str:
    """Exit 2, no traceback, one 'mcplint: error:' line (plus the server's stderr tail where that
    is the point), each expected text in it, and within `bound` seconds."""
    elapsed = time.monotonic() - started
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, f"exit {proc.returncode}: {stderr[-2000:]}"
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    first = lines[0]
    assert first.startswith("mcplint: error: "), stderr
    assert stderr_tail or len(lines) == 1, stderr
    for text in expected:
        assert text.lower() in stderr.lower(), stderr
    assert elapsed < bound, f"took {elapsed:.1f} s, bound {bound} s"
    return first


@pytest.mark.parametrize("server, args, expected", [
    ("hangs", (), ["answered nothing", "server/discover within 2 s, nor to initialize within 2 s"]),
    ("crashes", ("--after", "3"), ["exited with status 3", "fatal: simulated crash after 3 messages"]),
    # A Python traceback on the server's stderr is told by its exception line, not quoted whole
    # (a traceback in mcplint's error would read as mcplint's own crash).
    ("crashes", ("--after", "3", "--traceback"),
     ["exited with status 1", "its stderr says: AttributeError: 'Crashes' object has no attribute 'list_resources'"]),
    # started again after a probe killed it, and killed by the next probe too often: the last
    # probe is named, so the error does not read as mcplint's own failure
    ("crashes", ("--on-bad-json", "--start-once"),
     ["the server exited after the audit's malformed-json probe and was started again; then the server exited "
      "with status 4", "its stderr says: Fatal error: the server is already running"]),
    ("garbage_stdout", ("--lines", "25"),
     ["more than 20 lines that are not JSON-RPC to standard output", "Notes server 1.0 ready"]),
    ("never_initializes", (), ["no answer to initialize"]),
])
def test_stdio_failure_modes(server, args, expected):
    """--timeout 2: at most a few waits of 2 s (server/discover, then initialize), then teardown."""
    tag, started = new_tag(), time.monotonic()
    proc = stdio_audit(server, *args, options=("--timeout", "2"), tag=tag, timeout=60)
    try:
        assert_fails_cleanly(proc, started, 12, *expected, stderr_tail=server == "crashes")
        assert 'File "' not in proc.stderr.decode("utf-8", "replace")
        assert not wait_for_no_orphans(tag), f"{server} outlived the audit"
    finally:
        kill_tagged(tag)


def test_a_server_that_dies_on_unknown_methods_is_started_again_and_reported():
    """mcp 1.6 servers exit on any method they do not know: server/discover (sent first) and the
    unknown-method probe. The audit starts the server again each time, goes on, and MCP645 reports
    both exits; the probes after them still run."""
    tag = new_tag()
    proc = stdio_audit("crashes", "--on-unknown-method", options=("--format", "json", "--timeout", "5"), tag=tag)
    try:
        found = [f for f in report(proc)["findings"] if f["rule"] == "MCP645"]
        assert [f["message"].split(" (id")[0] for f in found] == [
            "The server exited with status 1 instead of answering server/discover",
            "The server exited with status 1 instead of answering mcplint/no-such-method"]
        probes = {p["name"]: p for p in report(proc)["summary"]["audit"]["probes"]}
        assert probes["unknown-method"]["detail"] == "the server exited (MCP645); mcplint started it again"
        assert probes["unknown-tool"]["status"] == "ran" and probes["input-validation"]["status"] == "ran"
        stderr = proc.stderr.decode()
        assert "the server exited before answering the audit's server/discover (MCP645)" in stderr
        assert not wait_for_no_orphans(tag), "a server outlived the audit"
    finally:
        kill_tagged(tag)


def test_a_server_that_dies_on_a_malformed_line_is_started_again_once_per_probe():
    tag = new_tag()
    proc = stdio_audit("crashes", "--on-bad-json", options=("--format", "json", "--timeout", "5"), tag=tag)
    try:
        found = [f["message"].split(", and ")[0] for f in report(proc)["findings"] if f["rule"] == "MCP645"]
        assert found == ["The server exited with status 1 on text that is not valid JSON instead of answering "
                         "with a -32700 error"]
        assert not wait_for_no_orphans(tag), "a server outlived the audit"
    finally:
        kill_tagged(tag)


def test_hanging_server_under_a_wrapper_leaves_no_orphans():
    """Like `npx server`: a shell stays as the parent of the real server; the audit must kill both."""
    tag, started = new_tag(), time.monotonic()
    wrapped = " ".join(server_command("hangs")) + "; exit 0"
    proc = run_audit("--timeout", "2", f"--env={TAG_VARIABLE}={tag}", "--", "sh", "-c", wrapped, timeout=60)
    try:
        assert_fails_cleanly(proc, started, 12, "answered nothing")
        assert not wait_for_no_orphans(tag), "the wrapped server outlived the audit"
    finally:
        kill_tagged(tag)


def test_interrupted_audit_leaves_no_orphans():
    """Ctrl-C while the server hangs: mcplint stops promptly, without a traceback, and takes the server with it."""
    import signal

    tag = new_tag()
    audit = subprocess.Popen([sys.executable, "-m", "mcplint", "audit", "--timeout", "30", f"--env={TAG_VARIABLE}={tag}",
                              "--", *server_command("hangs")], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while not orphans(tag) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert orphans(tag), "the server never started"
        time.sleep(0.3)  # let the audit settle into waiting for an answer
        audit.send_signal(signal.SIGINT)
        _, stderr = audit.communicate(timeout=10)
        assert audit.returncode != 0
        assert b"Traceback" not in stderr, stderr.decode()
        assert not wait_for_no_orphans(tag), "the server outlived the interrupted audit"
    finally:
        if audit.poll() is None:
            audit.kill()
            audit.wait()
        kill_tagged(tag)


def test_http_server_that_hangs():
    with HttpServer("hangs") as server:
        started = time.monotonic()
        proc = run_audit("--timeout", "2", server.url, timeout=60)
        assert_fails_cleanly(proc, started, 12, server.url, "stopped answering")


def test_http_server_that_crashes():
    with HttpServer("crashes", "--after", "2") as server:
        started = time.monotonic()
        proc = run_audit("--timeout", "2", server.url, timeout=60)
        assert_fails_cleanly(proc, started, 12, server.url, "closed the connection")


def test_a_server_of_the_old_http_sse_transport_is_named(tmp_path):
    """The spec's backward-compatibility test (initialize POSTed, a 4xx, then a GET whose stream
    opens with an `endpoint` event) names the 2024-11-05 transport instead of "rejected initialize:
    HTTP 405"; the probe's GET is not judged as a 2026-07-28 server's (MCP818)."""
    with HttpServer("old_sse") as server:
        url = f"http://127.0.0.1:{server.port}/sse"
        record = tmp_path / "old.jsonl"
        started = time.monotonic()
        proc = run_audit("--timeout", "5", "--format", "json", "--record", str(record), url, timeout=60)
        assert_fails_cleanly(proc, started, 20, url, "HTTP+SSE transport of protocol 2024-11-05",
                             "answered with HTTP 405", "first event is 'endpoint'")
        assert [f["rule"] for f in json.loads(proc.stdout)["findings"]] == []
        probes = [json.loads(line).get("probe") for line in record.read_text("utf-8").splitlines()]
        assert "old-transport" in probes
        # A Streamable HTTP URL that is merely wrong (404 at /nowhere) is not taken for the old transport.
        proc = run_audit("--timeout", "5", f"http://127.0.0.1:{server.port}/nowhere", timeout=60)
        assert proc.returncode == 2 and "rejected initialize: HTTP 404" in proc.stderr.decode()


def test_redirect_to_another_origin_is_not_followed():
    """The redirect target is a real listener that records whatever reaches it: nothing may."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    reached = []

    class Sink(BaseHTTPRequestHandler):
        def do_POST(self):
            reached.append(dict(self.headers))
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_DELETE = do_POST

        def log_message(self, *args):
            pass

    sink = ThreadingHTTPServer(("127.0.0.1", 0), Sink)
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    try:
        target = f"http://127.0.0.1:{sink.server_address[1]}/mcp"
        with HttpServer("redirects", "--to", target) as server:
            started = time.monotonic()
            proc = run_audit("--timeout", "2", "--header", "Authorization: Bearer $FIXTURE_TOKEN", server.url,
                             env={"FIXTURE_TOKEN": "fixture-token"}, timeout=60)
            assert_fails_cleanly(proc, started, 12, "redirect")
        assert reached == [], "the audit followed a redirect to another origin"
        assert b"fixture-token" not in proc.stderr
    finally:
        sink.shutdown()
        sink.server_close()


def test_nothing_listening_at_the_url():
    started, url = time.monotonic(), f"http://127.0.0.1:{free_port()}/mcp"
    proc = run_audit("--timeout", "2", url, timeout=60)
    assert_fails_cleanly(proc, started, 10, url, "nothing is listening")


def test_command_that_does_not_exist():
    started = time.monotonic()
    proc = run_audit("--timeout", "2", "--", "/nonexistent/mcp-server-binary", timeout=60)
    assert_fails_cleanly(proc, started, 10, "/nonexistent/mcp-server-binary")


# --- safety -----------------------------------------------------------------------------------------
def test_default_audit_calls_nothing_but_read_only_tools(tmp_path):
    marker, log = tmp_path / "marker", tmp_path / "calls.jsonl"
    env = {"MCPLINT_FIXTURE_MARKER": str(marker), "MCPLINT_FIXTURE_CALL_LOG": str(log)}
    report(stdio_audit("sdk_server", "--lying-tool", options=("--format", "json"), env=env))
    listed = SDK_READ_ONLY | {"delete_note", "delete_cache"}
    called = set(called_tools(log))
    assert called & listed <= SDK_READ_ONLY, f"called {called}"
    assert not marker.exists()


def test_call_read_only_never_calls_a_read_only_tool_named_delete(tmp_path):
    marker, log = tmp_path / "marker", tmp_path / "calls.jsonl"
    env = {"MCPLINT_FIXTURE_MARKER": str(marker), "MCPLINT_FIXTURE_CALL_LOG": str(log)}
    proc = stdio_audit("sdk_server", "--lying-tool", options=("--format", "json", "--call-read-only"), env=env)
    called = set(called_tools(log))
    assert called >= SDK_READ_ONLY, f"--call-read-only called only {called}"
    assert not called & {"delete_note", "delete_cache"}
    assert not marker.exists()
    # The contradiction is itself a finding (checklist item 20), on delete_cache.
    assert any(f.get("tool") == "delete_cache" and 20 in f.get("checklist", []) for f in findings(proc, "info"))


def test_allow_calls_widens_to_the_named_tool_only(tmp_path):
    marker, log = tmp_path / "marker", tmp_path / "calls.jsonl"
    env = {"MCPLINT_FIXTURE_MARKER": str(marker), "MCPLINT_FIXTURE_CALL_LOG": str(log)}
    report(stdio_audit("sdk_server", "--lying-tool", options=("--format", "json", "--allow-calls", "delete_note"),
                       env=env))
    assert "delete_note" in called_tools(log)
    assert "delete_cache" not in called_tools(log)
    assert marker.read_text().startswith("delete_note ")


# --- speed ----------------------------------------------------------------------------------------------
def test_default_audit_of_20_tools_is_fast():
    """The issue's target is 5 s on a 2-core machine; the suite allows slack for a busy machine."""
    started = time.monotonic()
    proc = stdio_audit("sdk_server", "--tools", "20", options=("--format", "json"))
    elapsed = time.monotonic() - started
    assert report(proc)["summary"]["tools"] == 20
    assert elapsed < 15, f"a default audit of 20 tools took {elapsed:.1f} s"
