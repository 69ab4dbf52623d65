"""The stdio transport: a child process speaking newline-delimited JSON-RPC.

The server runs in a new session (so a new process group): Ctrl-C in the terminal
reaches mcplint only, and shutting down can signal the server *and everything it
started* (``npx`` and ``uv run`` start the real server as a grandchild). Shutdown
follows the spec (LIFE-09): close stdin, wait, SIGTERM, wait, SIGKILL, always to the
whole group, and also when the audit ends with an exception or an interrupt; an
``atexit`` hook catches anything that still slips through. A process that left the
group (``setpgid``) is found as a member of the server's session; one that left the session
(``setsid``) as a descendant of the server, as a holder of one of our pipes, or by the
``MCPLINT_AUDIT_SESSION`` variable the server's environment carries (which a daemon inherits
even after its parent is gone), and is signalled too.

A daemon can drop all of those (double fork, ``setsid``, every descriptor closed, ``execve``
with an empty environment), so on Linux mcplint also makes itself a child subreaper
(``PR_SET_CHILD_SUBREAPER``) while any server runs: such an orphan is re-parented to mcplint
instead of init, and shutdown stops the processes mcplint *adopted* that way, with their
descendants, and reaps them (``waitpid``, no zombies left). An adopted process is told apart from
mcplint's own children (pool workers, forked transcript splitters, other servers) by three facts:
it is outside mcplint's session (a server runs in a new session and nothing it starts can ever
join mcplint's again; mcplint's own forks stay in it), its pid is not one of the servers, and it
was not a child of mcplint before the first server started. Several servers may run at once
(repository mode prestarts them): when one closes, an adopted process is stopped only if it
started before every other server still running (so it cannot descend from one of them); the
others wait for the close of the last running server (or the ``atexit`` hook). The subreaper flag
is cleared again once no server runs (unless mcplint's process had it already).

Nothing here blocks without a deadline: the pipes are non-blocking and every read
and write waits on a selector until a deadline. stdout is read only when the caller
wants the next line (a flooding server waits on a full pipe, memory stays bounded);
a line longer than ``MAX_LINE`` ends the audit. stderr is read along the way and only
its last 64 KiB are kept, shown (neutralized, shortened) when the server fails.
"""

from __future__ import annotations

import atexit
import os
import selectors
import signal
import subprocess
import time
import uuid
import weakref

from mcplint.audit import processes as procs
from mcplint.errors import MCPLintError
from mcplint.document.value_count import MAX_VALUES
from mcplint.audit.server_text import printable, stderr_gist

STDERR_TAIL = 64 * 1024
MAX_LINE = 4 * 1024 * 1024  # a longer stdout line is garbage or a flood, not a message
EXIT_GRACE = 1.0  # seconds between closing stdin, SIGTERM and SIGKILL
CHUNK = 65536
SESSION_VARIABLE = "MCPLINT_AUDIT_SESSION"  # marks every process the server starts (unless it clears it)

_LIVE: "weakref.WeakSet[StdioProcess]" = weakref.WeakSet()


class ServerError(MCPLintError):
    """The server could not be started, crashed, stopped answering or wrote garbage."""


# A message is parsed to be recorded; one of more values than a capture may hold per message
# (mcplint.document.value_count) ends the audit, as `check` would refuse it in the recording.
TOO_MANY_VALUES = (f"the server sent a message holding more than {MAX_VALUES:,} JSON values, the limit for one "
                   "message; mcplint stopped (the transcript keeps what came before)")


