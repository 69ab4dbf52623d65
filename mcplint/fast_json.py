"""msgspec's JSON decoder, used where it reads a text exactly as ``json.loads`` does.

For valid JSON msgspec gives the same values as json (big integers, duplicate keys: the last
wins) 3-4x faster. What it refuses (NaN, Infinity, 1e400, lone surrogates, bad bytes) the
caller then hands to json, which stays the reference. Deep nesting differs: json gives up
(RecursionError) near Python's recursion limit, msgspec at another depth, so a text that
could nest that deep goes to json.
"""

from __future__ import annotations

import sys

DEEP = 500
# A text shorter than this cannot nest DEEP levels, so fast_loads would hand it straight to
# ``decoder()``: the hottest caller does that itself.
SHORT = 2 * DEEP
_NOT_YET = object()
_decode = _NOT_YET


def decoder():
    """msgspec's decode, or None without msgspec. Imported on first use: the import costs about
    a tenth of a small manifest check, which never needs it."""
    global _decode
    if _decode is _NOT_YET:
        try:
            from msgspec.json import Decoder
        except ImportError:  # pragma: no cover - a platform without a msgspec wheel
            _decode = None
        else:
            _decode = Decoder().decode
    return _decode


def loaded() -> bool:
    """Whether msgspec has been imported (by this module or another)."""
    return "msgspec" in sys.modules


def pays(size: int) -> bool:
    """Whether msgspec is worth it for a text of ``size`` bytes: importing it costs as much as
    json's slower parse of about half a megabyte, so only for a big text, or once imported."""
    return size >= 256 * 1024 or loaded()


def fast_loads(data: bytes | str):
    """The JSON value of ``data``, or raise ValueError when msgspec cannot stand in for json
    (invalid or unusual JSON, deep nesting, no msgspec): then parse it with json."""
    decode = _decode if _decode is not _NOT_YET else decoder()
    if decode is None:
        raise ValueError("msgspec is not installed")
    if len(data) >= SHORT:
        opening = (b"[", b"{") if isinstance(data, bytes) else ("[", "{")
        if data.count(opening[0]) + data.count(opening[1]) >= DEEP:
            raise ValueError("deeply nested, perhaps")
    try:
        return decode(data)
    except RecursionError:
        raise ValueError("nested too deeply for msgspec") from None
