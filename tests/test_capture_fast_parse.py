"""Transcript lines parsed with msgspec read exactly as with the stdlib json: where they would
differ (big integers, NaN, lone surrogates, deep nesting, bad bytes) the line goes to json."""

from __future__ import annotations

import pytest

from mcplint import fast_json
from mcplint.capture import content, jsonl

LINES = [
    b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}',
    b'{"jsonrpc": "2.0", "id": 123456789012345678901234567890, "result": {}}',
    b'{"jsonrpc": "2.0", "id": -9223372036854775809, "result": {}}',
    b'{"jsonrpc": "2.0", "id": 1, "result": {"x": NaN, "y": Infinity, "z": 1e400}}',
    b'{"jsonrpc": "2.0", "id": 1, "result": {"text": "\\ud800 alone"}}',
    b'{"a": 1, "a": 2, "from": "client", "message": {"jsonrpc": "2.0", "method": "x"}}',
    b'\xef\xbb\xbf{"jsonrpc": "2.0", "id": 1, "method": "ping"}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "caf\xe9"}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "ping"',
    b'[' * 600 + b']' * 600,
    b'[' * 5000 + b']' * 5000,
    b'{"from": "server", "message": null, "http": {"status": 202}}',
    b'"just a string"',
    b'\x1c',
    b'{"jsonrpc": "2.0", "id": 1.0, "result": {"v": [-0.0, 5e-324, 0.1e1]}} \r',
    b'{"jsonrpc": "2.0", "id": 1, "result": {"text": "tab\tinside"}}',
    b'{"jsonrpc": "2.0", "id": 1, "result": {"text": "\\ud83d\\ude00 \\u0000 \x7f"}}',
    b'{"jsonrpc": "2.0", "id": ' + b'7' * 4000 + b', "result": {}}',
    b'{"jsonrpc": "2.0", "id": ' + b'7' * 5000 + b', "result": {}}',
]


def _parsed(line: bytes):
    record, column = jsonl.parse_line(3, line, len(line), 1 << 20)
    if record is None:
        return None, column
    return (record.base, record.sender, repr(record.message), record.http, record.problem, record.size), column


@pytest.mark.parametrize("line", LINES)
def test_fast_parse_reads_like_json(line, monkeypatch):
    fast = _parsed(line)
    monkeypatch.setattr(fast_json, "_decode", None)
    assert fast == _parsed(line)


@pytest.mark.parametrize("line", LINES)
def test_a_result_text_parses_like_json(line, monkeypatch):
    """content.parsed_text (is a text block the structured content's JSON?) reads alike."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return
    fast = repr(content.parsed_text(text))
    monkeypatch.setattr(fast_json, "_decode", None)
    assert fast == repr(content.parsed_text(text))