class StdioProcess:
    def __init__(self, argv: list[str], env: dict[str, str] | None = None, cwd: str | None = None) -> None:
        self.argv = argv
        # How long a server may take to exit once its input ends, before SIGTERM. An audit gives it
        # EXIT_GRACE (the shutdown is part of what it observes); a listing needs nothing more from it.
        self.exit_grace = EXIT_GRACE
        self._marker = f"{SESSION_VARIABLE}={uuid.uuid4().hex}".encode()
        full_env = {**os.environ, **(env or {}), SESSION_VARIABLE: self._marker.split(b"=", 1)[1].decode()}
        adoption = procs.Adoption.begin()  # before the server starts: its orphans come to mcplint from now on
        try:
            self.proc = _start(argv, full_env, cwd)
        except BaseException:
            if not _LIVE:
                procs.Adoption.end()
            raise
        _LIVE.add(self)
        self._born = procs.start_time(self.proc.pid)  # its start time: tells a reused pid apart
        self._started = procs.start_tick(self.proc.pid)  # None: unknown (never counted as older than anything)
        adoption.servers.add((self.proc.pid, self._born))
        if adoption.first is None:
            adoption.first = self._started
        self._pgid = self.proc.pid  # start_new_session: the child leads its own group
        self._in, self._out, self._err = (s.fileno() for s in (self.proc.stdin, self.proc.stdout, self.proc.stderr))
        self._pipes = {os.fstat(fd).st_ino for fd in (self._in, self._out, self._err)}
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)
        self._selector.register(self._err, selectors.EVENT_READ)
        self._buffer = bytearray()  # stdout read but not yet returned as lines
        self._scanned = 0  # how much of the buffer is known to hold no newline
        self._out_eof = False
        self._stderr = bytearray()
        self.bytes_read = 0  # from stdout, over the whole audit
        self._tracked: dict[int, str] = {}  # pid -> start time: processes the server started
        # (pgid, session) of those outside mcplint's session: a group outlives any one pid in it
        self._groups: set[tuple[str, str]] = set()

    # -- reading -------------------------------------------------------------
    def read_line(self, deadline: float) -> bytes | None:
        """The next stdout line; None at end of stream; TimeoutError after ``deadline``;
        ServerError for a line longer than MAX_LINE."""
        while True:
            newline = self._buffer.find(b"\n", self._scanned)
            if newline >= 0:
                line = bytes(self._buffer[: newline + 1])
                del self._buffer[: newline + 1]
                self._scanned = 0
                return line
            self._scanned = len(self._buffer)
            if len(self._buffer) > MAX_LINE:
                del self._buffer[:]
                self._scanned = 0
                raise ServerError(f"the server wrote a line longer than {MAX_LINE // (1024 * 1024)} MiB "
                                  "to standard output; mcplint stopped reading it")
            if self._out_eof:
                if self._buffer:  # a last line without its newline
                    line, self._buffer[:], self._scanned = bytes(self._buffer), b"", 0
                    return line
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            self._pump(self._selector.select(remaining))

    def _pump(self, events) -> None:
        for key, _ in events:
            fd = key.fd
            try:
                chunk = os.read(fd, CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self._selector.unregister(fd)
                if fd == self._out:
                    self._out_eof = True
            elif fd == self._out:
                self._buffer += chunk
                self.bytes_read += len(chunk)
            else:
                self._stderr += chunk
                if len(self._stderr) > STDERR_TAIL:
                    del self._stderr[: len(self._stderr) - STDERR_TAIL]

    def _pump_stderr(self) -> None:
        """Take whatever stderr holds now (never waits)."""
        for _ in range(STDERR_TAIL // CHUNK + 1):
            try:
                if self._err not in self._selector.get_map():
                    return
            except (KeyError, RuntimeError, TypeError):  # TypeError: the selector is closed
                return
            before = len(self._stderr)
            self._pump([(self._selector.get_key(self._err), selectors.EVENT_READ)])
            if len(self._stderr) == before:
                return

    def stderr_gist(self, limit: int = 300) -> str:
        """The line of what the server wrote to stderr that says what went wrong (see
        ``stderr_gist``), neutralized for a one-line message: control characters become
        visible escapes, so it can neither start a CI workflow command nor move a cursor."""
        self._pump_stderr()
        shown = printable(stderr_gist(bytes(self._stderr[-8192:]).decode("utf-8", errors="replace")))
        return shown if len(shown) <= limit else shown[: limit - 3] + "..."

    # -- writing -------------------------------------------------------------
    def write_line(self, text: str, deadline: float | None = None) -> None:
        """EOFError when the server closed its stdin; TimeoutError when it stopped reading it
        (the pipe stayed full until ``deadline``)."""
        data = memoryview(text.encode("utf-8") + b"\n")
        deadline = deadline if deadline is not None else time.monotonic() + 10
        try:
            written = os.write(self._in, data)  # the usual case: the pipe has room
            data = data[written:]
        except BlockingIOError:
            pass
        except (ValueError, OSError):
            raise EOFError from None
        if not data:
            return
        with selectors.DefaultSelector() as writable:
            try:
                writable.register(self._in, selectors.EVENT_WRITE)
            except (ValueError, OSError):
                raise EOFError from None
            while data:
                try:
                    data = data[os.write(self._in, data):]
                    continue
                except BlockingIOError:
                    pass
                except (ValueError, OSError):
                    raise EOFError from None
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError
                writable.select(min(remaining, 0.1))
                self._pump_stderr()  # a server blocked on a full stderr pipe reads no stdin

    # -- state ---------------------------------------------------------------
    def exit_status(self, wait: float = 0.0) -> int | None:
        try:
            return self.proc.wait(timeout=wait) if wait > 0 else self.proc.poll()
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        """Close stdin, wait, SIGTERM everything the server started, wait, SIGKILL; then kill and
        reap what mcplint adopted since (``_sweep``). Never raises, never waits for an end of
        stream: a process that escaped the group may hold stdout open. It stays in _LIVE until
        done, so an interrupt midway still reaches the atexit hook."""
        self._track()  # before the server exits: its children are still its children
        _close(self.proc.stdin)
        exited = self.exit_status(self.exit_grace) is not None
        self._track()
        self._signal_all(signal.SIGTERM)  # also after a clean exit: children may linger
        deadline = time.monotonic() + EXIT_GRACE
        while self._anything_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        if self._anything_alive() or not exited:
            self._track()
            self._signal_all(signal.SIGKILL)
            self.exit_status(EXIT_GRACE)
        self._sweep()
        try:
            self._selector.close()
        except (OSError, RuntimeError):
            pass
        for stream in (self.proc.stdout, self.proc.stderr):
            _close(stream)  # unbuffered: closing never waits for a reader or for an end of stream
        _LIVE.discard(self)
        if not _LIVE:
            procs.Adoption.end()

    # -- the processes to stop -------------------------------------------------
    def _track(self, adopted_only: bool = False) -> None:
        """Remember the server's descendants, the members of its session, every process holding
        one of our pipes, the processes mcplint adopted that can only be this server's (see
        ``procs.Adoption.orphans``) and their descendants. Never one of mcplint's own session (a pool
        worker forked while the server ran holds copies of its pipes) nor another server."""
        table = procs.process_table()
        own_session = procs.mcplint_session()
        found = set()
        if self.proc.pid not in table or table[self.proc.pid][19] == self._born:  # not a reused pid
            found = procs.descendants_in(table, [self.proc.pid]) | procs.session_members(table, self.proc.pid)
        siblings = [p for p in list(_LIVE) if p is not self]
        adopted = procs.Adoption.orphans(table, siblings)
        found |= set(adopted) | procs.descendants_in(table, adopted)
        found |= procs.descendants_in(table, [pid for pid, started in self._tracked.items()  # theirs too
                                         if pid in table and table[pid][19] == started])
        if not adopted_only:
            try:
                found |= procs.pipe_holders(self._pipes) | procs.marked(self._marker)
            except OSError:
                pass
        servers = procs.Adoption.server_pids() | {p.proc.pid for p in siblings}
        for pid in found - {os.getpid(), self.proc.pid} - servers:
            fields = table.get(pid) or procs.proc_stat(pid)
            if not fields or len(fields) <= 19 or (own_session is not None and fields[3] == own_session):
                continue
            self._tracked.setdefault(pid, fields[19])
            self._groups.add((fields[2], fields[3]))

    def _tracked_alive(self) -> list[int]:
        return [pid for pid, started in self._tracked.items() if procs.start_time(pid) == started and not procs.zombie(pid)]

    def _reap(self) -> None:
        """waitpid (never blocking) each tracked process that died as mcplint's child: adopted
        ones, which nobody else waits for. Only zombies that are still the ones tracked."""
        procs.reap(self._tracked)

    def _sweep(self) -> None:
        """After the server's group is gone: what mcplint adopted meanwhile (a daemon whose parent
        died in the kill, the children of a killed orphan) is killed and reaped too. Bounded: at
        most EXIT_GRACE, and only while something tracked is still alive."""
        deadline = time.monotonic() + EXIT_GRACE
        for _ in range(1000):
            self._track(adopted_only=True)
            alive = self._tracked_alive()
            groups = procs.live_groups(self._groups)  # a daemon whose pid changes faster than we look
            self._reap()
            if not alive and not groups or time.monotonic() >= deadline:
                return
            procs.kill(alive, signal.SIGKILL)
            procs.kill_groups(groups, signal.SIGKILL)
            time.sleep(0.02)

    def _signal_all(self, sig: int) -> None:
        self._signal_group(sig)
        procs.kill(self._tracked_alive(), sig)

    def _anything_alive(self) -> bool:
        self.proc.poll()  # reap the leader, or its zombie keeps the group alive
        self._reap()  # and the adopted processes that died (mcplint's children now)
        return self._group_alive() or bool(self._tracked_alive())

    def _signal_group(self, sig: int) -> None:
        try:
            os.killpg(self._pgid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def _group_alive(self) -> bool:
        try:
            os.killpg(self._pgid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


def _start(argv: list[str], env: dict[str, str], cwd: str | None) -> subprocess.Popen:
    try:
        return subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, cwd=cwd, start_new_session=True, bufsize=0,
        )
    except FileNotFoundError:
        where = f" (in {cwd})" if cwd and os.sep in argv[0] else ""
        raise ServerError(f"cannot start the server: {argv[0]}: command not found{where}") from None
    except PermissionError:
        raise ServerError(f"cannot start the server: {argv[0]}: permission denied") from None
    except NotADirectoryError:
        raise ServerError(f"cannot start the server: --cwd {cwd}: not a directory") from None
    except OSError as err:
        raise ServerError(f"cannot start the server: {argv[0]}: {err.strerror or err}") from None


def _close(stream) -> None:
    try:
        stream.close()
    except OSError:
        pass


@atexit.register
def _kill_leftovers() -> None:
    for process in list(_LIVE):
        process._signal_all(signal.SIGKILL)
    if procs.Adoption.current is None:
        return
    tracked: dict[int, str] = {}
    deadline = time.monotonic() + EXIT_GRACE
    while True:  # everything adopted, with its descendants: no server is left to tell them apart
        table = procs.process_table()
        adopted = procs.Adoption.orphans(table, ())
        for pid in set(adopted) | procs.descendants_in(table, adopted):
            tracked.setdefault(pid, table[pid][19])
        alive = [pid for pid, started in tracked.items()
                 if pid in table and table[pid][19] == started and table[pid][0] not in "ZX"]
        procs.reap(tracked)
        if not alive or time.monotonic() >= deadline:
            break
        procs.kill(alive, signal.SIGKILL)
        time.sleep(0.02)
    procs.Adoption.end()
