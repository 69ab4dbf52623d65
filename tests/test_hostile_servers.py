"""Audits of hostile servers end in bounded time and memory, with a clear message and the partial transcript.

Each test runs `mcplint audit --timeout 2` as a subprocess against a server in fixtures/servers/hostile_*.py
that misbehaves on purpose (floods, drips, escapes the process group, echoes credentials) and measures
what a user would notice: wall time, the peak memory of the mcplint process (its own rusage, from
wait4 in a small parent), the exit code and the one-line message, the --record file, and processes left behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from servers import TAG_VARIABLE, HttpServer, kill_tagged, new_tag, server_command, wait_for_no_orphans

TIMEOUT = 2
WALL = 6 * TIMEOUT + 4  # a small multiple of --timeout, plus interpreter startup on a busy machine
PEAK_MB = 300
SECRET = "s3cr3t-T0ken/with\"quote"


class Run:
    def __init__(self, returncode: int, stdout: str, stderr: str, elapsed: float, peak_mb: float):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr
        self.elapsed, self.peak_mb = elapsed, peak_mb

    @property
    def error(self) -> str:
        lines = self.stderr.strip().splitlines()
        errors = [line for line in lines if line.startswith("mcplint: error: ")]
        assert errors, self.stderr[-2000:]
        return errors[0]


# A small process starts mcplint and reaps it with wait4. Measured from pytest itself, a child's
# ru_maxrss would include the pages it shared with pytest between fork and exec (hundreds of MB
# late in a full run), whatever mcplint then used.
_MEASURE = """
import os, subprocess, sys
with open(sys.argv[1], "wb") as out, open(sys.argv[2], "wb") as err:
    proc = subprocess.Popen([sys.executable, "-m", "mcplint", *sys.argv[3:]],
                            stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    _, status, usage = os.wait4(proc.pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""


def audit(*args: str, outer: float = 60) -> Run:
    """`mcplint audit --timeout 2 ARGS` with its own peak RSS; killed (its whole session) at `outer` s."""
    with tempfile.TemporaryDirectory() as where:
        err_path, out_path = Path(where) / "stderr", Path(where) / "stdout"
        started = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-c", _MEASURE, str(out_path), str(err_path),
                                 "audit", "--timeout", str(TIMEOUT), *args],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, cwd=where, start_new_session=True)
        try:
            measured, _ = proc.communicate(timeout=outer)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            pytest.fail(f"mcplint audit {' '.join(args)} still ran after {outer} s: "
                        f"{err_path.read_text(errors='replace')[-2000:]}")
        elapsed = time.monotonic() - started
        code, peak_kib = (int(value) for value in measured.split())
        stderr, stdout = err_path.read_text(errors="replace"), out_path.read_text(errors="replace")
    return Run(code, stdout, stderr, elapsed, peak_kib / 1024)


def assert_bounded(run: Run, code: int = 2) -> None:
    assert run.returncode == code, run.stderr[-2000:]
    assert "Traceback" not in run.stderr and "MemoryError" not in run.stderr, run.stderr[-2000:]
    assert run.elapsed < WALL, f"took {run.elapsed:.1f} s"
    assert run.peak_mb < PEAK_MB, f"peak RSS {run.peak_mb:.0f} MB"


def recorded(path: Path) -> list[dict]:
    assert path.exists(), "the partial transcript was not kept"
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def tag():
    value = new_tag()
    yield value
    left = wait_for_no_orphans(value)
    kill_tagged(value)
    assert not left, f"processes outlived the audit: {left}"


def stdio(tag: str, name: str, *server_args: str, record: Path | None = None, env: tuple = (),
          options: tuple = ()) -> Run:
    """Audit fixtures/servers/<name>.py over stdio, tagged, with --env items and audit options."""
    options = [*options, *(["--record", str(record)] if record else [])]
    for item in env:
        options += ["--env", item]
    return audit(*options, f"--env={TAG_VARIABLE}={tag}", "--", *server_command(name, *server_args))


