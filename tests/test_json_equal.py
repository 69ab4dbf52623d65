"""``content.json_equal`` (MCP723 compares a text block's JSON with structuredContent by it)
takes a fast path when both values have the same Python type; it must answer as the plain
definition does: 1 == 1.0, true is not 1, objects by keys, arrays in order."""

from __future__ import annotations

import itertools
import math
import random

from mcplint.capture.content import json_equal


def reference(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(reference(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(reference(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


SCALARS = [0, 1, 1.0, 0.0, -0.0, 2.5, True, False, None, "", "1", "a", math.nan, math.inf, 10**30, float(10**30)]


def _value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth > 2 or roll < 0.5:
        return rng.choice(SCALARS)
    if roll < 0.75:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {rng.choice("abc"): _value(rng, depth + 1) for _ in range(rng.randrange(3))}


def test_scalars_pairwise():
    for a, b in itertools.product(SCALARS, repeat=2):
        assert json_equal(a, b) is reference(a, b), (a, b)


def test_nested_values_as_the_reference():
    rng = random.Random(5)
    equal = 0
    for _ in range(20000):
        a = _value(rng)
        b = a if rng.random() < 0.3 else _value(rng)
        expected = reference(a, b)
        equal += expected
        assert json_equal(a, b) is expected, (a, b)
    assert equal > 1000  # both answers are exercised
