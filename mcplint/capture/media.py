"""Binary payloads in results: base64 validity (image/audio `data`, resource `blob`) and
MIME types, including whether the decoded bytes are what the declared type says."""

from __future__ import annotations

import binascii
import re

from mcplint.regex_cache import regex
from mcplint.tool_fields import show

_WHITESPACE = regex(r"[\r\n\t ]+")


def base64_problem(value: str) -> str | None:
    """Why ``value`` is not standard base64 (RFC 4648 §4, padded), or None. Line breaks
    are tolerated, as decoders do."""
    try:
        binascii.a2b_base64(value, strict_mode=True)
        return None
    except (binascii.Error, ValueError):
        pass
    if value.startswith("data:"):
        return "holds a data: URL; put only the base64 payload here and the type in mimeType"
    compact = _WHITESPACE.sub("", value)
    try:
        binascii.a2b_base64(compact, strict_mode=True)
        return None
    except (binascii.Error, ValueError):
        pass
    if re.fullmatch(r"[A-Za-z0-9_-]*={0,2}", compact) and re.search(r"[-_]", compact):
        return "uses the URL-safe alphabet ('-', '_'); use standard base64 ('+', '/')"
    if re.fullmatch(r"[A-Za-z0-9+/]*", compact):
        return "is not padded to a multiple of 4 characters with '='"
    bad = next((c for c in compact if not (c.isascii() and (c.isalnum() or c in "+/="))), None)
    if bad is not None:
        return f"contains {bad!r}, which is not a base64 character"
    return "is not valid base64 (misplaced '=' padding)"


_TOKEN = r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
_MIME = regex(rf"({_TOKEN})/({_TOKEN})(?:\s*;\s*[A-Za-z0-9!#$&^_.+-]+=(?:[^;\"\s]+|\"[^\"]*\"))*\s*")
_MAGIC = (  # leading bytes -> the format's registered MIME type
    (b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"), (b"OggS", "audio/ogg"), (b"fLaC", "audio/flac"), (b"ID3", "audio/mpeg"),
)
_ALIASES = {"image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg", "audio/x-wav": "audio/wav",
            "audio/wave": "audio/wav", "audio/vnd.wave": "audio/wav", "audio/mp3": "audio/mpeg",
            "audio/x-flac": "audio/flac"}


def mime_problem(mime: str, kind: str | None = None, data: str | None = None) -> str | None:
    """Why ``mime`` is not a sane MIME type for a block of ``kind`` ("image"/"audio",
    or None for resource contents) whose base64 payload is ``data``, or None."""
    match = _MIME.fullmatch(mime)
    if match is None:
        return f"{show(mime)} is not a MIME type (type/subtype, e.g. image/png)"
    essence = f"{match.group(1)}/{match.group(2)}".lower()
    if kind in ("image", "audio") and match.group(1).lower() != kind:
        return f"an {kind} block's mimeType should be an {kind}/* type, not {show(mime)}"
    if essence == "image/jpg":
        return "image/jpg is not a registered type; use image/jpeg"
    if data:
        found = sniff(data)
        if found and found != _ALIASES.get(essence, essence):
            return f"mimeType says {essence} but the data is {found}; declare {found}"
    return None


def sniff(data: str) -> str | None:
    """The MIME type the first bytes of a base64 payload reveal, when they are a known
    image or audio signature."""
    try:
        head = binascii.a2b_base64(data[:24])
    except (binascii.Error, ValueError):
        return None
    for magic, mime in _MAGIC:
        if head.startswith(magic):
            return mime
    if head[:4] == b"RIFF" and head[8:12] in (b"WEBP", b"WAVE"):
        return "image/webp" if head[8:12] == b"WEBP" else "audio/wav"
    return None