# --- stdio --------------------------------------------------------------------------------------------
def test_notification_flood_stops_at_the_cap_and_keeps_the_first_messages(tag, tmp_path):
    record = tmp_path / "s.jsonl"
    run = stdio(tag, "hostile_stdio_flood", record=record, options=("--format", "json"))
    assert_bounded(run)
    assert "flooded its standard output" in run.error and "more than 10000 lines" in run.error, run.error
    report = json.loads(run.stdout)  # the report of what came before the flood is not lost
    assert report["summary"]["audit"]["stopped"] == run.error.removeprefix("mcplint: error: ")
    lines = recorded(record)
    server = [line for line in lines if line["from"] == "server"]
    assert lines[0]["from"] == "client" and 0 < len(server) <= 1000
    assert server[0]["message"]["method"] == "notifications/message"


def test_an_endless_line_is_refused_at_the_line_limit(tag, tmp_path):
    record = tmp_path / "s.jsonl"
    run = stdio(tag, "hostile_stdio_flood", "--mode", "long-line", record=record)
    assert_bounded(run)
    assert "a line longer than 4 MiB" in run.error, run.error
    assert [line["from"] for line in recorded(record)] == ["client"]


def test_a_message_of_more_values_than_a_capture_may_hold_ends_the_audit(tag, tmp_path):
    """Seven 4 MiB lines of `{}` before each answer held 750 MB (attack round 4): a message holding
    more than 500,000 values ends the audit, as `check` would refuse it in the recording."""
    record = tmp_path / "s.jsonl"
    run = stdio(tag, "hostile_stdio_flood", "--mode", "many-values", record=record)
    assert_bounded(run)
    assert "a message holding more than 500,000 JSON values" in run.error, run.error
    assert [line["from"] for line in recorded(record)] == ["client"]


def test_a_flood_of_empty_lines_is_bounded(tag):
    run = stdio(tag, "hostile_stdio_flood", "--mode", "blank")
    assert_bounded(run)
    assert "flooded its standard output" in run.error, run.error


def test_a_server_that_answers_each_request_just_in_time_is_stopped_at_the_overall_limit(tag, tmp_path):
    # every answer comes within --timeout, so only the audit's overall limit (30 x --timeout) ends it;
    # without that limit this audit takes about twice as long (50 pages, each 0.3 s late)
    record = tmp_path / "s.jsonl"
    run = stdio(tag, "hostile_slow_answers", record=record, options=("--timeout", "0.4", "--format", "json"))
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert "ran past its overall limit of 12 s" in run.error, run.error
    assert run.elapsed < 12 + 4, f"took {run.elapsed:.1f} s"
    assert json.loads(run.stdout)["summary"]["audit"]["stopped"] == run.error.removeprefix("mcplint: error: ")
    assert len([line for line in recorded(record) if line["from"] == "server"]) > 10


def test_a_grandchild_that_calls_setsid_and_keeps_stdout_open_is_killed(tag, tmp_path):
    """The parent ignores SIGTERM and outlives its stdin; its child left the process group and holds
    stdout: the audit still reports, returns promptly and leaves neither behind."""
    record = tmp_path / "s.jsonl"
    run = stdio(tag, "hostile_setsid", record=record)
    assert run.returncode in (0, 1), run.stderr[-2000:]
    assert_bounded(run, run.returncode)
    assert len(recorded(record)) > 10


