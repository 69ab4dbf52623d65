"""A minimal MCP client over either transport, recording everything it sends and sees.

``Session`` keeps what both transports share: request ids (integers from 1, never
reused), the era and negotiated version, and the per-request ``_meta`` of the
stateless 2026-07-28 protocol. ``StdioSession`` and ``HttpSession`` move the bytes.

The client declares no capabilities. If the server sends it a request anyway, a
``ping`` is answered with ``{}`` (both sides must answer pings) and anything else
with -32601, so a server waiting on us never hangs the audit.
"""

from __future__ import annotations

import base64
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from mcplint import __version__
from mcplint.audit.http import HttpClient, HttpReply
from mcplint.audit.stdio import ServerError, StdioProcess, printable, quoted

CLIENT_INFO = {"name": "mcplint", "version": __version__}
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META_CLIENT = "io.modelcontextprotocol/clientInfo"
KEEP_PER_EXCHANGE = 100  # other messages recorded while awaiting one answer; the rest are counted
MAX_LINES_PER_EXCHANGE = 10_000  # lines read while awaiting one answer before the audit gives up
MAX_BYTES_PER_EXCHANGE = 32 * 1024 * 1024
MAX_LINES_PER_AUDIT = 100_000  # read from a stdio server's stdout over the whole audit
MAX_BYTES_PER_AUDIT = 256 * 1024 * 1024
MAX_STRAY = 1000
# The whole audit ends after this many --timeout periods, however the server spaces its answers:
# ~100 bounded requests each answered just before its deadline would otherwise take 100 timeouts.
AUDIT_TIMEOUTS = 30
_HEADER_SAFE = re.compile(r"^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$")


@dataclass
class Reply:
    """What came back for one request: the response (None when none arrived in time)
    and, over HTTP, the status and headers."""

    message: dict | None = None
    timed_out: bool = False
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    others: list[Any] = field(default_factory=list)  # other messages seen meanwhile
    http: HttpReply | None = None

    @property
    def error(self) -> dict | None:
        error = self.message.get("error") if isinstance(self.message, dict) else None
        return error if isinstance(error, dict) else None

    @property
    def result(self) -> Any:
        return self.message.get("result") if isinstance(self.message, dict) else None

    @property
    def ok(self) -> bool:
        return isinstance(self.message, dict) and "result" in self.message and "error" not in self.message

    def header(self, name: str) -> str | None:
        return self.http.header(name) if self.http is not None else None

    def describe(self) -> str:
        """A short account for the probe log: "-32601 Method not found", "result", "HTTP 405"."""
        parts = []
        if self.status is not None:
            parts.append(f"HTTP {self.status}")
        stray = next((m["error"] for m in self.others if isinstance(m, dict) and isinstance(m.get("error"), dict)), None)
        if self.error is not None:
            parts.append(f"error {quoted(self.error.get('code'))}")
        elif self.message is None and stray is not None:
            parts.append(f"error {quoted(stray.get('code'))}")
        elif isinstance(self.message, dict) and "result" in self.message:
            parts.append("isError result" if isinstance(self.result, dict) and self.result.get("isError") is True else "result")
        elif self.message is not None:
            parts.append("a body that is not a JSON-RPC response")
        elif self.timed_out:
            parts.append("no answer in time")
        elif self.status is None:
            parts.append("no answer")
        return ", ".join(parts)


