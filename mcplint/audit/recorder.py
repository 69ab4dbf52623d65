"""Write the audit session as a JSONL transcript, the format `mcplint check` reads.

One JSON object per line: ``{"from": "client"|"server", "message": <msg or null>,
"http": {...}}``. ``http`` appears only for HTTP traffic: on a client line the
request (``method``, ``url``, ``headers`` as sent), on a server line the response
(``status``, ``headers`` as received, a repeated header joined with ", ").
``message`` is null for an exchange without a JSON-RPC body (a 202, a 405, the GET
stream, a DELETE, a plain-text 403).

Two extra keys, which the linter does not need and ignores:

- ``raw``: text that is not a JSON-RPC message. On a client line, text sent on purpose
  to see the server's -32700 or -32600 (``"message": null, "raw": "{\\"jsonrpc\\": ..."``);
  on a server line, an SSE event or HTTP body that did not parse as JSON.
- ``probe``: on a client line, the name of the audit probe that sent it
  ("unknown-tool", "rate-limit", ...), so a reader can tell deliberate bad requests
  from the session's normal traffic.

Credentials never reach the file: the values of Authorization, Cookie,
Proxy-Authorization, Set-Cookie and of every header the user passed with
``--header`` are replaced by "<redacted>". Every line is flushed as it is written,
so a session that ends in a crash still leaves its transcript behind.
"""

from __future__ import annotations

import json
from typing import IO, Any, Iterable, Mapping

REDACTED = "<redacted>"
ALWAYS_SECRET = frozenset({"authorization", "cookie", "proxy-authorization", "set-cookie"})


def redact_headers(headers: Mapping[str, str], secret: Iterable[str] = ()) -> dict[str, str]:
    """The headers with every credential value replaced (names compared case-insensitively)."""
    hidden = ALWAYS_SECRET | {name.lower() for name in secret}
    return {name: REDACTED if name.lower() in hidden else value for name, value in headers.items()}


class Recorder:
    def __init__(self, handle: IO[str], secret_headers: Iterable[str] = ()) -> None:
        self._handle = handle
        self._secret = frozenset(name.lower() for name in secret_headers)
        self.lines = 0

    def client(self, message: Any, http: Mapping | None = None, *, raw: str | None = None,
               probe: str | None = None) -> None:
        self._write("client", message, http, raw, probe)

    def server(self, message: Any, http: Mapping | None = None, *, raw: str | None = None) -> None:
        self._write("server", message, http, raw, None)

    def _write(self, side: str, message: Any, http: Mapping | None, raw: str | None, probe: str | None) -> None:
        line: dict[str, Any] = {"from": side, "message": message}
        if raw is not None:
            line["raw"] = raw
        if probe is not None:
            line["probe"] = probe
        if http is not None:
            http = dict(http)
            if "headers" in http:
                http["headers"] = redact_headers(http["headers"], self._secret)
            line["http"] = http
        self._handle.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._handle.flush()
        self.lines += 1