def test_sigterm_stops_an_audit_whose_server_escapes_and_ignores_it(tag):
    """--timeout 30, the server hangs with a setsid child on stdout: SIGTERM ends mcplint in seconds."""
    from servers import orphans

    proc = subprocess.Popen([sys.executable, "-m", "mcplint", "audit", "--timeout", "30", f"--env={TAG_VARIABLE}={tag}",
                             "--", *server_command("hostile_setsid", "--hang")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                            cwd=tempfile.gettempdir())
    try:
        deadline = time.monotonic() + 20
        while len(orphans(tag)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # let the audit settle into waiting for an answer
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=15)
        assert time.monotonic() - started < 6
        assert proc.returncode != 0 and b"Traceback" not in stderr, stderr.decode()  # 130, as for Ctrl-C
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_the_stderr_tail_cannot_start_a_workflow_command_or_move_the_cursor(tag, tmp_path):
    server = tmp_path / "noisy.py"
    server.write_text("import sys\nsys.stderr.write('y' * 5000 + 'warming up\\n::error::pwned\\x1b[2J\\x07')\n"
                      "sys.exit(5)\n")
    run = audit(f"--env={TAG_VARIABLE}={tag}", "--", sys.executable, str(server))
    assert_bounded(run)
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "exited with status 5" in run.error
    # its last line, mid-line in mcplint's and with its control characters visible
    assert "its stderr says: ::error::pwned\\x1b[2J\\x07" in run.error and "\x1b" not in run.stderr
    assert len(run.error) < 1500


def test_a_secret_env_value_echoed_over_stdio_is_redacted_in_the_record(tag, tmp_path):
    record = tmp_path / "s.jsonl"
    run = stdio(tag, "hostile_echo_auth", record=record, env=(f"FIXTURE_SECRET={SECRET}",))
    assert run.returncode in (0, 1), run.stderr[-2000:]
    text = record.read_text()
    assert "<redacted>" in text and "s3cr3t-T0ken" not in text


def test_endless_pages_of_tools_stop_at_the_listing_bound(tag):
    """Pages of 3,000 fresh tools with a fresh cursor each: the audit keeps at most 10,000 tools
    (it kept 150,000 over 50 pages, and a page of 400,000 tiny tools made that gigabytes)."""
    run = stdio(tag, "hostile_pages", options=("--format", "json"))
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert "tools/list: stopped at 10,000 tools" in run.stderr
    assert json.loads(run.stdout)["summary"]["tools"] <= 12_000
    assert run.peak_mb < 300, f"peak {run.peak_mb:.0f} MB"


def test_a_lone_surrogate_escape_from_the_server_is_recorded_as_that_escape(tag, tmp_path):
    """A description holding "\\ud800" (valid JSON, no UTF-8 for it) crashed the recorder: one escape
    made a server impossible to audit. It is recorded as the escape, and the report comes."""
    record = tmp_path / "s.jsonl"
    run = stdio(tag, "poisoned_tools", "--lone-surrogate", record=record, options=("--format", "json"))
    assert run.returncode == 1 and "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr
    assert json.loads(run.stdout)["summary"]["tools"] == 2
    assert "Returns \\ud800 lone x." in record.read_text(encoding="utf-8")


# --- HTTP ---------------------------------------------------------------------------------------------
def test_servers_dripping_one_byte_a_second_are_abandoned_at_the_deadline(tmp_path):
    """Headers, then chunk sizes, dripped a byte a second: each exchange ends at its deadline.
    (The two audits run side by side: each takes three waits of 2 s.)"""
    from concurrent.futures import ThreadPoolExecutor

    records = {drip: tmp_path / f"{drip}.jsonl" for drip in ("headers", "chunks")}
    with HttpServer("hostile_http_drip", "--drip", "headers") as headers, \
            HttpServer("hostile_http_drip", "--drip", "chunks") as chunks:
        servers = {"headers": headers, "chunks": chunks}
        with ThreadPoolExecutor(2) as pool:
            runs = dict(zip(servers, pool.map(lambda d: audit("--record", str(records[d]), servers[d].url), servers)))
    for drip, run in runs.items():
        assert_bounded(run)
        assert "stopped answering" in run.error and servers[drip].url in run.error, run.error
        assert [line["from"] for line in recorded(records[drip])] == ["client"] * 3  # no made-up answers


def test_an_sse_flood_stops_at_the_event_cap(tmp_path):
    record = tmp_path / "s.jsonl"
    with HttpServer("hostile_sse_flood") as server:
        run = audit("--record", str(record), server.url)
    assert_bounded(run)
    assert "event stream" in run.error and "events" in run.error, run.error
    server_lines = [line for line in recorded(record) if line["from"] == "server"]
    assert 0 < len(server_lines) <= 1001


def test_events_other_than_the_answer_are_recorded_but_not_all_kept(tmp_path):
    """990 events of 5,000 values each, under every per-response bound, held 1.6 GB across an audit
    (attack round 4): other messages are recorded, and only a few small ones kept in memory."""
    record = tmp_path / "s.jsonl"
    with HttpServer("hostile_sse_flood", "--mode", "heavy-events") as server:
        run = audit("--record", str(record), server.url)
    assert_bounded(run)
    assert sum(line["from"] == "server" for line in recorded(record)) >= 990


def test_an_sse_event_that_never_ends_is_refused_at_the_size_limit(tmp_path):
    record = tmp_path / "s.jsonl"
    with HttpServer("hostile_sse_flood", "--mode", "big-event") as server:
        run = audit("--record", str(record), server.url)
    assert_bounded(run)
    assert "an event larger than 4 MiB" in run.error, run.error
    assert recorded(record)


def test_a_credential_echoed_back_is_redacted_in_the_record(tmp_path):
    record = tmp_path / "s.jsonl"
    with HttpServer("hostile_echo_auth") as server:
        run = audit("--record", str(record), "--call-read-only", "--header", f"Authorization: Bearer {SECRET}",
                    server.url)
    assert run.returncode in (0, 1), run.stderr[-2000:]
    text = record.read_text()
    assert "s3cr3t-T0ken" not in text and "s3cr3t-T0ken" not in run.stderr
    lines = [json.loads(line) for line in text.splitlines()]
    echoed = [line for line in lines if line["from"] == "server" and "X-Echo-Authorization" in
              (line.get("http") or {}).get("headers", {})]
    values = {line["http"]["headers"]["X-Echo-Authorization"] for line in echoed}
    assert "<redacted>" in values and values <= {"<redacted>", ""}  # "": the no-credentials probe
    assert "<redacted>" in json.dumps([line["message"] for line in lines if line["from"] == "server"])


# --- the bounds and the scrubbing, unit by unit ----------------------------------------------------------
def test_the_recorder_scrubs_every_form_of_a_secret_and_keeps_short_values():
    import io

    from mcplint.audit.recorder import Recorder, secret_values

    basic = "Basic " + __import__("base64").b64encode(b"alice:pa55word-x").decode()
    secrets = secret_values({"Authorization": f"Bearer {SECRET}", "X-Api": basic, "X-Short": "abc"},
                            {"GITHUB_TOKEN": "ghp_0123456789", "SCRIPT": "not-a-secret-at-all"})
    handle = io.StringIO()
    recorder = Recorder(handle, ["Authorization"], secrets)
    nested = json.dumps({"auth": json.dumps({"token": SECRET})})
    recorder.server({"result": {"text": nested, SECRET: ["pa55word-x", "ghp_0123456789"],
                                "url": "https://x.test/?t=" + __import__("urllib.parse").parse.quote(SECRET, safe="")}},
                    {"status": 200, "headers": {"X-Echo": f"Bearer {SECRET}", "X-Short": "abc"}},
                    raw="alice:pa55word-x")
    text = handle.getvalue()
    for leaked in ("s3cr3t", "pa55word", "ghp_0123456789", "alice:"):
        assert leaked not in text, text
    assert "not-a-secret-at-all" not in secrets and '"X-Short": "abc"' in text  # short values stay readable
    assert recorder.redact_text(f"error: {SECRET}") == "error: <redacted>"


def test_the_sse_parser_refuses_an_event_or_a_line_past_its_bound():
    from mcplint.audit.sse import EventTooLarge, SSEParser

    with pytest.raises(EventTooLarge):
        parser = SSEParser(max_event=1000)
        for _ in range(20):
            parser.feed(b"data: " + b"x" * 100 + b"\n")  # many data lines, no blank line: one growing event
    with pytest.raises(EventTooLarge):
        parser = SSEParser(max_event=1000)
        for _ in range(20):
            parser.feed(b"x" * 100)  # one line that never ends
    parser = SSEParser(max_event=1000)
    assert [len(e.data) for e in parser.feed((b"data: " + b"x" * 900 + b"\n\n") * 5)] == [900] * 5


def test_a_write_to_a_server_that_never_reads_its_stdin_ends_at_the_deadline():
    from mcplint.audit.stdio import StdioProcess

    process = StdioProcess([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            process.write_line("x" * (1 << 20), time.monotonic() + 0.5)  # far more than a pipe holds
        assert time.monotonic() - started < 2
    finally:
        process.close()
    assert process.exit_status() is not None


def test_the_transcript_is_bounded_in_server_lines_and_bytes():
    import io

    from mcplint.audit.recorder import Recorder, TranscriptFull

    recorder = Recorder(io.StringIO(), max_server_lines=3)
    for _ in range(3):
        recorder.server({"jsonrpc": "2.0", "method": "notifications/message"})
    recorder.client({"jsonrpc": "2.0", "id": 1, "method": "ping"})  # our own lines do not count
    with pytest.raises(TranscriptFull, match="more than 3 messages"):
        recorder.server({"jsonrpc": "2.0", "method": "notifications/message"})
    handle = io.StringIO()
    recorder = Recorder(handle, max_bytes=1000)
    recorder.server({"text": "x" * 500})
    with pytest.raises(TranscriptFull, match="exceed"):
        recorder.server({"text": "x" * 500})
    assert len(handle.getvalue()) < 1000 and handle.getvalue().count("\n") == 1


# --- answers that once ended the audit with "internal error" (tests/attack round F7-F9) ----------------
def test_a_cursor_with_a_lone_surrogate_ends_the_listing_with_a_note(tag):
    """nextCursor "\\ud800" cannot be sent back as UTF-8: it was an internal UnicodeEncodeError and
    the report was lost. The listing ends there with a note, and the report comes."""
    result = '{"tools":[{"name":"get_time","description":"Get the time.","inputSchema":{"type":"object"}}],' \
             '"nextCursor":"\\ud800"}'
    run = stdio(tag, "hostile_listing", result, options=("--format", "json"))
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert "internal error" not in run.stderr, run.stderr[-2000:]
    assert "tools/list: stopped at page 1: its nextCursor '\\ud800' is not valid Unicode" in run.stderr, run.stderr
    assert json.loads(run.stdout)["summary"]["tools"] == 1


@pytest.mark.parametrize("name", ['["a"]', '{"a": 1}', "3", "null", "true"])
def test_a_tool_name_of_any_json_type_gets_a_report(tag, name):
    """A list or an object as a tool name was `TypeError: unhashable type` in the unknown-tool probe."""
    result = '{"tools":[{"name":%s,"inputSchema":{"type":"object"}},' \
             '{"name":"get_\\ud800","description":"Get the time.","inputSchema":{"type":"object"}}]}' % name
    run = stdio(tag, "hostile_listing", result, options=("--format", "json", "--call-read-only"))
    assert run.returncode == 1, run.stderr[-2000:]
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert json.loads(run.stdout)["findings"]


def test_a_chunk_size_line_over_64_kib_is_a_one_line_server_error(tmp_path):
    """http.client's LineTooLong escaped the transport as an internal error."""
    with HttpServer("hostile_http_framing", "--mode", "chunk-line") as server:
        run = audit("--format", "json", server.url)
    assert_bounded(run)
    assert "internal error" not in run.stderr, run.stderr
    assert run.error == (f"mcplint: error: {server.url}: the response body is not valid HTTP (LineTooLong: got more "
                         "than 65536 bytes when reading chunk size); mcplint stopped reading it"), run.error
    assert json.loads(run.stdout)["summary"]["audit"]["stopped"]  # the report of what came before is kept


def test_a_folded_session_id_is_reported_and_never_sent_back(tmp_path):
    """An Mcp-Session-Id "abc<CR><LF><TAB>X-Injected: yes" was flagged (MCP823) but sent back on every
    later request as a folded header. It is flagged, said, and not sent."""
    log = tmp_path / "requests.log"
    with HttpServer("hostile_http_framing", "--mode", "session-fold", "--log", str(log)) as server:
        run = audit("--format", "json", server.url)
    assert_bounded(run, code=1)
    requests = log.read_text(errors="replace")
    assert requests.count("POST ") > 3 and "X-Injected" not in requests and "abc" not in requests, requests
    assert "Mcp-Session-Id" in run.stderr and "does not send it back" in run.stderr, run.stderr
    assert "MCP823" in {finding["rule"] for finding in json.loads(run.stdout)["findings"]}


@pytest.mark.parametrize("url", ["http://127.0.0.1:0/mcp", "https://127.0.0.1:0/", "http://127.0.0.1:000/mcp"])
def test_port_0_is_a_usage_error_not_port_80(url):
    """http.client took port 0 for "no port" and connected to 80 (or 443) with the --header values."""
    run = audit("--header", "Authorization: Bearer x", url)
    assert run.returncode == 2 and run.elapsed < WALL, run.stderr
    assert run.error == f"mcplint: error: {url}: not a valid URL (port 0; a port is 1-65535)"
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_endless_pages_of_many_values_stop_at_the_listing_value_budget(tag):
    """Pages of 1,000 tools x 150 properties (each under the 500,000-value cap of a message), without
    end: the audit keeps pages only while they hold 500,000 values together (it reached gigabytes)."""
    run = stdio(tag, "hostile_pages", "--per-page", "1000", "--properties", "150", options=("--format", "json"))
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert "tools/list: stopped listing at" in run.stderr and "500,000 at most" in run.stderr, run.stderr[-2000:]
    assert json.loads(run.stdout)["summary"]["tools"] <= 4_000
    assert run.peak_mb < PEAK_MB, f"peak {run.peak_mb:.0f} MB"
