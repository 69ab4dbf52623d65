"""`servers:` in the config: MCP servers of this repository that `mcplint check` starts and lints.

```yaml
servers:
  - name: weather
    command: [python, -m, weather_server]   # stdio; or url: http://127.0.0.1:8000/mcp
    cwd: .
    env: {WEATHER_API_KEY: dummy}
    source: [src/]                          # where its tools are defined (default: the repo)
    audit: false                            # true: also run the safe probes
```

A config file in a repository is as trusted as the repository's tests: its commands run.
Nothing here runs anything; mcplint.servers.drive does, only for `check` without paths (or
``--servers``), never for the file-linting pre-commit hook.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcplint.regex_cache import regex

MAX_SERVERS = 100  # a monorepo such as awslabs/mcp defines 60
NAME = regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_ENV_REFERENCE = regex(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
KEYS = ("name", "command", "url", "cwd", "env", "headers", "source", "audit", "timeout")


@dataclass(frozen=True)
class ServerSpec:
    name: str
    command: tuple[str, ...] = ()  # stdio: the argv that starts it
    url: str | None = None  # Streamable HTTP
    cwd: Path = Path(".")
    env: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    source: tuple[Path, ...] = ()  # where its tools are defined
    audit: bool = False
    timeout: float = 10.0
    line: int | None = None  # where the entry is written in the config file (for reports)

    @property
    def target(self) -> str:
        return self.url or shlex.join(self.command)


def parse_servers(raw: Any, root: Path, config_text: str = "") -> list[ServerSpec]:
    """The validated entries; raises ValueError with the key at fault (config shows the file)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ValueError("servers: expected a list of servers, each with a name and a command or url")
    if len(raw) > MAX_SERVERS:
        raise ValueError(f"servers: at most {MAX_SERVERS} servers")
    specs, names = [], set()
    for index, entry in enumerate(raw):
        where = f"servers.{index}"
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: expected a mapping with name and command or url")
        unknown = [str(key) for key in entry if key not in KEYS]
        if unknown:
            from mcplint.suggest import did_you_mean

            hint = did_you_mean(unknown[0], KEYS)
            raise ValueError(f"{where}.{unknown[0]}: unknown setting{hint} (known: {', '.join(KEYS)})")
        spec = _one(entry, where, root, config_text)
        if spec.name in names:
            raise ValueError(f"{where}.name: {spec.name!r} is used by another server")
        names.add(spec.name)
        specs.append(spec)
    return specs


def _one(entry: dict, where: str, root: Path, config_text: str) -> ServerSpec:
    name = entry.get("name")
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ValueError(f"{where}.name: give each server a short name (letters, digits, '_', '.', '-')")
    command, url = entry.get("command"), entry.get("url")
    if (command is None) == (url is None):
        raise ValueError(f"{where}: give either command (stdio) or url (Streamable HTTP), not both")
    argv: tuple[str, ...] = ()
    if command is not None:
        if isinstance(command, str):
            try:
                command = shlex.split(command)
            except ValueError as err:
                raise ValueError(f"{where}.command: {err}") from None
        if not isinstance(command, list) or not command or not all(isinstance(a, str) and a for a in command):
            raise ValueError(f"{where}.command: expected a list of arguments, e.g. [python, server.py]")
        argv = tuple(_expand(a) for a in command)
    if url is not None:
        from mcplint.audit.options import check_url, looks_like_url

        if not isinstance(url, str) or not looks_like_url(url):
            raise ValueError(f"{where}.url: expected an http:// or https:// URL")
        try:
            check_url(url)
        except Exception as err:  # MCPLintError: its one line says what is wrong
            raise ValueError(f"{where}.url: {err}") from None
    cwd = entry.get("cwd", ".")
    if not isinstance(cwd, str):
        raise ValueError(f"{where}.cwd: expected a folder path")
    source = entry.get("source", ["."])
    if isinstance(source, str):
        source = [source]
    if not isinstance(source, list) or not all(isinstance(s, str) and s for s in source):
        raise ValueError(f"{where}.source: expected a list of folders or files")
    audit = entry.get("audit", False)
    if not isinstance(audit, bool):
        raise ValueError(f"{where}.audit: expected true or false")
    timeout = entry.get("timeout", 10.0)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 3600:
        raise ValueError(f"{where}.timeout: expected seconds between 0 and 3600")
    return ServerSpec(
        name=name, command=argv, url=url, cwd=(root / cwd).resolve(),
        env=_mapping(entry.get("env"), f"{where}.env"), headers=_mapping(entry.get("headers"), f"{where}.headers"),
        source=tuple((root / s).resolve() for s in source), audit=audit, timeout=float(timeout),
        line=_line_of(config_text, name),
    )


def _mapping(value: Any, where: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected a mapping of names to values")
    found = {}
    for key, item in value.items():
        if not isinstance(key, str) or not key or isinstance(item, (dict, list)) or item is None:
            raise ValueError(f"{where}.{key}: expected a text value")
        found[key] = _expand(str(item).lower() if isinstance(item, bool) else str(item))
    return found


def _expand(text: str) -> str:
    """``${NAME}`` from mcplint's own environment (CI secrets), empty when unset."""
    return _ENV_REFERENCE.sub(lambda m: os.environ.get(m.group(1), ""), text)


def _line_of(text: str, name: str) -> int | None:
    """The line of the entry's name in the config text (YAML or TOML), for locations."""
    pattern = re.compile(r"""^\s*(?:-\s*)?name\s*[:=]\s*["']?""" + re.escape(name) + r"""["']?\s*(?:#.*)?$""", re.M)
    found = pattern.search(text)
    return text.count("\n", 0, found.start()) + 1 if found else None
