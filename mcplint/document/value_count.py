"""How many values a parsed JSON text may hold.

The size limits bound the bytes read, not what they become: each value of a listing costs
mcplint about 300 bytes of facts, and one a rule reports (an empty tool, an undescribed
property) about a kilobyte. Three bytes of JSON (``{},``) per value let a 20 MiB file become
6 million values and several gigabytes. A document, or one message of a capture, holding more than
``MAX_VALUES`` values is therefore refused, which caps the worst case near half a gigabyte
(a YAML listing too, counted after its aliases are expanded).
Real listings hold a few thousand values; the 10,000-tool benchmark listing holds 282,000.
"""

from __future__ import annotations

MAX_VALUES = 500_000


def holds_too_many(text: str | bytes, data: object, limit: int = MAX_VALUES, json: bool = True) -> bool:
    """Does ``data``, parsed from ``text`` (JSON, or YAML when not ``json``), hold more than
    ``limit`` values (objects, arrays, strings, numbers, booleans, nulls; member names are not
    counted)?"""
    # A JSON value takes at least one character (a YAML alias does not: its values are counted)
    if json and len(text) <= limit:
        return False
    # In JSON every value but the outermost follows a '[', ',' or ':' (the same characters inside
    # strings only raise the count): an upper bound in C, without walking anything.
    if json:
        if isinstance(text, str):
            bound = 1 + text.count("[") + text.count(",") + text.count(":")
        else:
            bound = 1 + text.count(b"[") + text.count(b",") + text.count(b":")
        if bound <= limit:
            return False
    count, stack = 0, [data]
    while stack:
        value = stack.pop()
        count += 1
        if count > limit:
            return True
        if type(value) is dict:
            stack.extend(value.values())
        elif type(value) is list:
            stack.extend(value)
    return False


def count_values(data: object, limit: int) -> int:
    """How many values ``data`` holds, counted as in ``holds_too_many``; at most ``limit + 1``
    (the walk stops there)."""
    count, stack = 0, [data]
    while stack and count <= limit:
        value = stack.pop()
        count += 1
        if type(value) is dict:
            stack.extend(value.values())
        elif type(value) is list:
            stack.extend(value)
    return count
