"""The transcript line reader (capture/jsonl.py ``Lines``) against a plain reference: every
non-blank line with its index, byte offset and length, over chunk boundaries, CRLF, missing
final newlines, overlong lines and long runs of blank lines (which switch the reader from one
split per chunk to its regex path and back, mid-file)."""

from __future__ import annotations

import io
import random

import pytest

from mcplint.capture import jsonl

BLANK = b" \t\r\x0b\x0c"


def reference(data: bytes, max_line: int) -> tuple[list, int]:
    found, offset = [], 0
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # the file ends with a newline: no line after it
    for index, line in enumerate(lines):
        if line.strip(BLANK):
            found.append((index, offset, line if len(line) <= max_line else None, len(line)))
        offset += len(line) + 1
    return found, len(lines)


def read(data: bytes, max_line: int) -> tuple[list, int]:
    lines = jsonl.Lines(io.BytesIO(data), max_line)
    return list(lines), lines.count


def _filled(rng: random.Random, max_line: int) -> bytes:
    body = b'{"jsonrpc": "2.0", "id": %d}' % rng.randrange(1000)
    kind = rng.random()
    if kind < 0.1:
        body = b"x" * rng.randrange(max_line - 5, max_line * 3)  # around and over the limit
    elif kind < 0.2:
        body = b"  \t" + body  # indented
    elif kind < 0.3:
        body = b"INFO server ready"  # not JSON, not starting with "{"
    return body + (b"\r" if rng.random() < 0.3 else b"")


def _blank(rng: random.Random) -> bytes:
    return rng.choice([b"", b" ", b"\r", b" \t\r", b"\x0b\x0c"])


def _document(seed: int, max_line: int) -> bytes:
    rng = random.Random(seed)
    lines = []
    for _ in range(rng.randrange(1, 400)):
        if rng.random() < 0.05:
            lines.extend(_blank(rng) for _ in range(rng.randrange(50, 400)))  # a run of blank lines
        else:
            lines.append(_filled(rng, max_line) if rng.random() < 0.7 else _blank(rng))
    data = b"\n".join(lines)
    return data if rng.random() < 0.5 else data + b"\n"


@pytest.mark.parametrize("chunk", [1, 7, 64, 1000, 1 << 20])
@pytest.mark.parametrize("seed", range(12))
def test_lines_match_the_reference(monkeypatch, chunk, seed):
    monkeypatch.setattr(jsonl, "CHUNK", chunk)
    max_line = 120
    data = _document(seed, max_line)
    assert read(data, max_line) == reference(data, max_line)


@pytest.mark.parametrize("data", [b"", b"\n", b"\n\n\n", b"{}", b"{}\n", b" {}", b"\r\n{}\r\n", b"a\nb", b"\n" * 5000 + b"{}"])
def test_small_files(monkeypatch, data):
    monkeypatch.setattr(jsonl, "CHUNK", 3)
    assert read(data, 64) == reference(data, 64)
