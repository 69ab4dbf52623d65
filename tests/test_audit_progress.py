"""A long wait shows what it waits for, and a server that answers nothing is named quickly (issue 12).

- Progress: under a pseudo-terminal (stderr is a TTY, stdout a pipe) the audit draws one transient
  spinner line on stderr saying what it waits for; piped, in CI, with TERM=dumb or
  MCPLINT_PROGRESS=0 it draws nothing; MCPLINT_PROGRESS=1 forces it; --verbose still logs; stdout (the
  report) never sees it. `check` with configured servers names the server on the line.
- A dead server: over HTTP, no response to server/discover ends the audit after one --timeout; over
  stdio, where a handshake-era server may ignore server/discover without a word, initialize still
  follows, and a second silence ends it (two waits, not three). Servers that answer, slowly or after a
  silence, are still audited whole. Timing bounds are behaviour checks with generous slack.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from conftest import ROOT
from servers import PYTHON, SERVERS, TAG_VARIABLE, HttpServer, kill_tagged, new_tag, server_command, wait_for_no_orphans

RUN_TIMEOUT = 60  # hard bound on one mcplint run
SLACK = 3.0  # seconds for the interpreter, the server's start and the teardown
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SPINNER = re.compile("[\u2800-\u28ff]")  # rich's "dots" frames are braille characters


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "MCPLINT_PROGRESS", "NO_COLOR", "FORCE_COLOR",
                                                             "TERM", "COLUMNS")}
    return {**env, "TERM": "xterm-256color", "COLUMNS": "160", **extra}


def _mcplint(*args: str, tty: bool, cwd=ROOT, **env: str) -> tuple[int, str, str, float]:
    """Run mcplint with stderr on a pseudo-terminal (``tty``) or a pipe; stdout is always a pipe.
    Returns (exit status, stdout, stderr, seconds)."""
    command = [sys.executable, "-m", "mcplint", *args]
    started = time.monotonic()
    if not tty:
        proc = subprocess.run(command, cwd=cwd, capture_output=True, env=_env(**env), timeout=RUN_TIMEOUT)
        return proc.returncode, proc.stdout.decode(), proc.stderr.decode(), time.monotonic() - started
    master, slave = pty.openpty()
    proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
                            env=_env(**env))
    os.close(slave)
    out, err, deadline = b"", b"", started + RUN_TIMEOUT
    streams = {proc.stdout.fileno(): "out", master: "err"}
    try:
        while streams and time.monotonic() < deadline:
            ready, _, _ = select.select(list(streams), [], [], 0.2)
            for fd in ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # the pty's other end is gone (EIO)
                    chunk = b""
                if not chunk:
                    del streams[fd]
                elif streams[fd] == "out":
                    out += chunk
                else:
                    err += chunk
            if not ready and proc.poll() is not None and master not in streams:
                break
        status = proc.wait(timeout=max(deadline - time.monotonic(), 1))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        proc.stdout.close()
    return status, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - started


def _lines(stderr: str) -> set[str]:
    """Every state the terminal line went through, without escapes and spinner frames."""
    text = ESCAPES.sub("", stderr)
    return {SPINNER.sub("", part).strip() for part in re.split(r"[\r\n]", text) if part.strip()}


def _fixture(name: str) -> list[str]:
    return ["--", *server_command(name)]


# --- progress on a terminal, nothing when piped ------------------------------------------------------
def test_a_terminal_sees_what_the_audit_waits_for():
    """The handshake-era server that ignores server/discover: a wait long enough to show the clock."""
    status, out, err, _ = _mcplint("audit", "--timeout", "1.5", "--format", "json",
                                   *_fixture("silent_before_initialize"), tty=True)
    assert status in (0, 1), err[-3000:]
    lines = _lines(err)
    assert "starting the server: waiting for server/discover" in lines, lines
    assert any(re.fullmatch(r"starting the server: waiting for server/discover \(1\.\d s\)", line) for line in lines), lines
    assert "stopping the server" in lines, lines
    assert SPINNER.search(err)  # a spinner, animated by rich
    assert err.rstrip().endswith("\x1b[2K") or "\x1b[?25h" in err[-200:]  # transient: the line is erased
    assert "\x1b" not in out and not SPINNER.search(out)  # the report on stdout is untouched
    assert json.loads(out)["summary"]["audit"]["era"] == "handshake"


class Recording:
    """Stands in for the spinner: keeps what the audit reported, in order."""

    def __init__(self):
        self.seen: list[tuple] = []

    def stage(self, text, *, requests=False):
        self.seen.append(("stage", text))

    def scope(self, text):
        self.seen.append(("scope", text))

    def request(self, method, params=None):
        name = params.get("name") if method == "tools/call" and isinstance(params, dict) else None
        self.seen.append(("request", method) + ((name,) if name else ()))

    def answered(self):
        pass


def _recorded_audit(monkeypatch, tmp_path, server: str, **settings) -> list[tuple]:
    from mcplint import progress
    from mcplint.audit import runner
    from mcplint.servers.drive import drive

    recording = Recording()
    monkeypatch.setattr(progress, "_current", recording)
    drive(url=None, argv=server_command(server), label=server, env={}, cwd=None, headers={},
          settings=runner.Settings(timeout=10, **settings), record_path=tmp_path / "s.jsonl",
          log=lambda line: None, steps=runner.run)
    return recording.seen


def test_each_step_of_an_audit_is_reported(monkeypatch, tmp_path):
    seen = _recorded_audit(monkeypatch, tmp_path, "plain_server", call_read_only=True)
    stages = [entry[1] for entry in seen if entry[0] == "stage"]
    assert stages[0] == "starting the server" and stages[-1] == "stopping the server", stages
    for expected in ("listing tools", "probe: unknown-method", "probe: unknown-tool",
                     "probe: malformed-json, invalid-request", "probe: ping", "probe: input-validation",
                     "probe: call-read-only"):
        assert expected in stages, (expected, stages)
    requests = [entry[1:] for entry in seen if entry[0] == "request"]
    assert requests[:2] == [("server/discover",), ("initialize",)], requests
    called = stages.index("probe: call-read-only")
    assert ("request", "tools/call", "add_numbers") in seen[called:], seen[called:]


def test_listing_pages_are_counted(monkeypatch, tmp_path):
    seen = _recorded_audit(monkeypatch, tmp_path, "stateless_misbehaves")
    stages = [entry[1] for entry in seen if entry[0] == "stage"]
    assert stages.index("listing tools") < stages.index("listing tools (page 2)"), stages


def test_a_terminal_hears_of_a_silent_server_within_the_timeout():
    """The line says server/discover went unanswered as soon as its wait ends; the error follows the
    erased line."""
    status, out, err, _ = _mcplint("audit", "--timeout", "1.5", *_fixture("hangs"), tty=True)
    assert status == 2
    lines = _lines(err)
    assert "no answer to server/discover: waiting for initialize" in lines, lines
    assert any(re.fullmatch(r"no answer to server/discover: waiting for initialize \(1\.\d s\)", line)
               for line in lines), lines
    last = ESCAPES.sub("", err).replace("\r", "\n").strip().splitlines()[-1]
    assert last.startswith("mcplint: error: the server answered nothing"), err[-500:]
    assert out == ""


def test_verbose_logs_still_print_under_the_spinner():
    status, _, err, _ = _mcplint("audit", "-v", "--format", "json", *_fixture("plain_server"), tty=True)
    assert status in (0, 1), err[-3000:]
    text = ESCAPES.sub("", err)
    assert "mcplint: audit: session: initialize: protocol 2025-11-25" in text
    assert "mcplint: audit: tools/list: 2 tool(s)" in text


@pytest.mark.parametrize("env", [{}, {"CI": "true"}, {"TERM": "dumb"}, {"MCPLINT_PROGRESS": "0"}],
                         ids=["piped", "ci", "dumb", "off"])
def test_no_progress_when_nobody_watches(env):
    tty = bool(env)  # CI, TERM=dumb and MCPLINT_PROGRESS=0 turn it off even on a terminal
    status, out, err, _ = _mcplint("audit", "-v", "--format", "json", *_fixture("plain_server"), tty=tty, **env)
    assert status in (0, 1), err[-3000:]
    assert "waiting for" not in err and not SPINNER.search(err) and "\x1b[?25l" not in err, err[-2000:]
    assert "mcplint: audit: tools/list: 2 tool(s)" in err  # --verbose is not progress
    json.loads(out)


def test_progress_can_be_forced_onto_a_pipe():
    status, out, err, _ = _mcplint("audit", "--timeout", "1", *_fixture("hangs"), tty=False, MCPLINT_PROGRESS="1")
    assert status == 2
    assert "starting the server: waiting for server/discover" in _lines(err), err[-2000:]
    assert out == ""


def test_check_names_the_configured_server_it_waits_for(tmp_path):
    (tmp_path / ".mcplint.yaml").write_text(
        "servers:\n  - name: slowpoke\n"
        f"    command: [{json.dumps(PYTHON)}, {json.dumps(str(SERVERS / 'silent_before_initialize.py'))}]\n"
        "    timeout: 1.5\n")
    status, out, err, _ = _mcplint("check", "--servers-only", "--format", "json", tty=True, cwd=tmp_path)
    assert status in (0, 1), err[-3000:]
    lines = _lines(err)
    assert any(re.fullmatch(r"server slowpoke: starting the server: waiting for server/discover \(1\.\d s\)", line)
               for line in lines), lines
    assert "\x1b" not in out


# --- a server that answers nothing is named quickly ---------------------------------------------------
def _dead_stdio(*options: str, server: str = "hangs") -> tuple[int, str, float]:
    tag = new_tag()
    try:
        status, _, err, took = _mcplint("audit", *options, f"--env={TAG_VARIABLE}={tag}", *_fixture(server), tty=False)
        assert not wait_for_no_orphans(tag), "the server outlived the audit"
    finally:
        kill_tagged(tag)
    return status, err, took


def test_a_silent_stdio_server_is_given_up_after_two_waits_not_three():
    status, err, took = _dead_stdio("--timeout", "2")
    assert status == 2 and "Traceback" not in err
    assert err.strip().splitlines() == [
        "mcplint: error: the server answered nothing: no answer to server/discover within 2 s, nor to initialize "
        "within 2 s; if it is slow to start, give it a longer timeout"], err
    assert took < 2 * 2 + SLACK, f"took {took:.1f} s"


def test_a_silent_stdio_server_with_a_forced_version_is_given_up_after_one_wait():
    status, err, took = _dead_stdio("--timeout", "2", "--protocol-version", "2025-11-25")
    assert status == 2 and "no answer to initialize within 2 s" in err and "server/discover" not in err, err
    assert took < 2 + SLACK, f"took {took:.1f} s"


def test_a_silent_http_server_is_given_up_after_one_wait(tmp_path):
    record = tmp_path / "s.jsonl"
    with HttpServer("http_no_response") as server:
        status, _, err, took = _mcplint("audit", "--timeout", "2", "--record", str(record), server.url, tty=False)
    assert status == 2, err
    assert err.strip() == (f"mcplint: error: {server.url}: the server answered nothing: no answer to server/discover "
                           "within 2 s; if it is slow to start, give it a longer timeout"), err
    assert took < 2 + SLACK, f"took {took:.1f} s"
    sent = [json.loads(line) for line in record.read_text().splitlines()]
    assert [(m["from"], m["message"]["method"]) for m in sent] == [("client", "server/discover")]


def test_a_server_that_answers_discover_still_gets_both_initialize_offers():
    """never_initializes answers server/discover: its silence on initialize is a finding, and the real
    offer follows the unsupported one, as before."""
    status, err, took = _dead_stdio("--timeout", "1.5", server="never_initializes")
    assert status == 2 and "stopped answering: no answer to initialize within 1.5 s" in err, err
    assert took >= 3.0, f"took {took:.1f} s: the second offer was not waited for"


# --- servers that answer, late or after a silence, are audited whole ------------------------------------
def _audited(*args: str) -> dict:
    status, out, err, _ = _mcplint("audit", "--format", "json", *args, tty=False)
    assert status in (0, 1), err[-3000:]
    return json.loads(out)["summary"]["audit"]


def test_a_handshake_server_silent_on_server_discover_is_audited(tmp_path):
    record = tmp_path / "s.jsonl"
    summary = _audited("--timeout", "1.5", "--record", str(record), *_fixture("silent_before_initialize"))
    assert (summary["era"], summary["protocol_version"]) == ("handshake", "2025-11-25")
    assert {p["name"] for p in summary["probes"] if p["status"] == "ran"} >= {"unsupported-version", "tools/list",
                                                                              "unknown-method", "ping"}
    methods = [(json.loads(line)["message"] or {}).get("method") for line in record.read_text().splitlines()][:3]
    assert methods == ["server/discover", "initialize", None]  # the transcript as before: no answer to discover


def test_a_server_slower_to_start_than_the_timeout_is_still_audited():
    """It boots after server/discover's wait ended: its answers arrive while initialize is waited for."""
    command = f"sleep 1.5; exec {PYTHON} {SERVERS / 'plain_server.py'}"
    summary = _audited("--timeout", "1", "--", "sh", "-c", command)
    assert (summary["era"], summary["protocol_version"]) == ("handshake", "2025-11-25")


