"""msgspec's JSON decoder, used where it reads a text exactly as ``json.loads`` does.

For valid JSON msgspec gives the same values as json (big integers, duplicate keys: the last
wins) 3-4x faster. What it refuses (NaN, Infinity, 1e400, lone surrogates, bad bytes) the
caller then hands to json, which stays the reference. Deep nesting differs: json gives up
(RecursionError) near Python's recursion limit, msgspec at another depth, so a text that
could nest that deep goes to json.
"""

from __future__ import annotations

try:
    from msgspec.json import Decoder as _Decoder

    _decode = _Decoder().decode
except ImportError:  # pragma: no cover - a platform without a msgspec wheel
    _decode = None

DEEP = 500
# msgspec's decode itself (None without msgspec), for the hottest caller: a text shorter than
# this cannot nest DEEP levels, so fast_loads would hand it straight to ``decode``.
decode = _decode
SHORT = 2 * DEEP


def fast_loads(data: bytes | str):
    """The JSON value of ``data``, or raise ValueError when msgspec cannot stand in for json
    (invalid or unusual JSON, deep nesting, no msgspec): then parse it with json."""
    if _decode is None:
        raise ValueError("msgspec is not installed")
    if len(data) >= SHORT:
        opening = (b"[", b"{") if isinstance(data, bytes) else ("[", "{")
        if data.count(opening[0]) + data.count(opening[1]) >= DEEP:
            raise ValueError("deeply nested, perhaps")
    try:
        return _decode(data)
    except RecursionError:
        raise ValueError("nested too deeply for msgspec") from None
