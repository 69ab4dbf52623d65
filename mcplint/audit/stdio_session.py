"""The audit's stdio session: newline-delimited JSON-RPC with a server process, read under
bounds (see StdioSession)."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Any, Callable

from mcplint import progress
from mcplint.audit.session import Reply, Session, _is_response, _is_server_request
from mcplint.audit.server_text import printable, wire_text
from mcplint.audit.stdio import TOO_MANY_VALUES, ServerError, StdioProcess
from mcplint.document.value_count import holds_too_many
from mcplint.regex_cache import regex

KEEP_PER_EXCHANGE = 100  # other messages recorded while awaiting one answer; the rest are counted
MAX_LINES_PER_EXCHANGE = 10_000  # lines read while awaiting one answer before the audit gives up
MAX_BYTES_PER_EXCHANGE = 32 * 1024 * 1024
MAX_LINES_PER_AUDIT = 100_000  # read from a stdio server's stdout over the whole audit
MAX_BYTES_PER_AUDIT = 256 * 1024 * 1024
MAX_STRAY = 1000
MAX_KEPT_OTHER = 256 * 1024  # bytes of a message other than the answer that is kept, not only recorded
# Starts of a server that exited on a probe (an unknown method, a malformed line): the audit goes
# on with the next probe, and MCP645 reports each exit. Bounded: each start costs the server's boot.
MAX_RESTARTS = 3
# A start failure's stderr (Python's, Node's, a shell's): the server is not started again for it.
_START_FAILURE = regex(r"ModuleNotFoundError|ImportError|SyntaxError|No module named|Cannot find (?:module|package)"
                       r"|command not found|No such file or directory|ERR_MODULE_NOT_FOUND|EADDRINUSE", re.I)
# Lines that are not JSON on a stdio server's stdout (a banner, a print): each is recorded (MCP617
# reports them) and skipped, as most clients do; past this many the audit stops, since the channel
# is carrying something other than the protocol.
MAX_NOISE_LINES = 20
MAX_NOISE_CHARS = 2000  # of each such line, kept in the transcript


class StdioSession(Session):
    """Bounded reading: each wait for an answer has one deadline that other messages do not
    reset; while waiting, only the first ``KEEP_PER_EXCHANGE`` other messages are recorded and
    kept (the rest are counted in ``dropped``), and a flood of lines or bytes ends the audit."""

    transport = "stdio"

    def __init__(self, process: StdioProcess, recorder, timeout: float, label: str,
                 start: Callable[[], StdioProcess] | None = None) -> None:
        super().__init__(recorder, timeout)
        self.process = process
        self._start = start  # starts the same server again (``restart``)
        self.exited: int | None = None  # the server's exit status, once it exited mid-audit
        self.restarts = 0
        self.spoke = False  # a JSON line came from the server (any of its starts)
        self.label = label
        self.stray: list[Any] = []  # messages that answered nothing we were waiting for (bounded)
        self.dropped = 0  # messages read but neither recorded nor kept (beyond the per-exchange share)
        self.lines_read = 0
        self.noise: list[str] = []  # the lines that were not JSON (at most MAX_NOISE_LINES)
        # The first probe sent since the server last wrote a line: the one to name if it dies
        # (grafana's server exits on the malformed-JSON line; its error read like mcplint's own).
        self.unanswered_probe: str | None = None

    def send(self, message: Any = None, *, raw: str | None = None, probe: str | None = None,
             timeout: float | None = None, wait: bool = True, **_ignored) -> Reply:
        timeout = self.within_audit(timeout)
        text = raw if raw is not None else wire_text(message)
        self.recorder.client(None if raw is not None else message, raw=raw, probe=probe)
        if self.unanswered_probe is None and probe not in (None, "sync"):
            self.unanswered_probe = probe
        self._write(text, timeout or self.timeout)
        request_id = message.get("id") if isinstance(message, dict) and "method" in message else None
        if request_id is None or not wait:
            return Reply()
        progress.request(message.get("method"), message.get("params"))
        try:
            return self.await_response(request_id, timeout or self.timeout, message.get("method"))
        finally:
            progress.answered()

    @property
    def heard(self) -> bool:
        return self.process.bytes_read > 0

    def await_response(self, request_id: Any, timeout: float, what: str | None = None) -> Reply:
        deadline = time.monotonic() + timeout
        reply = Reply()
        budget = _Budget(f"the answer to {what}" if what else "an answer")
        while True:
            try:
                line = self._read(deadline, budget)
            except TimeoutError:
                reply.timed_out = True
                return reply
            if line is None:
                self.fail("exited")
            message = self._parse_line(line)
            if message is _BLANK:
                continue
            if _is_response(message, request_id):
                self.recorder.server(message)
                reply.message = message
                return reply
            if not self._keep(message, budget, len(line)):
                continue
            reply.others.append(message)
            if _is_server_request(message):
                answer = self._answer_server_request(message)
                self.recorder.client(answer)
                self._write(json.dumps(answer), max(deadline - time.monotonic(), 0.5))

    def drain(self, seconds: float, until_response: bool = False) -> list[Any]:
        """Read whatever arrives within ``seconds`` (late answers to a probe); with
        ``until_response``, stop at the first response."""
        deadline = time.monotonic() + seconds
        budget = _Budget("late answers")
        seen = []
        while not (until_response and any(isinstance(m, dict) and "method" not in m for m in seen)):
            try:
                line = self._read(deadline, budget)
            except TimeoutError:
                return seen
            if line is None:
                return seen
            message = self._parse_line(line)
            if message is not _BLANK and self._keep(message, budget, len(line)):
                seen.append(message)
        return seen

    def _read(self, deadline: float, budget: "_Budget") -> bytes | None:
        """The next line, within the exchange's deadline and its share of lines and bytes."""
        if time.monotonic() >= deadline:
            raise TimeoutError  # a flood must not keep an exchange alive
        line = self.process.read_line(deadline)
        if line is None:
            return None
        budget.lines += 1
        budget.bytes += len(line)
        self.lines_read += 1
        self.unanswered_probe = None
        if budget.lines > MAX_LINES_PER_EXCHANGE or budget.bytes > MAX_BYTES_PER_EXCHANGE:
            raise ServerError(self._with_stderr(
                f"the server flooded its standard output: more than {budget.lines - 1} lines "
                f"({_mib(budget.bytes)}) while mcplint waited for {budget.what}; mcplint stopped reading "
                f"(the transcript keeps the first {KEEP_PER_EXCHANGE})"))
        if self.process.bytes_read > MAX_BYTES_PER_AUDIT or self.lines_read > MAX_LINES_PER_AUDIT:
            raise ServerError(self._with_stderr(
                f"the server flooded its standard output: more than {MAX_LINES_PER_AUDIT} lines or "
                f"{_mib(MAX_BYTES_PER_AUDIT)} in this audit; mcplint stopped reading"))
        return line

    def _keep(self, message: Any, budget: "_Budget", size: int = 0) -> bool:
        """Record and keep a message that is not the awaited answer, up to the exchange's share;
        one of more than ``MAX_KEPT_OTHER`` bytes is recorded but not kept (seven 4 MiB lines of
        `{}` before each answer held 750 MB)."""
        if budget.kept >= KEEP_PER_EXCHANGE:
            self.dropped += 1
            return False
        budget.kept += 1
        self.recorder.server(message)
        if size > MAX_KEPT_OTHER:
            return False
        if isinstance(message, dict) and "method" not in message and len(self.stray) < MAX_STRAY:
            self.stray.append(message)
        return True

    def _write(self, text: str, timeout: float) -> None:
        try:
            self.process.write_line(text, time.monotonic() + timeout)
        except EOFError:
            self.fail("stopped reading its standard input")
        except TimeoutError:
            raise ServerError(self._with_stderr(
                f"the server stopped reading its standard input (a write waited {timeout:g} s)")) from None

    def _parse_line(self, line: bytes) -> Any:
        text = line.decode("utf-8", errors="replace").rstrip("\r\n")
        if not text.strip():
            return _BLANK
        try:
            message = json.loads(text, parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            pass
        else:
            self.spoke = True
            if holds_too_many(text, message):
                raise ServerError(self._with_stderr(TOO_MANY_VALUES))
            return message
        if len(self.noise) >= MAX_NOISE_LINES:
            first = self.noise[0]
            shown = first if len(first) <= 120 else first[:117] + "..."
            raise ServerError(self._with_stderr(
                f"the server wrote more than {MAX_NOISE_LINES} lines that are not JSON-RPC to standard output "
                f"(the first: {shown!r}); mcplint stopped reading", stdout=False))
        kept = text if len(text) <= MAX_NOISE_CHARS else text[:MAX_NOISE_CHARS] + "..."
        self.noise.append(kept)
        self.recorder.server(None, raw=kept)
        return _BLANK

    def fail(self, what: str) -> None:
        status = self.process.exit_status(0.5)
        if status is not None:
            self.exited = status
            self.recorder.server(None, exit=status)  # MCP645 reports what it left unanswered
            code = f" with status {status}" if status >= 0 else f" on signal {-status}"
            # a server that never wrote a byte failed to start: no probe is to blame
            probe = self.unanswered_probe if self.process.bytes_read else None
            after = f" after the audit's {probe} probe" if probe else ""
            raise ServerError(self._with_stderr(f"the server exited{code}{after}, before mcplint was done with it"
                                                if after else f"the server exited{code} before mcplint was done with it"))
        if what == "exited":
            what = "closed its standard output"
        raise ServerError(self._with_stderr(f"the server {what}"))

    def stopped_answering(self, what: str) -> ServerError:
        return ServerError(self._with_stderr(f"the server stopped answering: no answer to {what} within {self.timeout:g} s"))

    def answered_nothing(self, message: str) -> ServerError:
        """The server never said a word: no shutdown worth waiting to observe (SIGTERM at once)."""
        self.process.exit_grace = 0
        return ServerError(self._with_stderr(message))

    def _with_stderr(self, message: str, stdout: bool = True) -> str:
        """One line: what the server's stderr says went wrong (its exception's line, not a whole
        traceback), neutralized (a newline in it could start a CI workflow command)."""
        gist = self.process.stderr_gist()
        if gist:
            return f"{message}; its stderr says: {gist}"
        if stdout and self.noise:  # a usage text printed to stdout ("USAGE  mcp start ...": launchdarkly)
            lines = dict.fromkeys(" ".join(line.split()) for line in self.noise)  # once, if it was restarted
            said = " / ".join(line for line in list(lines)[:6] if line)
            said = printable(said if len(said) <= 300 else said[:297] + "...")
            return f"{message}; its standard output says: {said}"
        return message

    def restart(self) -> bool:
        """Start the server again after it exited (the caller decides when); False when this
        session cannot (no way to start another, or MAX_RESTARTS used)."""
        if self._start is None or self.restarts >= MAX_RESTARTS:
            return False
        if not self.spoke and (self.restarts or _START_FAILURE.search(self.process.stderr_gist())):
            return False  # it cannot start (a missing module, a second exit before a word): no third try
        self.process.close()
        progress.stage("starting the server again")
        self.process = self._start()
        self.restarts += 1
        self.exited, self.unanswered_probe = None, None
        return True

    def close(self) -> None:
        progress.stage("stopping the server")
        self.process.close()


@dataclass
class _Budget:
    what: str
    lines: int = 0
    bytes: int = 0
    kept: int = 0


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB" if size < 1024 * 1024 * 1024 else f"{size / 1024 ** 3:.1f} GiB"

_BLANK = object()


def _reject_constant(name: str):
    raise ValueError(name)
