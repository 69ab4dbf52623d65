"""No process a server starts outlives mcplint, even one that escapes every other trace.

fixtures/servers/hostile_daemon.py daemonizes a sleeper the hard way: double fork, setsid(), every
file descriptor closed and execve() with an EMPTY environment. It is in no process group or session
of the server's, holds none of mcplint's pipes and lacks MCPLINT_AUDIT_SESSION (and the fixture tag),
so only mcplint being a child subreaper (PR_SET_CHILD_SUBREAPER) catches it. Each sleeper carries a
unique tag in its argv; tests find it through /proc/<pid>/cmdline and kill their own in `finally`.

Also: a SIGTERM while `mcplint audit` lints the recording (after the server is gone) removes the
temporary recording, as one during the session does, and exits 130 as Ctrl-C does.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from servers import TAG_VARIABLE, kill_tagged, new_tag, orphans, server_command, wait_for_no_orphans

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_CHILD_SUBREAPER and /proc: Linux")

LOG_VARIABLE = "MCPLINT_FIXTURE_DAEMON_LOG"


# --- finding the sleepers by their argv tag ------------------------------------------------------------
def _state(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def _ppid(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def tagged(tag: str, zombies: bool = False) -> list[int]:
    """The sleepers (``python -c CODE TAG``) tagged ``tag``, not the server whose arguments name the
    tag too (zombies count as gone unless asked for)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            if argv[1:2] != [b"-c"] or tag.encode() not in argv:
                continue
        except OSError:
            continue
        if zombies or _state(int(entry.name)) not in (None, "Z", "X"):
            found.append(int(entry.name))
    return found


def wait_gone(tag: str, within: float = 5.0) -> list[int]:
    deadline = time.monotonic() + within
    while (left := tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def wait_present(tag: str, within: float = 20.0) -> list[int]:
    deadline = time.monotonic() + within
    while not (found := tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return found


def kill_tag(tag: str) -> None:
    for pid in tagged(tag):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


@pytest.fixture
def tags():
    """A factory of unique argv tags; whatever carries one is killed at the end, whatever happened."""
    made: list[str] = []

    def make(what: str) -> str:
        made.append(f"mcplint_escape_{what}_{uuid.uuid4().hex}")
        return made[-1]

    try:
        yield make
    finally:
        for tag in made:
            kill_tag(tag)


def logged(log: Path) -> dict[str, int]:
    """tag -> pid of each sleeper the fixture started (written by its middle process)."""
    if not log.exists():
        return {}
    return {tag: int(pid) for tag, pid in (line.split() for line in log.read_text().splitlines() if line.strip())}


def mcplint(*args: str, cwd: Path, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    full_env = {**{k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}, "NO_COLOR": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "mcplint", *args], cwd=cwd, env=full_env, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


# --- mcplint audit -----------------------------------------------------------------------------------
def test_daemons_started_at_launch_and_while_answering_a_ping_are_gone_after_the_audit(tags, tmp_path):
    at_start, on_ping = tags("start"), tags("ping")
    log = tmp_path / "daemons.log"
    proc = mcplint("audit", "--format", "json", "--env", f"{LOG_VARIABLE}={log}", "--",
                   *server_command("hostile_daemon", "--at-start", at_start, "--on-ping", on_ping),
                   cwd=tmp_path)
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    assert report["summary"]["audit"]["stopped"] is None and report["summary"]["tools"] == 2
    assert "ping" in [probe["name"] for probe in report["summary"]["audit"]["probes"]]
    assert set(logged(log)) == {at_start, on_ping}, "the fixture did not daemonize both sleepers"
    assert not wait_gone(at_start, 3.0), "the daemon started at launch outlived the audit"
    assert not wait_gone(on_ping, 3.0), "the daemon started while answering a ping outlived the audit"


def test_a_daemon_whose_pid_changes_every_few_milliseconds_is_gone_after_the_audit(tags, tmp_path):
    """It forks and exits every 2 ms: a pid read from /proc is dead before it is signalled. Its
    process group (made by its setsid, kept by every fork) is signalled instead."""
    walker, beats = tags("walker"), tmp_path / "heartbeat"
    log = tmp_path / "daemons.log"
    proc = mcplint("audit", "--format", "json", "--env", f"{LOG_VARIABLE}={log}",
                   "--env", f"MCPLINT_FIXTURE_HEARTBEAT={beats}", "--",
                   *server_command("hostile_daemon", "--walker", walker), cwd=tmp_path)
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert walker in logged(log) and beats.exists(), "the fixture did not daemonize the walker"
    time.sleep(0.3)  # (a beat written as mcplint returned)
    before = beats.stat().st_size
    time.sleep(1.0)  # a walker alive writes a beat every few milliseconds
    assert beats.stat().st_size == before, "the walker outlived the audit"


def test_repository_mode_stops_every_servers_daemons_and_each_server_is_still_audited(tags, tmp_path):
    """Two servers prestarted at once (drive.PRESTART), both audited, each leaving daemons at launch
    and on a ping: each server's listing and audit are complete (closing one never broke the other),
    and no daemon is left once `mcplint check` returns."""
    first, first_ping, second, second_ping = tags("a"), tags("a_ping"), tags("b"), tags("b_ping")
    log = tmp_path / "daemons.log"
    command = [sys.executable, str(server_command("hostile_daemon")[1])]
    (tmp_path / ".mcplint.yaml").write_text(
        "servers:\n"
        f"  - name: first\n    command: {json.dumps([*command, '--at-start', first, '--on-ping', first_ping])}\n"
        f"    env: {{{LOG_VARIABLE}: {json.dumps(str(log))}}}\n    audit: true\n"
        f"  - name: second\n    command: {json.dumps([*command, '--at-start', second, '--on-ping', second_ping])}\n"
        f"    env: {{{LOG_VARIABLE}: {json.dumps(str(log))}}}\n    audit: true\n", encoding="utf-8")
    proc = mcplint("check", "--format", "json", cwd=tmp_path)
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    summary = json.loads(proc.stdout)["summary"]
    assert summary["servers"] == 2 and summary["tools"] == 4 and not summary["errors"], proc.stderr[-2000:]
    assert set(logged(log)) == {first, first_ping, second, second_ping}
    for tag in (first, first_ping, second, second_ping):
        assert not wait_gone(tag, 3.0), f"{tag} outlived mcplint check"


# --- several servers in one process: what a close may and may not stop ---------------------------------
def _initialize(process) -> dict:
    """initialize sent to a mcplint.audit.stdio.StdioProcess; its answer."""
    process.write_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}))
    line = process.read_line(time.monotonic() + 20)
    return json.loads(line)