class Session:
    transport = ""

    def __init__(self, recorder, timeout: float) -> None:
        self.recorder = recorder
        self.timeout = timeout
        self.ends_at = time.monotonic() + AUDIT_TIMEOUTS * timeout
        self.era: str | None = None  # "handshake" | "modern"
        self.version: str | None = None
        self._last_id = 0

    def next_id(self) -> int:
        self._last_id += 1
        return self._last_id

    def params_with_meta(self, params: dict | None, version: str | None = None) -> dict | None:
        """In the stateless era every request carries its version and capabilities."""
        if self.era != "modern" and version is None:
            return params
        params = dict(params or {})
        meta = dict(params.get("_meta") or {})
        meta.setdefault(META_VERSION, version or self.version)
        meta.setdefault(META_CAPABILITIES, {})
        meta.setdefault(META_CLIENT, CLIENT_INFO)
        params["_meta"] = meta
        return params

    def message(self, method: str, params: dict | None = None, *, request: bool = True,
                version: str | None = None) -> dict:
        message: dict[str, Any] = {"jsonrpc": "2.0"}
        if request:
            message["id"] = self.next_id()
        message["method"] = method
        params = self.params_with_meta(params, version)
        if params is not None:
            message["params"] = params
        return message

    def request(self, method: str, params: dict | None = None, **options) -> Reply:
        return self.send(self.message(method, params, version=options.pop("version", None)), **options)

    def notify(self, method: str, params: dict | None = None, **options) -> Reply:
        return self.send(self.message(method, params, request=False), **options)

    def send(self, message: Any, **options) -> Reply:  # pragma: no cover - abstract
        raise NotImplementedError

    def within_audit(self, timeout: float | None) -> float:
        """An exchange's timeout, cut to what is left of the audit's overall time."""
        left = self.ends_at - time.monotonic()
        if left <= 0:
            raise ServerError(f"the audit ran past its overall limit of {AUDIT_TIMEOUTS * self.timeout:g} s "
                              f"({AUDIT_TIMEOUTS} x --timeout); the server answers too slowly to be audited whole")
        return min(timeout or self.timeout, left)

    def close(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _answer_server_request(self, message: dict) -> dict:
        if message.get("method") == "ping":
            return {"jsonrpc": "2.0", "id": message.get("id"), "result": {}}
        return {"jsonrpc": "2.0", "id": message.get("id"),
                "error": {"code": -32601, "message": "mcplint's audit client does not handle this request"}}


def _is_response(message: Any, request_id: Any) -> bool:
    return (isinstance(message, dict) and "method" not in message
            and ("result" in message or "error" in message) and message.get("id") == request_id
            and type(message.get("id")) is type(request_id))


def _is_server_request(message: Any) -> bool:
    return isinstance(message, dict) and isinstance(message.get("method"), str) and "id" in message


class StdioSession(Session):
    """Bounded reading: each wait for an answer has one deadline that other messages do not
    reset; while waiting, only the first ``KEEP_PER_EXCHANGE`` other messages are recorded and
    kept (the rest are counted in ``dropped``), and a flood of lines or bytes ends the audit."""

    transport = "stdio"

    def __init__(self, process: StdioProcess, recorder, timeout: float, label: str) -> None:
        super().__init__(recorder, timeout)
        self.process = process
        self.label = label
        self.stray: list[Any] = []  # messages that answered nothing we were waiting for (bounded)
        self.dropped = 0  # messages read but neither recorded nor kept (beyond the per-exchange share)
        self.lines_read = 0

    def send(self, message: Any = None, *, raw: str | None = None, probe: str | None = None,
             timeout: float | None = None, wait: bool = True, **_ignored) -> Reply:
        timeout = self.within_audit(timeout)
        text = raw if raw is not None else json.dumps(message, ensure_ascii=False)
        self.recorder.client(None if raw is not None else message, raw=raw, probe=probe)
        self._write(text, timeout or self.timeout)
        request_id = message.get("id") if isinstance(message, dict) and "method" in message else None
        if request_id is None or not wait:
            return Reply()
        return self.await_response(request_id, timeout or self.timeout, message.get("method"))

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
            if not self._keep(message, budget):
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
            if message is not _BLANK and self._keep(message, budget):
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

    def _keep(self, message: Any, budget: "_Budget") -> bool:
        """Record and keep a message that is not the awaited answer, up to the exchange's share."""
        if budget.kept >= KEEP_PER_EXCHANGE:
            self.dropped += 1
            return False
        budget.kept += 1
        self.recorder.server(message)
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
            return json.loads(text, parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            shown = text if len(text) <= 120 else text[:117] + "..."
            raise ServerError(self._with_stderr(
                f"the server wrote something that is not JSON-RPC to standard output: {shown!r}"
            )) from None

    def fail(self, what: str) -> None:
        status = self.process.exit_status(0.5)
        if status is not None:
            code = f" with status {status}" if status >= 0 else f" on signal {-status}"
            raise ServerError(self._with_stderr(f"the server exited{code} during the audit"))
        if what == "exited":
            what = "closed its standard output"
        raise ServerError(self._with_stderr(f"the server {what}"))

    def stopped_answering(self, what: str) -> ServerError:
        return ServerError(self._with_stderr(f"the server stopped answering: no answer to {what} within {self.timeout:g} s"))

    def _with_stderr(self, message: str) -> str:
        """One line: the tail is neutralized (a newline in it could start a CI workflow command)."""
        tail = self.process.stderr_tail()
        if not tail:
            return message
        return f"{message}; its stderr ends with: {tail}"

    def close(self) -> None:
        self.process.close()


@dataclass
class _Budget:
    what: str
    lines: int = 0
    bytes: int = 0
    kept: int = 0


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB" if size < 1024 * 1024 * 1024 else f"{size / 1024 ** 3:.1f} GiB"


class HttpSession(Session):
    transport = "http"

    def __init__(self, client: HttpClient, recorder, timeout: float) -> None:
        super().__init__(recorder, timeout)
        self.client = client
        self.session_id: str | None = None
        self.redirect: str | None = None  # the first 3xx seen, described for the user

    def headers_for(self, message: Any, version: str | None = None) -> dict[str, str]:
        headers: dict[str, str] = {}
        if self.session_id is not None:
            headers["Mcp-Session-Id"] = self.session_id
        if self.era == "modern" or version is not None:
            headers["MCP-Protocol-Version"] = version or self.version or ""
            if isinstance(message, dict) and isinstance(message.get("method"), str):
                headers["Mcp-Method"] = message["method"]
                name = _mcp_name(message)
                if name is not None:
                    headers["Mcp-Name"] = name
        elif self.version is not None:
            headers["MCP-Protocol-Version"] = self.version
        return headers

    def send(self, message: Any = None, *, raw: str | None = None, probe: str | None = None,
             timeout: float | None = None, headers: dict[str, str] | None = None,
             omit: frozenset[str] = frozenset(), send_credentials: bool = True,
             method: str = "POST", accept: str | None = None, read_bound: float | None = None,
             **_ignored) -> Reply:
        timeout = self.within_audit(timeout)
        version = None
        if isinstance(message, dict):
            meta = (message.get("params") or {}).get("_meta") if isinstance(message.get("params"), dict) else None
            version = meta.get(META_VERSION) if isinstance(meta, dict) and self.era != "handshake" else None
        sent_headers = {**self.headers_for(message, version), **(headers or {})}
        request_id = message.get("id") if isinstance(message, dict) and "method" in message else None
        options = {}
        if accept is not None:
            options["accept"] = accept
        try:
            http_reply = self.client.exchange(
                method, message, raw=raw, timeout=timeout or self.timeout, headers=sent_headers, omit=omit,
                until=(lambda m: _is_response(m, request_id)) if request_id is not None else None,
                read_bound=read_bound, probe=probe, send_credentials=send_credentials, **options,
            )
        except TimeoutError:
            return Reply(timed_out=True)
        reply = Reply(status=http_reply.status, headers=http_reply.headers, http=http_reply)
        if 300 <= http_reply.status < 400 and self.redirect is None:
            what = message.get("method") if isinstance(message, dict) else method
            location = printable(http_reply.header("location") or "(no Location)")[:500]
            self.redirect = (f"the server redirected {what} to {location}"
                             f" (HTTP {http_reply.status}); mcplint does not follow redirects")
        for message_in in http_reply.messages:
            if request_id is not None and _is_response(message_in, request_id):
                reply.message = message_in
            else:
                reply.others.append(message_in)
        if reply.message is None and request_id is not None and len(http_reply.messages) == 1:
            only = http_reply.messages[0]
            if isinstance(only, dict) and isinstance(only.get("error"), dict) and only.get("id") is None:
                reply.message = only  # a transport-level error without an id answers this request
        reply.timed_out = reply.message is None and request_id is not None and http_reply.cut_short
        return reply

    def close(self) -> None:
        self.client.close()


def _mcp_name(message: dict) -> str | None:
    """The Mcp-Name header value for tools/call, prompts/get and resources/read (HTTP-25)."""
    if message.get("method") not in ("tools/call", "prompts/get", "resources/read"):
        return None
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    value = params.get("uri" if message["method"] == "resources/read" else "name")
    if not isinstance(value, str):
        return None
    if _HEADER_SAFE.match(value) and not value.startswith("=?base64?"):
        return value
    return "=?base64?" + base64.b64encode(value.encode("utf-8")).decode("ascii") + "?="


_BLANK = object()


def _reject_constant(name: str):
    raise ValueError(name)
