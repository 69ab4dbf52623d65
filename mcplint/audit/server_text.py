"""Text a server supplied, told safely: in one-line messages (control and format characters as
visible escapes, shortened), back on the wire (a lone surrogate escaped, not a crash), and a
crashing server's stderr told by its one telling line."""

from __future__ import annotations

import json

from mcplint.regex_cache import regex

# A line that names an exception: Python's `ModuleNotFoundError: No module named 'mcp'`, Node's
# `Error: Cannot find module ...` (which `Node.js v20` follows), Java's `...Exception: ...`, after
# a logger's tag if any (`[Redis Fatal] Error: Max retries reached`).
_EXCEPTION_LINE = regex(r"^(?:\[[^\]\n]{1,40}\]:?\s*)?(?:[\w.]*(?:Error|Exception)|Traceback)\b[^\n]*?:\s*\S")
# Failing that, one named after a short lead-in that ends in ": " (Node's "Fatal error in main():
# TypeError: fetch failed").
_EXCEPTION_AFTER = regex(r"^(?:\[[^\]\n]{1,40}\]:?\s*)?[^\n]{1,80}?:\s+[\w.]*(?:Error|Exception)\b[^\n]*?:\s*\S")
# Lines that say where, not what: stack frames, carets, Node's closing braces and version.
_FRAME_LINE = regex(r"^(?:at\s|File \"|[\^~]+$|[{}]$|Node\.js v)")


def stderr_gist(text: str) -> str:
    """Of a server's stderr, the last line that names an exception, else its last line that is
    not a stack frame: a crashing server's traceback or Node's error dump told in one line ('' when
    it wrote nothing)."""
    lines = [line for line in map(_unboxed, text.splitlines()) if line]
    named = [line for line in lines if _EXCEPTION_LINE.match(line)] or \
        [line for line in lines if _EXCEPTION_AFTER.match(line)]
    plain = [line for line in lines if not _FRAME_LINE.match(line)]
    return (named or plain or lines or [""])[-1]


def _unboxed(line: str) -> str:
    """A line of stderr stripped, without the box Python draws around an exception group's
    tracebacks ("  | ValueError: ..." is the error; "  +---------------- 1 ----" says nothing)."""
    line = line.strip()
    if line[:1] in ("|", "+"):
        line = line.lstrip("|+ ")
        if not line.strip("-+ 0123456789"):
            return ""
    return line


def printable(text: str) -> str:
    """``text`` with every control or format character as a visible escape (\\n, \\x1b, \\u202e)."""
    out = []
    for char in text:
        code = ord(char)
        if char == "\\" or char.isprintable() or char == " ":
            out.append(char)
        elif char in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[char])
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        else:
            out.append(f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)


def wire_text(message) -> str:
    """A message as JSON text that always encodes as UTF-8: a lone surrogate a server sent (in a
    tool name it is asked to call, say) goes back \\u-escaped, as it came, not as a crash."""
    text = json.dumps(message, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(message)
    return text


def quoted(value, limit: int = 80) -> str:
    """A server-supplied value for a message: its repr (control characters escaped), shortened."""
    text = printable(repr(value))
    return text if len(text) <= limit else text[: limit - 3] + "..."