def test_the_sdk_server_is_still_audited_in_the_stateless_era():
    summary = _audited(*_fixture("sdk_server"))
    assert (summary["era"], summary["protocol_version"]) == ("modern", "2026-07-28")


# --- the progress line itself ----------------------------------------------------------------------------
def test_the_line_says_stage_request_and_clock(monkeypatch):
    from mcplint import progress

    spinner = progress.Spinner()
    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    spinner.scope("server weather")
    spinner.stage("starting the server", requests=True)
    spinner.request("server/discover")
    assert spinner.line() == "server weather: starting the server: waiting for server/discover"
    clock[0] += 3.24
    assert spinner.line() == "server weather: starting the server: waiting for server/discover (3.2 s)"
    spinner.answered()
    spinner.scope("")
    spinner.stage("probe: unknown-method")  # a probe's own requests are not spelled out
    spinner.request("mcplint/no-such-method")
    assert spinner.line() == "probe: unknown-method"
    spinner.stage("probe: call-read-only")
    spinner.request("tools/call", {"name": "read_\u202efile\n" + "x" * 80})  # a server chose the name
    assert spinner.line().startswith("probe: call-read-only: calling read_\\u202efile\\nxxx")
    assert spinner.line().endswith("...") and len(spinner.line()) < 100


def test_progress_is_off_without_a_terminal_and_a_no_op_by_default(monkeypatch):
    from mcplint import progress

    class Tty:
        def isatty(self):
            return True

    for name in ("CI", "MCPLINT_PROGRESS", "TERM"):
        monkeypatch.delenv(name, raising=False)
    assert progress.wanted(Tty()) and not progress.wanted(open(os.devnull, "w"))
    monkeypatch.setenv("CI", "1")
    assert not progress.wanted(Tty())
    monkeypatch.setenv("MCPLINT_PROGRESS", "always")
    assert progress.wanted(Tty()) and progress.wanted(open(os.devnull, "w"))
    assert progress.current() is progress._NOBODY
    progress.stage("nothing listens")  # costs nothing, draws nothing
    progress.request("tools/call", {"name": "x"})
    progress.answered()
