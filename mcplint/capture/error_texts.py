"""What an error's text says (MCP709-MCP712, MCP718): generic messages, stack traces and the
server's internal paths (not the ones the client itself sent), and the texts an error carries."""

from __future__ import annotations

import re
from typing import Any

from mcplint.lazy_regex import LazyPattern

GENERIC = frozenset({
    "error", "errors", "an error", "internal error", "internal server error", "server error", "unknown error",
    "unknown", "an error occurred", "an error has occurred", "error occurred", "an unknown error occurred",
    "an unexpected error occurred", "unexpected error", "something went wrong", "oops", "failed", "failure",
    "exception", "undefined", "null", "none", "nil", "nan", "[object object]", "object object", "{}", "[]",
    "n/a", "request failed", "tool error", "tool failed", "tool execution failed", "execution failed",
})
_PREFIX = LazyPattern(r"^(?:mcp error -?\d+|error executing tool \S+|error calling tool \S+|[a-z]*error|"
                      r"[a-z]*exception|error \d+)\s*:\s*")
# The SDKs' wrapper with nothing after it (mcp-server-docker's "Error executing tool fetch_container_logs"):
# the tool is the one the client called, so naming it says nothing about what failed.
_BARE_WRAPPER = LazyPattern(r"^(?:error (?:executing|calling|running) tool|failed to (?:execute|call|run) tool) \S+$")


def is_generic(text: str) -> bool:
    """An error text that says nothing about what failed ("Error", "Internal error: undefined")."""
    norm = text.strip().lower()
    if len(norm) > 60:
        return False
    for _ in range(3):
        stripped = _PREFIX.sub("", norm).strip()
        if stripped == norm:
            break
        norm = stripped
    norm = norm.rstrip(".!")
    return norm in GENERIC or norm == "" or _BARE_WRAPPER.match(norm) is not None


_STACK = LazyPattern(
    r"Traceback \(most recent call last\)"  # Python
    r"|File \"[^\"\n]+\", line \d+"  # Python frame
    r"|^[ \t]*at (?:async )?\S[^\n]{0,200}?\(?(?:file://)?(?:[A-Za-z]:)?[/\\][^\n]{0,300}?:\d+:\d+\)?[ \t]*$"  # Node
    r"|^\s*at [\w$.<>]+\((?:[\w$]+\.(?:java|kt|scala)(?::\d+)?|Native Method|Unknown Source)\)"  # JVM
    r"|goroutine \d+ \[running\]"  # Go
    r"|thread '[^'\n]*' panicked at"  # Rust
    r"| at [\w.`<>]+\([^)\n]*\) in [^\n]+:line \d+",  # .NET
    re.MULTILINE,
)
_ROOTS = ("home", "Users", "usr", "var", "opt", "srv", "app", "tmp", "etc", "root", "private", "mnt",
          "workspace", "workspaces", "build", "src", "lib", "lib64", "data", "code", "proc", "run", "snap", "nix")
_SOURCE = r"\.(?:py|pyc|js|mjs|cjs|ts|tsx|java|kt|rb|go|rs|php|cs|c|cc|cpp|h|so|dll|jar)\b"
_PATH = LazyPattern(
    r"(?<![\w.:/~%-])(/(?:" + "|".join(_ROOTS) + r")(?:/[\w.@+~-]+)+/?"
    r"|/(?:[\w.@+~-]+/)+[\w@+~-]+" + _SOURCE + r")"
    r"|(?<![\w])([A-Za-z]:\\(?:[\w .@+~-]+\\)*[\w .@+~-]+)"
)
# Where systems and installers put the programs a server drives (a browser, git, kubectl): a
# "could not find Chrome at /opt/google/chrome/chrome" says where a program was looked for, an
# install hint, and nothing of the server's own files, language or libraries.
_PROGRAM_PLACES = ("/usr/bin/", "/usr/local/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/snap/bin/",
                   "/opt/google/chrome", "/opt/microsoft/msedge", "/opt/brave.com/", "/Applications/",
                   "C:\\Program Files\\", "C:\\Program Files (x86)\\")
_SOURCE_FILE = LazyPattern(_SOURCE + "$")
SCAN_LIMIT = 20_000
_QUICK = LazyPattern(r"[/\\]|Traceback|goroutine|panicked|\n\s*at \S")


def leak_in(text: str, sent: tuple[str, ...] = ()) -> str | None:
    """What a text leaks of the server's internals (a stack trace or a file path the client
    did not send itself), described for a message; None when nothing."""
    found = leak_at(text, sent)
    return found[0] if found else None


def leak_at(text: str, sent: tuple[str, ...] = ()) -> tuple[str, int, int] | None:
    """``leak_in``'s description and where in ``text`` the leak is (start, end)."""
    text = text[:SCAN_LIMIT]  # a leak shows early; bounded work on a megabyte of error text
    if not _QUICK.search(text):
        return None
    stack = _STACK.search(text)
    if stack:
        return "a stack trace", stack.start(), stack.end()
    for match in _PATH.finditer(text):
        group = 1 if match.group(1) else 2
        path = match.group(group).rstrip("/.")
        if not _sent_by_client(path, sent) and not _program_place(path):
            return f"the internal path {path!r}", match.start(group), match.start(group) + len(path)
    return None


def _program_place(path: str) -> bool:
    """A program's standard install location (not a source file there)."""
    return path.startswith(_PROGRAM_PLACES) and "/.." not in path and not _SOURCE_FILE.search(path)


def _sent_by_client(path: str, sent: tuple[str, ...]) -> bool:
    for value in sent:
        value = value.rstrip("/\\")
        if value and (path == value or path.startswith(value + "/") or path.startswith(value + "\\")
                      or value.startswith(path)):
            return True
        # a relative path the server resolved in its folder ("example" -> "/srv/sandbox/example",
        # as server-filesystem says): the file the client asked for, not the server's layout
        if value and value[0] not in "/\\" and ":" not in value[:3] and any(
                path.endswith(sep + value) or sep + value + sep in path for sep in "/\\"):
            return True
    return False


def client_strings(params: Any, limit: int = 200) -> tuple[str, ...]:
    """The strings a request sent (arguments, uris), bounded: the paths a client gave."""
    found: list[str] = []
    stack = [params]
    while stack and len(found) < limit:
        value = stack.pop()
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value[:limit])
    return tuple(found)


def text_blocks(result: dict):
    """(index, text) of every text content block of a result."""
    content = result.get("content")
    if isinstance(content, list):
        for i, block in enumerate(content):
            if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
                yield i, block["text"]


def strings_in(value: Any, path: tuple = (), depth: int = 0, limit: int = 50):
    """(path, text) of the strings inside an error's ``data``, bounded in depth and count."""
    if isinstance(value, str):
        yield path, value
    elif depth < 4 and isinstance(value, dict):
        for key, item in list(value.items())[:limit]:
            yield from strings_in(item, (*path, key), depth + 1, limit)
    elif depth < 4 and isinstance(value, list):
        for i, item in enumerate(value[:limit]):
            yield from strings_in(item, (*path, i), depth + 1, limit)
