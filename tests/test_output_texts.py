"""``outputs.output_texts`` reads a flat structuredContent object without the general walk
(``_flat_strings``): the texts, pointers and descriptions must be the walk's, in its order."""

from __future__ import annotations

import random

import pytest

from mcplint.capture import outputs
from mcplint.capture.records import Record
from mcplint.capture.session import Message
from mcplint.document.pointer import Pointer


def _answer(structured) -> Message:
    data = {"jsonrpc": "2.0", "id": 1, "result": {
        "content": [{"type": "text", "text": "done"}, {"type": "text", "text": "K042"}], "structuredContent": structured}}
    record = Record(3, Pointer((3, "message")), "server", data)
    return Message(record, data, record.base, "server", "response")


def _values(seed: int) -> list:
    rng = random.Random(seed)
    scalars = ["K042", "done", "", "a/b", "\x1b[31mred", 4, 2.5, True, None, "K042"]
    found = [{}, {"only": 1}, {"a": "x", "b": "x"}, {f"k{i}": f"v{i}" for i in range(outputs.MAX_STRINGS + 3)},
             {"nested": {"inner": "deep"}}, {"list": ["a", "b"]}, ["top", "level"], "just a string", 5]
    for _ in range(40):
        found.append({f"key{i}": rng.choice(scalars) for i in range(rng.randrange(0, 6))})
    return found


@pytest.mark.parametrize("structured", _values(7), ids=lambda v: type(v).__name__)
def test_flat_objects_read_as_the_walk_reads_them(monkeypatch, structured):
    fast = outputs.output_texts(_answer(structured))
    monkeypatch.setattr(outputs, "_flat_strings", lambda *args: False)
    assert fast == outputs.output_texts(_answer(structured))


def test_the_fast_path_is_taken_for_a_flat_object(monkeypatch):
    taken = []
    original = outputs._flat_strings
    monkeypatch.setattr(outputs, "_flat_strings", lambda *args: taken.append(original(*args)) or taken[-1])
    texts = outputs.output_texts(_answer({"station": "K042", "note": "cold", "celsius": 4}))
    assert taken == [True]
    assert [(str(ptr), what, text) for ptr, what, text in texts] == [
        ("/3/message/result/content/0/text", "content block 1", "done"),
        ("/3/message/result/content/1/text", "content block 2", "K042"),
        ("/3/message/result/structuredContent/note", "structuredContent string at /note", "cold"),
    ]
