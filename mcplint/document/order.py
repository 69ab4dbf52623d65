"""Where a pointer's span starts, as a sort key taken from the parsed JSON alone.

For a JSON document without duplicate keys, a parsed object keeps its members in the order
of the text, so the order in which ``JsonSourceMap.span`` starts (line, then column) follows
from the data: a member's key comes before its value, its value before everything inside
it and before the next member. The engine ranks thousands of findings this way to keep the
first ones of each rule, and locates only those in the text.
"""

from __future__ import annotations

from typing import Any


def start_key(data: Any, pointer, at_key: bool = False, orders: dict | None = None) -> tuple[int, ...]:
    """A key that sorts like the start of ``JsonSourceMap.span(pointer, key=at_key)``: equal
    for the same start, smaller for an earlier one. Like ``span``, a pointer that goes past
    what the document has stands for its nearest existing ancestor. ``orders`` keeps each
    object's member positions between calls (by id: the data must outlive it)."""
    key: list[int] = []
    node = data
    if orders is None:
        orders = {}
    for token in pointer:
        text = str(token)
        if type(node) is dict:
            order = orders.get(id(node))
            if order is None:
                order = orders[id(node)] = {name: index for index, name in enumerate(node)}
            index = order.get(text)
            if index is None:
                return tuple(key)
            key += (index, 1)
            node = node[text]
            member = True
        elif type(node) is list:
            if not (text.isascii() and text.isdigit()) or int(text) >= len(node):
                return tuple(key)
            key += (int(text), 1)
            node = node[int(text)]
            member = False
        else:
            return tuple(key)
    else:
        if at_key and key and member:  # the member's key, just before its value
            key[-1] = 0
    return tuple(key)


def leading(items: list, pointer_of, array: tuple, length: int, count: int) -> list:
    """The ``items`` (in the order a rule found them) that can be among the ``count`` with
    the smallest start keys, so that only those need ``start_key``. All of them, unless their
    pointers run in order through the entries of the array at ``array`` (``length`` entries),
    as a tool rule's do: the entry index is then the first part of their keys that differs,
    so the first ``count`` lie at or before the entry of the ``count``-th item."""
    if len(items) <= count:
        return items
    depth, last, indices = len(array), -1, []
    for item in items:
        ptr = pointer_of(item)
        index = ptr[depth] if len(ptr) > depth else None
        if type(index) is not int or not last <= index < length or ptr[:depth] != array:
            return items  # anywhere else, or out of order: rank them all
        indices.append(index)
        last = index
    end = count
    while end < len(items) and indices[end] == indices[count - 1]:
        end += 1
    return items[:end]
