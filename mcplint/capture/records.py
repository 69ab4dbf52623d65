"""One record of a capture: what one side sent, as the transcript or HAR file holds it."""

from __future__ import annotations

from typing import Any

from mcplint.document.pointer import Pointer

CLIENT, SERVER = "client", "server"


class Record:
    """(A plain class with slots: a million are built, and ``status`` and ``method``, which a
    dozen rules ask of every HTTP record, are read once here, not by a property per ask.)"""

    __slots__ = ("index", "base", "sender", "message", "http", "status", "method", "problem", "request",
                 "raw_body", "http_base", "header_pointers", "embedded", "probe", "size", "lowered", "first_of",
                 "exited")

    def __init__(self, index: int, base: Pointer, sender: str | None, message: Any, http: dict | None = None,
                 problem: tuple[Pointer, str] | None = None, request: "Record | None" = None,
                 raw_body: str | None = None, http_base: Pointer | None = None,
                 header_pointers: dict[str, Pointer] | None = None, embedded: object = None,
                 probe: str | None = None, size: int = 0) -> None:
        self.index = index  # position in capture order (JSONL: line index; HAR: after sorting by start time)
        self.base = base  # where `message` sits in the file (JSONL: /<line index>/message)
        self.sender = sender  # CLIENT | SERVER | None (a plain JSON-RPC line: inferred by the session)
        self.message = message  # the JSON-RPC message (an array for a batch), or None for a bodiless HTTP exchange
        # client: method, url, headers; server: status, headers (set_http's work, inlined: a
        # million records, and most are plain)
        self.http = http
        if http and type(http) is dict:
            status, method = http.get("status"), http.get("method")
            self.status = status if type(status) is int else None if status is None else _status(status)
            self.method = None if method is None else method.upper() if type(method) is str else _method(method)
        else:
            self.set_http(http)
        self.problem = problem  # the line is not a usable record: where and why
        self.request = request  # server HTTP record: the client record of the same HTTP exchange
        self.raw_body = raw_body  # an HTTP body that is not JSON (plain-text 403, HTML, ...)
        self.http_base = http_base  # where the HTTP facts are in the file (JSONL: /<line>/http)
        self.header_pointers = header_pointers  # lower-case name -> pointer (HAR header lists)
        self.embedded = embedded  # har.Embedded: where the message's JSON sits inside a HAR string
        self.probe = probe  # `mcplint audit --record`: the probe that sent this deliberately odd request
        self.size = size  # bytes of the file it came from (JSONL: its line): what keeping it costs
        self.lowered: dict | None = None  # header names lower-cased, built on first ask (http.header)
        self.first_of: tuple | None = None  # (http.first_of_response's answer,) once asked: five rules ask
        # `exited`, a stdio server's exit status on the line `mcplint audit` writes when it exits
        # mid-audit, is set only on that line (read it with getattr(record, "exited", None)): a
        # million other records need not pay for it.

    def set_http(self, http: dict | None) -> None:
        """Give the record its HTTP facts (or take them away): ``status`` (an int, not a bool)
        and the upper-case ``method`` follow them."""
        self.http = http
        if not http or type(http) is not dict and not isinstance(http, dict):  # a bad `http` is MCP600's
            self.status = self.method = None
            return
        status, method = http.get("status"), http.get("method")
        self.status = _status(status)
        self.method = None if method is None else _method(method)

    def __repr__(self) -> str:
        return f"Record({self.index}, {self.base!r}, {self.sender!r}, status={self.status!r}, method={self.method!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        # (a default: ``exited`` is set on exit lines only)
        return all(getattr(self, name, None) == getattr(other, name, None) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  (as the dataclass it replaces: mutable, not hashable)

    @property
    def line_pointer(self) -> Pointer:
        """The whole record (the JSONL line, the HAR entry)."""
        return Pointer(self.base[:-1]) if self.base and self.base[-1] == "message" else self.base

    def header(self, name: str) -> str | None:
        """An HTTP header's value; names compare case-insensitively."""
        headers = (self.http or {}).get("headers")
        if not isinstance(headers, dict):
            return None
        wanted = name.lower()
        for key, value in headers.items():
            if isinstance(key, str) and key.lower() == wanted:
                return value if isinstance(value, str) else str(value)
        return None

    def header_pointer(self, name: str) -> Pointer:
        """Pointer of a header as spelled in the file, or of the headers when it is absent."""
        if self.header_pointers is not None:
            return self.header_pointers.get(name.lower(), self.http_pointer / "headers")
        headers = (self.http or {}).get("headers")
        base = self.http_pointer / "headers"
        if isinstance(headers, dict):
            for key in headers:
                if isinstance(key, str) and key.lower() == name.lower():
                    return base / key
        return base

    @property
    def http_pointer(self) -> Pointer:
        """The HTTP facts of the record (status for a response, method and url for a request)."""
        return self.http_base if self.http_base is not None else self.line_pointer / "http"


def _status(status: Any) -> int | None:
    return status if isinstance(status, int) and not isinstance(status, bool) else None


def _method(method: Any) -> str | None:
    return method.upper() if isinstance(method, str) else None


def is_jsonrpc(value: Any) -> bool:
    """A JSON-RPC message or batch (by its `jsonrpc` member), as opposed to some other JSON
    body an HTTP error may carry, such as an OAuth error ({"error": "invalid_token"})."""
    if isinstance(value, list):
        return any(isinstance(item, dict) and "jsonrpc" in item for item in value)
    return isinstance(value, dict) and "jsonrpc" in value


def headers_dict(pairs: Any) -> dict[str, str]:
    """HAR-style [{name, value}, ...] to a dict; repeated headers joined with ', '."""
    found: dict[str, str] = {}
    if not isinstance(pairs, list):
        return found
    for pair in pairs:
        if isinstance(pair, dict) and isinstance(pair.get("name"), str):
            name, value = pair["name"], str(pair.get("value", ""))
            found[name] = f"{found[name]}, {value}" if name in found else value
    return found
