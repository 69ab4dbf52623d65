"""One record of a capture: what one side sent, as the transcript or HAR file holds it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcplint.document.pointer import Pointer

CLIENT, SERVER = "client", "server"


@dataclass(slots=True)
class Record:
    index: int  # position in capture order (JSONL: line index; HAR: after sorting by start time)
    base: Pointer  # where `message` sits in the file (JSONL: /<line index>/message)
    sender: str | None  # CLIENT | SERVER | None (a plain JSON-RPC line: inferred by the session)
    message: Any  # the JSON-RPC message (an array for a batch), or None for a bodiless HTTP exchange
    http: dict | None = None  # client: method, url, headers; server: status, headers
    problem: tuple[Pointer, str] | None = None  # the line is not a usable record: where and why
    request: "Record | None" = None  # server HTTP record: the client record of the same HTTP exchange
    raw_body: str | None = None  # an HTTP body that is not JSON (plain-text 403, HTML, ...)
    http_base: Pointer | None = None  # where the HTTP facts are in the file (JSONL: /<line>/http)
    header_pointers: dict[str, Pointer] | None = None  # lower-case name -> pointer (HAR header lists)
    embedded: object = None  # har.Embedded: where the message's JSON sits inside a HAR string
    probe: str | None = None  # `mcplint audit --record`: the probe that sent this deliberately odd request
    size: int = 0  # bytes of the file it came from (JSONL: its line): what keeping it costs
    lowered: dict | None = None  # header names lower-cased, built on first ask (http.header)
    first_of: tuple | None = None  # (http.first_of_response's answer,) once asked: five rules ask

    @property
    def line_pointer(self) -> Pointer:
        """The whole record (the JSONL line, the HAR entry)."""
        return Pointer(self.base[:-1]) if self.base and self.base[-1] == "message" else self.base

    @property
    def status(self) -> int | None:
        http = self.http
        if not http:
            return None
        status = http.get("status")
        return status if type(status) is int or (isinstance(status, int) and not isinstance(status, bool)) else None

    @property
    def method(self) -> str | None:
        http = self.http
        method = http.get("method") if http else None
        return method.upper() if isinstance(method, str) else None

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