def _sleeper(new_session: bool) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=new_session,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _fork_sleeper() -> int:
    """A child of this process in its own session, made without exec: what a pool worker or a
    forked transcript splitter is to mcplint."""
    pid = os.fork()
    if pid == 0:
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            time.sleep(120)
        finally:
            os._exit(0)
    return pid


def _alive(pid: int) -> bool:
    return _state(pid) not in (None, "Z", "X")


def _stop(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass


def test_closing_one_server_spares_a_running_sibling_and_mcplints_own_children(tags, tmp_path):
    from mcplint.audit import processes, stdio

    tag = tags("sibling")
    before = _sleeper(new_session=True)  # the embedding program's own child, in another session
    own = sibling = escaping = None
    worker = _fork_sleeper()  # a "pool worker" forked before any server
    try:
        sibling = stdio.StdioProcess(server_command("plain_server"))
        escaping = stdio.StdioProcess(server_command("hostile_daemon", "--at-start", tag))
        own = _fork_sleeper()  # a "pool worker" forked while servers run
        found = wait_present(tag)
        assert found, "the fixture did not daemonize"
        daemon = found[0]
        assert _ppid(daemon) == os.getpid(), "the daemon was not re-parented to mcplint (no subreaper)"
        escaping.close()
        # The daemon started after the sibling did: it could be the sibling's, so it waits for the
        # last close; the sibling itself is untouched and still answers.
        assert sibling.exit_status() is None
        assert _initialize(sibling)["result"]["serverInfo"]
        assert _alive(daemon)
        sibling.close()
        assert not wait_gone(tag, 3.0), "the daemon outlived the last server's close"
        assert not Path(f"/proc/{daemon}").exists(), "the killed daemon was left a zombie (not reaped)"
        for pid in (worker, own, before.pid):
            assert _alive(pid), "a close stopped a process mcplint did not get from a server"
        assert processes.subreaper() is False, "the subreaper flag outlived the last server"
        assert processes.Adoption.current is None
    finally:
        for process in (escaping, sibling):
            if process is not None:
                process.close()
        for pid in (worker, own):
            if pid:
                _stop(pid)
        before.kill()
        before.wait()


def test_an_adopted_daemon_older_than_every_running_sibling_goes_with_its_own_server(tags):
    from mcplint.audit import stdio

    tag = tags("older")
    escaping = sibling = None
    try:
        escaping = stdio.StdioProcess(server_command("hostile_daemon", "--at-start", tag))
        found = wait_present(tag)
        assert found, "the fixture did not daemonize"
        daemon = found[0]
        time.sleep(0.05)  # a clock tick or more: the sibling is strictly younger than the daemon
        sibling = stdio.StdioProcess(server_command("plain_server"))
        assert _initialize(sibling)["result"]["serverInfo"]
        escaping.close()
        assert not wait_gone(tag, 3.0), "a daemon that cannot be the sibling's waited for no reason"
        assert not Path(f"/proc/{daemon}").exists(), "the killed daemon was left a zombie (not reaped)"
        assert sibling.exit_status() is None
        sibling.write_line(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        assert json.loads(sibling.read_line(time.monotonic() + 20))["id"] == 2
    finally:
        for process in (escaping, sibling):
            if process is not None:
                process.close()


def test_the_atexit_hook_stops_and_reaps_what_a_server_never_closed_left(tags):
    """An exit that skipped every close (an interrupt in the wrong place): the hook still finds the
    adopted daemon, kills it, reaps it and clears the subreaper flag."""
    from mcplint.audit import processes, stdio

    tag = tags("atexit")
    escaping = stdio.StdioProcess(server_command("hostile_daemon", "--at-start", tag))
    try:
        found = wait_present(tag)
        assert found and _ppid(found[0]) == os.getpid()
        stdio._kill_leftovers()
        assert not wait_gone(tag, 3.0)
        assert not Path(f"/proc/{found[0]}").exists(), "the killed daemon was left a zombie (not reaped)"
        assert processes.Adoption.current is None and processes.subreaper() is False
    finally:
        escaping.close()


# --- SIGTERM after the session: the temporary recording goes too ----------------------------------------
def _audit_in_private_tmp(tmp_path: Path, tag: str, *server: str) -> tuple[subprocess.Popen, Path]:
    private = tmp_path / "tmp"
    private.mkdir()
    env = {**{k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}, "TMPDIR": str(private), "NO_COLOR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "mcplint", "audit", "-q", f"--env={TAG_VARIABLE}={tag}", "--",
                             *server], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    return proc, private


def _finish(proc: subprocess.Popen) -> str:
    try:
        _, stderr = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return stderr.decode(errors="replace")


def _terminate(proc: subprocess.Popen, tag: str, private: Path, folders: str, ready, *, orphans_too=False) -> None:
    """Once ``ready()`` holds, SIGTERM mcplint and check that it exits 130 and leaves no ``folders``
    in its private TMPDIR, nor (``orphans_too``) a process of the server's; then kill whatever of
    the test's is left, whatever happened."""
    try:
        ready()
        assert proc.poll() is None and list(private.glob(folders)), "no recording in the private TMPDIR"
        proc.send_signal(signal.SIGTERM)
        stderr = _finish(proc)
        assert proc.returncode == 130 and "Traceback" not in stderr, (proc.returncode, stderr[-2000:])
        assert not list(private.glob(folders)), "the temporary recording was left behind"
        assert not (orphans_too and wait_for_no_orphans(tag)), "a process of the server outlived mcplint"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        kill_tagged(tag)


def _interrupt_the_lint(proc: subprocess.Popen, tag: str, private: Path, folders: str) -> None:
    """SIGTERM mcplint after the tagged server's session ended, while it lints the recording."""
    def linting():
        deadline = time.monotonic() + 30
        while not orphans(tag) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert orphans(tag), "the server did not start"
        while orphans(tag) and time.monotonic() < deadline:  # the session, then its close
            time.sleep(0.01)
        time.sleep(0.1)  # past the close: mcplint is linting the recording now (10,000 tools: ~1 s)

    _terminate(proc, tag, private, folders, linting)


def test_sigterm_while_the_recording_is_linted_removes_the_temporary_recording(tmp_path):
    """10,000 tools: linting the recording takes a second after the server is gone; a SIGTERM then
    ends mcplint with 130 (as Ctrl-C and a SIGTERM during the session do) and no mcplint-audit-*
    folder is left in TMPDIR."""
    tag = new_tag()
    proc, private = _audit_in_private_tmp(tmp_path, tag, *server_command("hostile_daemon", "--tools", "10000"))
    _interrupt_the_lint(proc, tag, private, "mcplint-audit-*")


def test_sigterm_during_the_session_still_exits_130_and_removes_the_temporary_recording(tmp_path):
    tag = new_tag()
    proc, private = _audit_in_private_tmp(tmp_path, tag, *server_command("hangs"))

    def in_session():
        deadline = time.monotonic() + 30
        while not orphans(tag) and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.5)

    _terminate(proc, tag, private, "mcplint-audit-*", in_session, orphans_too=True)


def test_sigterm_while_a_configured_servers_listing_is_linted_removes_its_temporary_recording(tmp_path):
    """The same for `mcplint check` of a server in the config (repository mode): no mcplint-server-*
    folder is left in TMPDIR."""
    tag = new_tag()
    command = ", ".join(json.dumps(part) for part in server_command("hostile_daemon", "--tools", "10000"))
    (tmp_path / ".mcplint.yaml").write_text(
        f"servers:\n  - name: many\n    command: [{command}]\n    env: {{{TAG_VARIABLE}: {tag}}}\n    audit: true\n",
        encoding="utf-8")
    private = tmp_path / "tmp"
    private.mkdir()
    env = {**{k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}, "TMPDIR": str(private), "NO_COLOR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "mcplint", "check", "-q"], cwd=tmp_path, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    _interrupt_the_lint(proc, tag, private, "mcplint-server-*")
