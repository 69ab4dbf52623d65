"""The Streamable HTTP transport: POST/GET/DELETE to one endpoint, stdlib only.

Safety properties, by construction:

- Only the endpoint's origin is ever contacted: the connection is opened to the
  URL's host and port, no environment proxy is used, and redirects are never
  followed (a 3xx is recorded and returned to the caller, which reports it).
- Credentials (the user's ``--header`` values) go only to that origin, and every
  request is recorded with them redacted.
- Every exchange has one overall deadline (connect, request, headers and body): a
  watchdog shuts the socket down when it passes, so a server that drips its headers
  or chunk sizes a byte at a time cannot stretch a per-read timeout forever.
- Reads are bounded in size: a body over ``MAX_BODY``, an event stream over
  ``MAX_EVENTS`` events or ``MAX_STREAM`` bytes, or one event over
  ``sse.MAX_EVENT``, ends the audit with a clear message (what was read so far is
  recorded). Header lines and counts are bounded by http.client (64 KiB, 100).

Responses may be ``application/json`` (one message, or an array for a batch) or
``text/event-stream`` (each SSE event with data is one message). The recorder gets
one server line per message, or one line with ``"message": null`` when the response
has no JSON-RPC body. Headers are recorded exactly as sent: http.client is told not
to add its own, and this module writes Host, Content-Length and the rest itself.
"""

from __future__ import annotations

import http.client
import json
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import urlsplit

from mcplint.audit.sse import MAX_EVENT, EventTooLarge, SSEParser
from mcplint.audit.server_text import printable, wire_text
from mcplint.audit.stdio import TOO_MANY_VALUES, ServerError
from mcplint.document.value_count import holds_too_many

MAX_BODY = 16 * 1024 * 1024
MAX_EVENTS = 1000  # SSE events in one response
MAX_STREAM = 32 * 1024 * 1024  # bytes of one SSE response
WATCHDOG_GRACE = 0.25  # the reads' own timeouts end a well-behaved late answer first
RAW_LIMIT = 4096  # non-JSON bodies are kept (shortened) in the transcript's "raw" key
MAX_KEPT_OTHER = 16 * 1024  # bytes of an event other than the answer that is kept, not only recorded
KEEP_OTHERS = 100  # events other than the answer kept per response (all are recorded)
ACCEPT_BOTH = "application/json, text/event-stream"


@dataclass
class HttpReply:
    status: int
    headers: dict[str, str]
    messages: list[Any] = field(default_factory=list)  # parsed JSON-RPC messages, in order
    body: str = ""  # a non-JSON body, shortened
    content_type: str = ""
    cut_short: bool = False  # the read stopped at the deadline or the bound, not at the end
    first_event: str | None = None  # the SSE event type of a stream's first event

    def header(self, name: str) -> str | None:
        name = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == name), None)

    def response(self, request_id: Any) -> dict | None:
        """The JSON-RPC response with this id among the messages, if any."""
        for message in self.messages:
            if isinstance(message, dict) and ("result" in message or "error" in message) and message.get("id") == request_id:
                return message
        return None


