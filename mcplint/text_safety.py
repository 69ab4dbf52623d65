"""Text from linted files, made safe to print on a terminal, in a CI log or in a report file.

A manifest, a transcript or a file name can hold any string: ESC sequences that recolour or
rewrite the terminal, BEL, NUL, a CR that overwrites the line, a newline that starts a fake
``::error::`` workflow command, U+2028/U+2029 and bidi overrides that reorder what is shown
("Trojan Source"), and lone UTF-16 surrogates (a non-UTF-8 file name) that UTF-8 cannot
encode. Every printer passes such text through one of the functions here:

- ``printable``: plain text (terminal, stderr, GitHub annotations, Markdown) shows each such
  character as ``<U+XXXX>``, so it is seen rather than obeyed;
- ``json_text``: JSON keeps its value (the characters become ``\\uXXXX`` escapes);
- XML writes character references (see reporters/junit.py).
"""

from __future__ import annotations

from mcplint.regex_cache import regex

# C0 and C1 controls, DEL, the line and paragraph separators, the bidi marks, embeddings,
# overrides and isolates, and the surrogate range (only ever lone in a Python str).
BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
UNSAFE = regex(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{BIDI}\ud800-\udfff]")
# What json.dumps(ensure_ascii=False) leaves raw in strings: it escapes only C0 controls.
_JSON_RAW = regex(f"[\x7f-\x9f\u2028\u2029{BIDI}\ud800-\udfff]")


def shown(char: str) -> str:
    """How one unsafe character is printed."""
    return f"<U+{ord(char):04X}>"


def printable(value: str) -> str:
    """``value`` on one line with every control, separator, bidi and lone surrogate visible."""
    if not UNSAFE.search(value):
        return value
    return UNSAFE.sub(lambda m: shown(m.group()), value)


def json_text(text: str) -> str:
    """Serialized JSON with those characters written as ``\\uXXXX`` escapes. They can only
    occur inside strings (json.dumps writes nothing else raw), so the value read back is
    the same, and the bytes are valid UTF-8 with nothing a terminal would obey."""
    if not _JSON_RAW.search(text):
        return text
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
