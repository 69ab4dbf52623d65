"""A JavaScript/TypeScript tokenizer: enough of the language to find literals and brackets exactly.

It knows strings (with their escapes decoded), template literals (with `${...}` nested to any
depth, on an explicit stack), comments, regular-expression literals (told from division by
the token before), numbers, identifiers and punctuation. TypeScript's types are just more
tokens. No TypeScript compiler or npm package is needed (none is available offline, and the
pure-Python ECMAScript parsers on PyPI do not read TypeScript); mcplint never runs the code.

Offsets are code-point offsets into the text.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from mcplint.regex_cache import regex


class Token(NamedTuple):
    kind: str  # "name", "num", "str", "tmpl", "regex", "punct"
    text: str  # the source text (punctuation, names); for "str"/"tmpl" the decoded value
    start: int
    end: int
    plain: bool = True  # a template literal without substitutions (its value is known)


_PUNCT3 = ("...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=")
_PUNCT2 = ("=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=",
           "%=", "&=", "|=", "^=", "**", "<<", ">>")
# One pattern for everything that needs no state, after any whitespace and comments; '`', '}'
# and '/' are decided in code (the empty `rest` group stops there, or at the end of the text).
_MASTER = regex(r"(?:\s+|//[^\n]*|/\*.*?\*/)*(?:" + "|".join((
    r"(?P<dq>\"(?:[^\"\\\n]|\\.|\\\n)*\")",
    r"(?P<sq>'(?:[^'\\\n]|\\.|\\\n)*')",
    r"(?P<num>\.?\d(?:[eE][+-]?\d|[\w.])*)",
    r"(?P<name>[#$\w]+)",
    r"(?P<punct>" + "|".join(re.escape(p) for p in _PUNCT3) + "|"
    + "|".join(re.escape(p) for p in _PUNCT2 if p not in ("?.", "/=")) + r"|\?\.(?!\d)|[^`}/\s])",
    r"(?P<rest>)",
)) + ")", re.DOTALL)
# After these a '/' starts a regular expression, not a division.
_REGEX_AFTER_WORDS = {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
                      "case", "do", "else", "yield", "await"}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


class TokenizeError(Exception):
    """The text is not JavaScript this tokenizer can read (an unterminated string, say)."""


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    append = tokens.append
    # Each open template substitution remembers the brace depth it started at.
    templates: list[int] = []
    depth = 0
    i, n = 0, len(text)
    match = _MASTER.match
    while i < n:
        m = match(text, i)
        group, end = m.lastgroup, m.end()
        if group != "rest":
            i = m.start(group)
            if group == "name":
                append(Token("name", m.group(group), i, end))
            elif group == "punct":
                piece = m.group(group)
                if piece == "{":
                    depth += 1
                elif piece in ("'", '"'):
                    raise TokenizeError("unterminated string")
                append(Token("punct", piece, i, end))
            elif group == "num":
                append(Token("num", m.group(group), i, end))
            else:
                raw = text[i + 1:end - 1]
                append(Token("str", _decode(raw) if "\\" in raw else raw, i, end))
            i = end
            continue
        i = end
        if i >= n:
            break
        c = text[i]
        if c == "/":
            if text.startswith("/*", i):
                raise TokenizeError("unterminated comment")
            end = _regex(text, i) if _regex_allowed(tokens) else None
            if end is not None:
                append(Token("regex", text[i:end], i, end))
                i = end
            else:
                width = 2 if text.startswith("/=", i) else 1
                append(Token("punct", text[i:i + width], i, i + width))
                i += width
            continue
        if c == "}" and not (templates and templates[-1] == depth):
            depth -= 1
            append(Token("punct", "}", i, i + 1))
            i += 1
            continue
        # A template literal starts (`) or resumes after a substitution (}).
        if c == "}":
            templates.pop()
        start = i
        value, i, opened = _template(text, i + 1)
        if opened:
            templates.append(depth)
        if c == "`":
            append(Token("tmpl", value, start, i, plain=not opened))
    if templates:
        raise TokenizeError("unterminated template substitution")
    return tokens


def _decode(raw: str) -> str:
    out, j, n = [], 0, len(raw)
    while j < n:
        k = raw.find("\\", j)
        if k < 0:
            out.append(raw[j:])
            break
        out.append(raw[j:k])
        decoded, j = _escape(raw, k)
        out.append(decoded)
    return "".join(out)


def _template(text: str, j: int) -> tuple[str, int, bool]:
    """From just inside a template (after ` or a substitution's }): (value, end, opened ${)."""
    out, n = [], len(text)
    while j < n:
        c = text[j]
        if c == "`":
            return "".join(out), j + 1, False
        if c == "$" and text.startswith("${", j):
            return "".join(out), j + 2, True
        if c == "\\":
            decoded, j = _escape(text, j)
            out.append(decoded)
            continue
        out.append(c)
        j += 1
    raise TokenizeError("unterminated template literal")


def _escape(text: str, j: int) -> tuple[str, int]:
    """Decode the escape at text[j] == '\\'; returns (text, index after it)."""
    c = text[j + 1] if j + 1 < len(text) else ""
    if c in _ESCAPES and not (c == "0" and text[j + 2:j + 3].isdigit()):
        return _ESCAPES[c], j + 2
    if c == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", text[j + 2:j + 4]):
        return chr(int(text[j + 2:j + 4], 16)), j + 4
    if c == "u":
        braced = re.match(r"\{([0-9a-fA-F]{1,6})\}", text[j + 2:j + 10])
        if braced and int(braced.group(1), 16) <= 0x10FFFF:
            return chr(int(braced.group(1), 16)), j + 2 + braced.end()
        if re.fullmatch(r"[0-9a-fA-F]{4}", text[j + 2:j + 6]):
            return chr(int(text[j + 2:j + 6], 16)), j + 6
    if c == "\n":
        return "", j + 2  # a line continuation
    return c, j + 2


def _regex_allowed(tokens: list[Token]) -> bool:
    if not tokens:
        return True
    last = tokens[-1]
    if last.kind == "name":
        return last.text in _REGEX_AFTER_WORDS
    if last.kind in ("num", "str", "tmpl", "regex"):
        return False
    return last.text not in (")", "]", "}", "++", "--")


def _regex(text: str, i: int) -> int | None:
    j, n, in_class = i + 1, len(text), False
    while j < n:
        c = text[j]
        if c == "\n":
            return None
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            j += 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            return j
        j += 1
    return None
