"""Checks shared by the prompt and resource rules (MCP240-MCP249): naming-style hints, and
whether a resource `uri` is a URI (RFC 3986) and a `uriTemplate` a URI template (RFC 6570),
as the `format` of those members in every version's schema asks."""

from __future__ import annotations

from functools import lru_cache

from mcplint.identifiers import matches_style, to_style
from mcplint.regex_cache import regex
from mcplint.schema_dialects import uri_ok
from mcplint.tool_fields import show

ERROR, WARNING = "error", "warning"


@lru_cache(maxsize=4096)  # names repeat across pages of a capture
def style_hint(name: str, style: str, dotted: bool) -> str | None:
    """How to rename ``name`` into ``style``, or None when it is in it already. ``dotted``: each
    dot-separated segment is judged alone (a namespace prefix, as for tool names); otherwise
    leading underscores are kept (as for parameter names)."""
    if dotted:
        segments = name.split(".")
        if all(matches_style(segment, style) for segment in segments):
            return None
        suggestion = ".".join(_restyled(segment, style) for segment in segments)
        good = all(matches_style(segment, style) for segment in suggestion.split("."))
    else:
        bare = name.lstrip("_")
        if not bare or matches_style(bare, style):
            return None
        suggestion = name[: len(name) - len(bare)] + _restyled(bare, style)
        good = matches_style(_restyled(bare, style), style)
    return f"rename it to '{suggestion}'" if good else f"rename it in {style}"


_SEPARATORS = {"snake_case": ("-", "_"), "kebab-case": ("_", "-")}


def _restyled(identifier: str, style: str) -> str:
    """``identifier`` in ``style``: by swapping its separators when that is enough (k8s-diagnose ->
    k8s_diagnose, where splitting into words would give k8_s_diagnose), else word by word."""
    swap = _SEPARATORS.get(style)
    if swap is not None and matches_style(identifier.replace(*swap), style):
        return identifier.replace(*swap)
    return to_style(identifier, style)


# -- URIs (RFC 3986) -------------------------------------------------------------------------

_SCHEME = regex(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_PARTIAL_SCHEME = regex(r"[A-Za-z][A-Za-z0-9+.\-]*")
_URI_CHAR = regex(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]")
_BAD_PERCENT = regex(r"%(?![0-9A-Fa-f]{2})")
_CHAR_NAMES = {" ": "a space", "\\": "a backslash", "\t": "a tab", "\n": "a line break", '"': "a double quote"}


def _listed(chars: list[str]) -> str:
    shown = [_CHAR_NAMES.get(ch) or (f"'{ch}'" if ch.isprintable() else f"U+{ord(ch):04X}") for ch in chars[:4]]
    return ", ".join(shown) + (", ..." if len(chars) > 4 else "")


def uri_problem(uri: str) -> tuple[str, str] | None:
    """(severity, why) when ``uri`` is not an absolute URI: an error without a scheme (clients
    that parse it as a URL reject it), a warning for characters a URI cannot hold."""
    if not uri.strip():
        return ERROR, "is empty; give the resource an absolute URI (file:///..., https://..., notes://...)"
    if not _SCHEME.match(uri):
        return ERROR, ("has no scheme, so it is not a URI; write it absolute, e.g. file:///path, "
                       "https://host/path or a scheme of the server's own (notes://...)")
    if uri_ok(uri):
        return None
    bad = list(dict.fromkeys(ch for ch in uri if ch != "%" and not _URI_CHAR.fullmatch(ch)))
    if bad:
        them = "them" if len(bad) > 1 else "it"
        return WARNING, f"contains {_listed(bad)}, which a URI cannot hold; percent-encode {them} (a space as %20)"
    if _BAD_PERCENT.search(uri):
        return WARNING, "has a '%' not followed by two hex digits; write a literal '%' as %25"
    return WARNING, "is not a valid URI (RFC 3986); check its brackets and authority"


# -- URI templates (RFC 6570) ----------------------------------------------------------------

_OPERATORS = "+#./;?&"
_RESERVED_OPERATORS = "=,!@|"
_VARNAME = r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*"
_VARSPEC = regex(rf"{_VARNAME}(?::[1-9][0-9]{{0,3}}|\*)?")
_LITERAL_BAD = set(" \"'<>\\^`|") | {chr(c) for c in range(0x20)} | {"\x7f"}


def uri_template_problem(template: str) -> tuple[str, str] | None:
    """(severity, why) when ``template`` is not an RFC 6570 URI template: an error when it cannot
    be expanded (unbalanced braces, an empty expression) or always expands to a relative
    reference; a warning for a variable name or a literal character RFC 6570 does not allow."""
    if not template.strip():
        return ERROR, "is empty; give it a URI template such as notes://{id}"
    expressions: list[str] = []
    literals: list[str] = []
    depth_start = None
    for index, ch in enumerate(template):
        if ch == "{":
            if depth_start is not None:
                return ERROR, (f"opens a '{{' at character {index + 1} inside another expression; "
                               "expressions do not nest")
            depth_start = index
        elif ch == "}":
            if depth_start is None:
                return ERROR, f"has a '}}' at character {index + 1} that closes no expression"
            expressions.append(template[depth_start + 1:index])
            depth_start = None
        elif depth_start is None:
            literals.append(ch)
    if depth_start is not None:
        return ERROR, f"leaves the '{{' at character {depth_start + 1} unclosed"
    prefix = template.split("{", 1)[0]
    if prefix and not _SCHEME.match(prefix) and not _PARTIAL_SCHEME.fullmatch(prefix):
        return ERROR, ("has no scheme, so what it expands to is not a URI; write it absolute, "
                       "e.g. file:///{path} or notes://{id}")
    for expression in expressions:
        if not expression:
            return ERROR, "has an empty expression '{}'; name a variable in it, e.g. {id}"
        if expression[0] in _RESERVED_OPERATORS:
            return WARNING, f"uses the operator '{expression[0]}', which RFC 6570 reserves; use one of + # . / ; ? &"
        body = expression[1:] if expression[0] in _OPERATORS else expression
        for varspec in body.split(","):
            if not _VARSPEC.fullmatch(varspec):
                return WARNING, (f"has the variable {show(varspec)}, not an RFC 6570 variable name "
                                 "(letters, digits, '_' and '.' between them; ':N' or '*' after it)")
    bad = list(dict.fromkeys(ch for ch in literals if ch in _LITERAL_BAD))
    if bad:
        them = "them" if len(bad) > 1 else "it"
        return WARNING, f"contains {_listed(bad)} outside its expressions; percent-encode {them} (a space as %20)"
    return None
