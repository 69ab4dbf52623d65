"""Write the audit session as a JSONL transcript, the format `mcplint check` reads.

One JSON object per line: ``{"from": "client"|"server", "message": <msg or null>,
"http": {...}}``. ``http`` appears only for HTTP traffic: on a client line the
request (``method``, ``url``, ``headers`` as sent), on a server line the response
(``status``, ``headers`` as received, a repeated header joined with ", ").
``message`` is null for an exchange without a JSON-RPC body (a 202, a 405, the GET
stream, a DELETE, a plain-text 403).

Extra keys:

- ``raw``: text that is not a JSON-RPC message. On a client line, text sent on purpose
  to see the server's -32700 or -32600 (``"message": null, "raw": "{\\"jsonrpc\\": ..."``);
  on a server line, an SSE event or HTTP body that did not parse as JSON.
- ``probe``: on a client line, the name of the audit probe that sent it
  ("unknown-tool", "rate-limit", ...), so a reader can tell deliberate bad requests
  from the session's normal traffic.
- ``exit``: on a server line without a message, a stdio server's exit status (negative: the
  signal) when it exited mid-audit; MCP645 reports the requests it left unanswered.

Credentials never reach the file: the values of Authorization, Cookie,
Proxy-Authorization, Set-Cookie and of every header the user passed with
``--header`` are replaced by "<redacted>". A server may echo a credential back (in
a result, an error, a header, a non-JSON body): every occurrence of each secret
value (a ``--header`` value, the token after its auth scheme, a decoded Basic
password, the value of an ``--env`` variable whose name looks secret, at least
``MIN_SECRET`` characters), also JSON-escaped or URL-encoded, is replaced in every
string of every line. Every line is flushed as it is written, so a session that
ends in a crash still leaves its transcript behind. The file is bounded: more than
``MAX_SERVER_LINES`` server lines or ``MAX_BYTES`` in all ends the audit.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import IO, Any, Iterable, Mapping
from urllib.parse import quote

from mcplint.errors import MCPLintError
from mcplint.regex_cache import regex

REDACTED = "<redacted>"
ALWAYS_SECRET = frozenset({"authorization", "cookie", "proxy-authorization", "set-cookie"})
MIN_SECRET = 6  # shorter values would redact ordinary words all over the transcript
MAX_SERVER_LINES = 50_000
MAX_BYTES = 256 * 1024 * 1024
_SECRET_NAME = regex(r"KEY|TOKEN|SECRET|PASS|PWD|AUTH|CREDENTIAL|COOKIE|SESSION|PRIVATE|SIGNATURE|JWT",
                          re.IGNORECASE)


class TranscriptFull(MCPLintError):
    """The server sent more than a transcript may hold."""


def secret_values(headers: Mapping[str, str] | None = None, env: Mapping[str, str] | None = None) -> list[str]:
    """The strings to scrub from the transcript: each --header value and the credential in it,
    and each --env value whose name looks like a secret's (API_KEY, GITHUB_TOKEN, ...)."""
    found = []
    for value in (headers or {}).values():
        found.append(value)
        scheme, _, credential = value.strip().partition(" ")
        if credential.strip():
            found.append(credential.strip())
            if scheme.lower() == "basic":
                try:
                    decoded = base64.b64decode(credential.strip(), validate=True).decode("utf-8")
                except (binascii.Error, UnicodeDecodeError, ValueError):
                    decoded = ""
                found += [decoded, decoded.partition(":")[2]] if ":" in decoded else []
    found += [value for name, value in (env or {}).items() if _SECRET_NAME.search(name)]
    return [value for value in dict.fromkeys(found) if len(value) >= MIN_SECRET]


def redact_headers(headers: Mapping[str, str], secret: Iterable[str] = ()) -> dict[str, str]:
    """The headers with every credential value replaced (names compared case-insensitively)."""
    hidden = ALWAYS_SECRET | {name.lower() for name in secret}
    return {name: REDACTED if name.lower() in hidden else value for name, value in headers.items()}


class Recorder:
    def __init__(self, handle: IO[str], secret_headers: Iterable[str] = (), secrets: Iterable[str] = (),
                 max_server_lines: int = MAX_SERVER_LINES, max_bytes: int = MAX_BYTES) -> None:
        self._handle = handle
        self.max_server_lines, self.max_bytes = max_server_lines, max_bytes
        self._secret = frozenset(name.lower() for name in secret_headers)
        self._pattern = _pattern(secrets)
        self.lines = 0
        self.server_lines = 0
        self.bytes = 0

    def redact_text(self, text: str) -> str:
        """``text`` with every secret value replaced (also for messages shown to the user)."""
        return self._pattern.sub(REDACTED, text) if self._pattern is not None else text

    def client(self, message: Any, http: Mapping | None = None, *, raw: str | None = None,
               probe: str | None = None) -> None:
        self._write("client", message, http, raw, probe)

    def server(self, message: Any, http: Mapping | None = None, *, raw: str | None = None,
               exit: int | None = None) -> None:
        self._write("server", message, http, raw, None, exit)

    def _write(self, side: str, message: Any, http: Mapping | None, raw: str | None, probe: str | None,
               exit: int | None = None) -> None:
        line: dict[str, Any] = {"from": side, "message": message}
        if raw is not None:
            line["raw"] = raw
        if exit is not None:
            line["exit"] = exit
        if probe is not None:
            line["probe"] = probe
        if http is not None:
            http = dict(http)
            if "headers" in http:
                http["headers"] = redact_headers(http["headers"], self._secret)
            line["http"] = http
        if side == "server" and self.server_lines >= self.max_server_lines:
            raise TranscriptFull(f"the server sent more than {self.max_server_lines} messages in this audit; "
                                 "mcplint stopped (the transcript keeps them)")
        text = json.dumps(self._scrub(line), ensure_ascii=False) + "\n"
        if not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate a server sent as \ud800: kept as that escape
                text = json.dumps(self._scrub(line)) + "\n"
        if self.bytes + len(text) > self.max_bytes:
            raise TranscriptFull(f"the transcript would exceed {self.max_bytes / (1024 * 1024):g} MiB; mcplint "
                                 "stopped (the transcript keeps what came before)")
        self._handle.write(text)
        self._handle.flush()
        self.lines += 1
        self.bytes += len(text)
        if side == "server" and exit is None:  # an exit line is mcplint's note, not the server's words
            self.server_lines += 1

    def _scrub(self, value: Any) -> Any:
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self._pattern.sub(REDACTED, value)
        if isinstance(value, list):
            return [self._scrub(item) for item in value]
        if isinstance(value, dict):
            return {self._scrub(key): self._scrub(item) for key, item in value.items()}
        return value


def _pattern(secrets: Iterable[str]) -> "re.Pattern[str] | None":
    """One pattern for every secret as sent and as it may come back: JSON-escaped (up to
    three levels, as in a JSON text inside a JSON string), ASCII-escaped, URL-encoded."""
    forms = set()
    for secret in secrets:
        if not secret:
            continue
        form = secret
        for _ in range(3):
            forms.add(form)
            forms.add(json.dumps(form)[1:-1])
            form = json.dumps(form, ensure_ascii=False)[1:-1]
        forms.add(quote(secret, safe=""))
    if not forms:
        return None
    return re.compile("|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True)))
