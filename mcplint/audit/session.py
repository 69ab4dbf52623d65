"""A minimal MCP client over either transport, recording everything it sends and sees.

``Session`` keeps what both transports share: request ids (integers from 1, never
reused), the era and negotiated version, the per-request ``_meta`` of the stateless
2026-07-28 protocol and the audit's overall time limit. ``HttpSession`` (here) and
``StdioSession`` (``stdio_session.py``) move the bytes.

The client declares no capabilities. If the server sends it a request anyway, a
``ping`` is answered with ``{}`` (both sides must answer pings) and anything else
with -32601, so a server waiting on us never hangs the audit.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass, field
from typing import Any

from mcplint import __version__, progress
from mcplint.audit.http import HttpClient, HttpReply
from mcplint.audit.server_text import printable, quoted
from mcplint.audit.stdio import ServerError
from mcplint.regex_cache import regex

CLIENT_INFO = {"name": "mcplint", "version": __version__}
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META_CLIENT = "io.modelcontextprotocol/clientInfo"
# The whole audit ends after this many --timeout periods, however the server spaces its answers:
# ~100 bounded requests each answered just before its deadline would otherwise take 100 timeouts.
AUDIT_TIMEOUTS = 30
_HEADER_SAFE = regex(r"^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$")


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

    @property
    def heard(self) -> bool:
        """Whether the server has answered anything at all yet (stdio: a byte on stdout; HTTP: a response)."""
        return False  # pragma: no cover - abstract

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


class HttpSession(Session):
    transport = "http"

    def __init__(self, client: HttpClient, recorder, timeout: float) -> None:
        super().__init__(recorder, timeout)
        self.client = client
        self.session_id: str | None = None
        self.redirect: str | None = None  # the first 3xx seen, described for the user

    @property
    def heard(self) -> bool:
        return self.client.responses > 0

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
             first_event_only: bool = False, **_ignored) -> Reply:
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
        progress.request(message.get("method") if isinstance(message, dict) else None,
                         message.get("params") if isinstance(message, dict) else None)
        try:
            http_reply = self.client.exchange(
                method, message, raw=raw, timeout=timeout or self.timeout, headers=sent_headers, omit=omit,
                until=(lambda m: _is_response(m, request_id)) if request_id is not None else None,
                read_bound=read_bound, probe=probe, send_credentials=send_credentials,
                first_event_only=first_event_only, **options,
            )
        except TimeoutError:
            return Reply(timed_out=True)
        finally:
            progress.answered()
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
    # surrogatepass: a lone surrogate in a server's tool name must not crash the request
    return "=?base64?" + base64.b64encode(value.encode("utf-8", "surrogatepass")).decode("ascii") + "?="
