"""The stdio transport: a child process speaking newline-delimited JSON-RPC.

The server runs in a new session (so a new process group): Ctrl-C in the terminal
reaches mcplint only, and shutting down can signal the server *and everything it
started* (``npx`` and ``uv run`` start the real server as a grandchild). Shutdown
follows the spec (LIFE-09): close stdin, wait, SIGTERM, wait, SIGKILL, always to the
whole group, and also when the audit ends with an exception or an interrupt; an
``atexit`` hook catches anything that still slips through.

Two daemon threads read stdout (whole lines, into a queue) and stderr (the last
64 KiB, shown when the server fails). Every read from the queue has a deadline.
"""

from __future__ import annotations

import atexit
import os
import queue
import signal
import subprocess
import threading
import time
import weakref

from mcplint.errors import MCPLintError

STDERR_TAIL = 64 * 1024
MAX_LINE = 64 * 1024 * 1024  # a longer stdout line is garbage, not a message
EXIT_GRACE = 1.0  # seconds between closing stdin, SIGTERM and SIGKILL

_LIVE: "weakref.WeakSet[StdioProcess]" = weakref.WeakSet()


class ServerError(MCPLintError):
    """The server could not be started, crashed, stopped answering or wrote garbage."""


class StdioProcess:
    def __init__(self, argv: list[str], env: dict[str, str] | None = None, cwd: str | None = None) -> None:
        self.argv = argv
        self._lines: "queue.Queue[bytes | None]" = queue.Queue()
        self._stderr = bytearray()
        self._stderr_lock = threading.Lock()
        full_env = {**os.environ, **(env or {})}
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=full_env, cwd=cwd, start_new_session=True,
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
        _LIVE.add(self)
        self._pgid = self.proc.pid  # start_new_session: the child leads its own group
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    # -- reading -------------------------------------------------------------
    def _read_stdout(self) -> None:
        stream = self.proc.stdout
        try:
            while True:
                line = stream.readline(MAX_LINE)
                if not line:
                    break
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)  # end of stream

    def _read_stderr(self) -> None:
        stream = self.proc.stderr
        try:
            while chunk := stream.read1(65536):
                with self._stderr_lock:
                    self._stderr += chunk
                    if len(self._stderr) > STDERR_TAIL:
                        del self._stderr[: len(self._stderr) - STDERR_TAIL]
        except (OSError, ValueError):
            pass

    def read_line(self, deadline: float) -> bytes | None:
        """The next stdout line; None at end of stream; TimeoutError after ``deadline``."""
        remaining = deadline - time.monotonic()
        try:
            line = self._lines.get(timeout=max(remaining, 0)) if remaining > 0 else self._lines.get_nowait()
        except queue.Empty:
            raise TimeoutError from None
        if line is None:
            self._lines.put(None)  # stay at end of stream for later readers
        return line

    def stderr_tail(self, limit: int = 2000) -> str:
        """The end of what the server wrote to stderr, for error messages."""
        with self._stderr_lock:
            text = bytes(self._stderr[-limit:]).decode("utf-8", errors="replace")
        return text.strip()

    # -- writing -------------------------------------------------------------
    def write_line(self, text: str) -> None:
        try:
            self.proc.stdin.write(text.encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
            raise EOFError from None

    # -- state ---------------------------------------------------------------
    def exit_status(self, wait: float = 0.0) -> int | None:
        try:
            return self.proc.wait(timeout=wait) if wait > 0 else self.proc.poll()
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        """Close stdin, wait, SIGTERM the group, wait, SIGKILL the group. Never raises."""
        _LIVE.discard(self)
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        exited = self.exit_status(EXIT_GRACE) is not None
        self._signal_group(signal.SIGTERM)  # also after a clean exit: children may linger
        if not exited:
            exited = self.exit_status(EXIT_GRACE) is not None
        deadline = time.monotonic() + (EXIT_GRACE if exited else 0)
        while self._group_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        if self._group_alive() or not exited:
            self._signal_group(signal.SIGKILL)
            self.exit_status(EXIT_GRACE)
        for stream in (self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

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


@atexit.register
def _kill_leftovers() -> None:
    for process in list(_LIVE):
        process._signal_group(signal.SIGKILL)
