"""Identifier styles (snake_case, camelCase, kebab-case): split an identifier into words,
tell whether it is written in a style, rewrite it in one (MCP202, MCP203, MCP230)."""

from __future__ import annotations


from mcplint.regex_cache import regex

STYLES = ("snake_case", "camelCase", "kebab-case", "any")
_STYLE_RE = {
    "snake_case": regex(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*"),
    "camelCase": regex(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*"),
    "kebab-case": regex(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*"),
}
# A dotted name (a.b.c) whose every segment is in the style, matched at once.
_DOTTED_RE = {style: regex(rf"(?:{rx.pattern})(?:\.(?:{rx.pattern}))*") for style, rx in _STYLE_RE.items()}
_WORD = regex(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+[a-z]*")


def split_words(identifier: str) -> list[str]:
    """Lowercase words of an identifier in any style: "getHTTPResponse" -> get, http,
    response; "list-s3-buckets" -> list, s3, buckets; "Get_User" -> get, user."""
    return [w.lower() for w in _WORD.findall(identifier)]


def matches_style(identifier: str, style: str) -> bool:
    """Whether ``identifier`` is written in ``style`` (one of ``STYLES``)."""
    return style == "any" or _STYLE_RE[style].fullmatch(identifier) is not None


def dotted_style(style: str):
    """``fullmatch`` of a name whose dot-separated segments all match ``style`` (not "any"):
    the same as ``matches_style`` of every segment of ``name.split(".")``."""
    return _DOTTED_RE[style].fullmatch


def to_style(identifier: str, style: str) -> str:
    """``identifier`` rewritten in ``style`` ("" when it has no words)."""
    words = split_words(identifier)
    if style == "camelCase":
        return "".join(w if i == 0 else w.capitalize() for i, w in enumerate(words))
    return ("-" if style == "kebab-case" else "_").join(words)
