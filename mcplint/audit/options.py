"""Parse and check the audit's command-line values: --header, --env, the target.

Header values may name environment variables (``$TOKEN`` or ``${TOKEN}``, ``$$`` for
a literal dollar) so that a secret is typed into neither the command line nor the
shell history: ``--header 'Authorization: Bearer $TOKEN'`` (single quotes keep the
shell from expanding it first; expanding it in the shell works too).
"""

from __future__ import annotations

import os
import re
from typing import Mapping
from urllib.parse import urlsplit

from mcplint.errors import MCPLintError
from mcplint.regex_cache import regex

_VARIABLE = regex(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_TOKEN = regex(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
# Headers the audit itself must control: framing, the target, and the MCP session state.
MANAGED = frozenset({
    "host", "content-length", "transfer-encoding", "connection", "content-type",
    "mcp-session-id", "mcp-protocol-version", "mcp-method", "mcp-name", "accept",
})
_ENV_NAME = regex(r"^[A-Za-z_][A-Za-z0-9_]*$")


def expand(value: str, environ: Mapping[str, str] | None = None, where: str = "--header") -> str:
    """Replace $NAME / ${NAME} with the variable's value; an unset variable is an error."""
    env = os.environ if environ is None else environ

    def replace(match: re.Match) -> str:
        if match.group(0) == "$$":
            return "$"
        name = match.group(1) or match.group(2)
        if name not in env:
            raise MCPLintError(f"{where}: environment variable {name} is not set")
        return env[name]

    return _VARIABLE.sub(replace, value)


def parse_headers(values: list[str], environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """``["Name: value", ...]`` -> {name: expanded value}, in the order given."""
    headers: dict[str, str] = {}
    for raw in values:
        name, colon, value = raw.partition(":")
        name = name.strip()
        if not colon or not name:
            raise MCPLintError(f"--header {raw!r}: expected 'Name: value'")
        if not _TOKEN.match(name):
            raise MCPLintError(f"--header {name!r}: not a valid header name")
        if name.lower() in MANAGED:
            raise MCPLintError(f"--header {name}: this header is set by the audit itself")
        value = expand(value.strip(), environ, f"--header {name}")
        if any(c in value for c in "\r\n\x00"):
            raise MCPLintError(f"--header {name}: the value contains a line break or NUL")
        if any(existing.lower() == name.lower() for existing in headers):
            raise MCPLintError(f"--header {name}: given more than once")
        headers[name] = value
    return headers


def parse_env(values: list[str]) -> dict[str, str]:
    """``["KEY=VALUE", ...]`` -> {KEY: VALUE} for the server's environment."""
    env: dict[str, str] = {}
    for raw in values:
        key, equals, value = raw.partition("=")
        if not equals or not _ENV_NAME.match(key):
            raise MCPLintError(f"--env {raw!r}: expected KEY=VALUE")
        env[key] = value
    return env


def check_url(url: str) -> None:
    """An http(s) URL with a host, and no credentials in it (they would end up in reports)."""
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError on a port outside 0-65535
    except ValueError as err:
        raise MCPLintError(f"{url}: not a valid URL ({err})") from None
    if port == 0:  # http.client would take it for "no port" and connect to 80 or 443, with the --header values
        raise MCPLintError(f"{url}: not a valid URL (port 0; a port is 1-65535)")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise MCPLintError(f"{url}: expected an http:// or https:// URL")
    if parts.username is not None or parts.password is not None:
        raise MCPLintError(f"{url}: put credentials in --header, not in the URL (reports show the URL)")
    if parts.fragment:
        raise MCPLintError(f"{url}: a URL with a #fragment is not an endpoint")


def looks_like_url(text: str) -> bool:
    return bool(re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", text))