class HttpClient:
    def __init__(self, url: str, user_headers: dict[str, str], recorder, user_agent: str) -> None:
        parts = urlsplit(url)
        self.url = url
        self.https = parts.scheme == "https"
        self.host = parts.hostname or ""
        self.port = parts.port if parts.port is not None else (443 if self.https else 80)  # never 0 -> 80
        self.path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        default_port = parts.port is None or parts.port == (443 if self.https else 80)
        host = f"[{self.host}]" if ":" in self.host else self.host
        self.host_header = host if default_port else f"{host}:{self.port}"
        self.user_headers = dict(user_headers)
        self.recorder = recorder
        self.user_agent = user_agent
        self._conn: http.client.HTTPConnection | None = None
        self._connecting: http.client.HTTPConnection | None = None
        self._watchdog: _Watchdog | None = None
        self._sock: socket.socket | None = None  # the exchange's socket (a response may outlive conn.sock)
        self._used = False  # the open connection has served a request (a retry is safe once)
        self.responses = 0  # responses whose status line arrived: has the server answered anything at all?

    # -- the one entry point ---------------------------------------------------
    def exchange(self, method: str, message: Any = None, *, raw: str | None = None, timeout: float,
                 headers: dict[str, str] | None = None, omit: frozenset[str] = frozenset(),
                 accept: str = ACCEPT_BOTH, until: Callable[[Any], bool] | None = None,
                 read_bound: float | None = None, probe: str | None = None,
                 send_credentials: bool = True, first_event_only: bool = False) -> HttpReply:
        """Send one request and read its response.

        ``until(message)`` ends an SSE read early once it returns true (the awaited
        response arrived); ``read_bound`` caps how long a stream is read (the GET probe);
        ``first_event_only`` ends it after the first event, whatever it holds.
        ``omit`` drops headers by lower-case name; ``send_credentials=False`` drops the
        user's --header values (the no-credentials probe)."""
        body = None
        if raw is not None:
            body = raw.encode("utf-8")
        elif message is not None:
            body = wire_text(message).encode("utf-8")
        sent = self._headers(method, body, accept, headers or {}, omit, send_credentials)
        self.recorder.client(message, {"method": method, "url": self.url, "headers": sent}, raw=raw, probe=probe)
        deadline = time.monotonic() + timeout
        self._watchdog = watchdog = _Watchdog(self, deadline + WATCHDOG_GRACE)
        try:
            try:
                response, sock = self._send(method, body, sent, deadline)
            except ServerError:
                if watchdog.fired:
                    raise TimeoutError from None  # the deadline cut the connection, not the server
                raise
            if watchdog.fired:
                raise TimeoutError  # headers dripped past the deadline
            try:
                return self._read(response, sock, deadline, until, read_bound, first_event_only)
            finally:
                if response.will_close or not response.isclosed():
                    response.close()
                    self.close()  # a stream left half-read cannot carry the next request
        finally:
            if watchdog.stop():
                self.close()
            self._watchdog = self._sock = None

    def _socket(self) -> socket.socket | None:
        """The socket of the exchange in progress (also while connecting), for the watchdog."""
        if self._sock is not None:
            return self._sock
        conn = self._connecting
        return conn.sock if conn is not None else None

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except OSError:
                pass
            self._conn = None
            self._used = False

    # -- request ---------------------------------------------------------------
    def _headers(self, method, body, accept, extra, omit, send_credentials) -> dict[str, str]:
        headers = {"Host": self.host_header, "User-Agent": self.user_agent, "Accept": accept}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if send_credentials:
            headers.update(self.user_headers)
        headers.update(extra)
        headers = {k: v for k, v in headers.items() if k.lower() not in omit}
        if body is not None:
            headers["Content-Length"] = str(len(body))
        return headers

    def _connect(self, deadline: float) -> http.client.HTTPConnection:
        timeout = max(deadline - time.monotonic(), 0.05)
        if self.https:
            conn = http.client.HTTPSConnection(self.host, self.port, timeout=timeout,
                                               context=ssl.create_default_context())
        else:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        self._connecting = conn
        try:
            conn.connect()
        except Exception as err:
            conn.close()
            if self._watchdog is not None and self._watchdog.fired:
                raise TimeoutError from None
            raise self._connect_error(err) from None
        finally:
            self._connecting = None
        return conn

    def _send(self, method, body, headers, deadline) -> tuple[http.client.HTTPResponse, socket.socket]:
        for attempt in (1, 2):
            if self._conn is None:
                self._conn = self._connect(deadline)
            reused = self._used
            conn = self._conn
            sock = conn.sock  # kept: http.client drops it from the connection on "Connection: close"
            self._sock = sock
            try:
                sock.settimeout(max(deadline - time.monotonic(), 0.05))
                conn.putrequest(method, self.path, skip_host=True, skip_accept_encoding=True)
                for name, value in headers.items():
                    conn.putheader(name, value)
                conn.endheaders(body)
                response = conn.getresponse()
                self._used = True
                self.responses += 1
                return response, sock
            except (TimeoutError, socket.timeout):
                self.close()
                raise TimeoutError from None
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as err:
                self.close()
                if reused and attempt == 1:
                    continue  # the server closed an idle keep-alive connection: one fresh try
                raise ServerError(f"{self.url}: the server closed the connection without answering ({_name(err)})") from None
            except ssl.SSLError as err:
                self.close()
                raise ServerError(f"{self.url}: TLS error: {err.reason or err}") from None
            except http.client.HTTPException as err:
                self.close()
                raise ServerError(f"{self.url}: not an HTTP response ({_name(err)}: {str(err)[:80]})") from None
            except (OSError, ValueError) as err:
                self.close()
                raise ServerError(f"{self.url}: connection failed: {getattr(err, 'strerror', None) or err}") from None
        raise AssertionError("unreachable")

    def _connect_error(self, err: Exception) -> Exception:
        where = f"{self.host}:{self.port}"
        if isinstance(err, ConnectionRefusedError):
            return ServerError(f"{self.url}: nothing is listening at {where} (connection refused)")
        if isinstance(err, socket.gaierror):
            return ServerError(f"{self.url}: cannot resolve host {self.host!r}")
        if isinstance(err, ssl.SSLCertVerificationError):
            return ServerError(f"{self.url}: TLS certificate verification failed: {err.verify_message or err.reason}")
        if isinstance(err, ssl.SSLError):
            return ServerError(f"{self.url}: TLS error: {err.reason or err}")
        if isinstance(err, (TimeoutError, socket.timeout)):
            return ServerError(f"{self.url}: connecting to {where} timed out")
        if isinstance(err, OSError):
            return ServerError(f"{self.url}: cannot connect to {where}: {err.strerror or err}")
        return ServerError(f"{self.url}: cannot connect to {where}: {err}")

    # -- response --------------------------------------------------------------
    def _bad_body(self, err: Exception) -> ServerError:
        """http.client gave up on the body's framing (a chunk-size line over 64 KiB, say)."""
        return ServerError(f"{self.url}: the response body is not valid HTTP ({_name(err)}: "
                           f"{printable(str(err))[:80]}); mcplint stopped reading it")

    def _read(self, response, sock, deadline, until, read_bound, first_event_only=False) -> HttpReply:
        headers: dict[str, str] = {}
        for name, value in response.getheaders():
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        reply = HttpReply(response.status, headers)
        reply.content_type = (reply.header("content-type") or "").split(";")[0].strip().lower()
        http_info = {"status": response.status, "headers": headers}
        stop = deadline if read_bound is None else min(deadline, time.monotonic() + read_bound)
        if reply.content_type == "text/event-stream" and 200 <= response.status < 300:
            self._read_stream(response, sock, reply, http_info, stop, until, first_event_only)
            return reply
        try:
            data = self._read_body(response, sock, stop)
        except TimeoutError:
            reply.cut_short, data = True, b""
        except _TooLarge:
            self.recorder.server(None, http_info)
            raise ServerError(f"{self.url}: the response body is larger than {_mib(MAX_BODY)}; "
                              "mcplint stopped reading it") from None
        except _BadHttp as err:
            self.recorder.server(None, http_info)
            raise self._bad_body(err.cause) from None
        if self._watchdog is not None and self._watchdog.fired:
            raise TimeoutError  # the body dripped past the deadline: what came is not the answer
        text = data.decode("utf-8", errors="replace")
        message, raw = _parse(text) if text.strip() else (None, None)
        if message is not None:
            reply.messages.append(message)
        else:
            reply.body = text[:RAW_LIMIT]
        self.recorder.server(message, http_info, raw=raw[:RAW_LIMIT] if raw else None)
        return reply

    def _read_body(self, response, sock, stop: float) -> bytes:
        chunks, size = [], 0
        while True:
            remaining = stop - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            try:
                sock.settimeout(remaining)
                chunk = response.read1(65536)
            except (TimeoutError, socket.timeout):
                raise TimeoutError from None
            except (http.client.IncompleteRead, ConnectionError, OSError, ValueError):
                break
            except http.client.HTTPException as err:  # LineTooLong in a chunk size, a bad chunk size...
                raise _BadHttp(err) from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_BODY:
                raise _TooLarge
        return b"".join(chunks)

    def _read_stream(self, response, sock, reply: HttpReply, http_info: dict, stop: float, until,
                     first_event_only: bool = False) -> None:
        parser = SSEParser()
        recorded = size = 0

        def take(events) -> bool:
            nonlocal recorded
            for event in events:
                if recorded >= MAX_EVENTS:
                    raise ServerError(f"{self.url}: the server's event stream sent more than {MAX_EVENTS} events "
                                      "in one response; mcplint stopped reading it (the transcript keeps the first "
                                      f"{MAX_EVENTS})")
                message, raw = _parse(event.data)
                awaited = until is not None and message is not None and until(message)
                # others are recorded; a big one is not kept too (1,000 events of 33 KB: 1.6 GB)
                if message is not None and (awaited or until is None or (
                        len(event.data) <= MAX_KEPT_OTHER and len(reply.messages) < KEEP_OTHERS)):
                    reply.messages.append(message)
                self.recorder.server(message, http_info, raw=raw[:RAW_LIMIT] if raw else None)
                recorded += 1
                if reply.first_event is None:
                    reply.first_event = event.event
                if awaited or first_event_only:
                    return True
            return False

        done = False
        while not done:
            remaining = stop - time.monotonic()
            if remaining <= 0:
                reply.cut_short = True
                break
            try:
                sock.settimeout(remaining)
                chunk = response.read1(65536)
            except (TimeoutError, socket.timeout):
                reply.cut_short = True
                break
            except (http.client.IncompleteRead, ConnectionError, OSError, ValueError):
                chunk = b""
            except http.client.HTTPException as err:  # LineTooLong in a chunk size, a bad chunk size...
                if recorded == 0:
                    self.recorder.server(None, http_info)
                raise self._bad_body(err) from None
            size += len(chunk)
            try:
                if not chunk:
                    take(parser.close())
                    break
                done = take(parser.feed(chunk))
            except EventTooLarge:
                raise ServerError(f"{self.url}: the server's event stream sent an event larger than "
                                  f"{_mib(MAX_EVENT)}; mcplint stopped reading it") from None
            if size > MAX_STREAM and not done:
                raise ServerError(f"{self.url}: the server's event stream sent more than {_mib(MAX_STREAM)} "
                                  "in one response; mcplint stopped reading it")
        if done or (self._watchdog is not None and self._watchdog.fired):
            reply.cut_short = True  # we stopped listening; the server may have had more
        if recorded == 0:
            self.recorder.server(None, http_info)


class _TooLarge(Exception):
    pass


class _BadHttp(Exception):
    def __init__(self, cause: Exception) -> None:
        super().__init__(str(cause))
        self.cause = cause


class _Watchdog:
    """Shuts the exchange's socket down at ``deadline``: every blocked read then returns at once."""

    def __init__(self, client: HttpClient, deadline: float) -> None:
        self.fired = False
        self._client = client
        self._done = False
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(deadline - time.monotonic(), 0), self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.fired = True
            sock = self._client._socket()
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def stop(self) -> bool:
        """Disarm; true when it fired (the connection is then unusable)."""
        with self._lock:
            self._done = True
        self._timer.cancel()
        return self.fired


def _mib(size: int) -> str:
    return f"{size // (1024 * 1024)} MiB"


def _parse(text: str) -> tuple[Any, str | None]:
    """(message, None) for JSON text; (None, text) for anything else."""
    try:
        message = json.loads(text, parse_constant=_reject)
    except (ValueError, RecursionError):
        return None, text
    if holds_too_many(text, message):
        raise ServerError(TOO_MANY_VALUES)
    return message, None


def _reject(name: str):
    raise ValueError(name)


def _name(err: Exception) -> str:
    return type(err).__name__
