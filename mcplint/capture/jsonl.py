"""JSONL transcripts, streamed: one record per line, in constant memory.

A transcript can be gigabytes. Lines are read in chunks and parsed one at a time;
only each line's byte offset is kept, so findings are located afterwards by
reading just the lines they name again.
"""

from __future__ import annotations

import json
import re
from array import array
from bisect import bisect_left
from typing import IO, Iterator

from mcplint.capture.records import CLIENT, SERVER, Record, is_jsonrpc
from mcplint.document.jsonmap import JsonSourceMap
from mcplint.document.pointer import Pointer
from mcplint.document.span import Span
from mcplint.document.value_count import MAX_VALUES, holds_too_many
from mcplint import fast_json
from mcplint.fast_json import fast_loads
from mcplint.regex_cache import regex


CHUNK = 1 << 20
SAMPLE = 64 << 10  # the start of a chunk whose newlines tell a chunk of mostly blank lines
_new = tuple.__new__  # Pointer(...) without its Python-level __new__
LONG_LINE = 256 << 10  # a line longer than this is kept in memory only while findings on it are located
WRAPPER_KEYS = ("from", "message", "http")  # (to_record tests them one by one)
_BLANK = b" \t\r\x0b\x0c"  # what a line may hold and still be blank (bytes.strip()'s whitespace but newline)
# A line with more than that on it. The search starts only at line starts, and blank lines
# never become objects: a million of them cost nothing.
_FILLED = regex(rb"^[ \t\r\x0b\x0c]*[^ \t\r\n\x0b\x0c][^\n]*", re.M)


class Lines:
    """The non-blank lines of a stream as (line index, byte offset, line bytes or None when
    longer than ``max_line``, length). Blank and whitespace-only lines are only counted:
    a file of a million newlines costs no more memory than an empty one."""

    def __init__(self, handle: IO[bytes], max_line: int) -> None:
        self.handle, self.max_line = handle, max_line
        self.count = 0  # lines read so far, blank ones included

    def __iter__(self) -> Iterator[tuple[int, int, bytes | None, int]]:
        handle, max_line = self.handle, self.max_line
        index = offset = 0  # line index and byte offset where `pending` starts
        pending = b""
        skipped = -1  # >= 0 while discarding an overlong line: bytes discarded so far
        while chunk := handle.read(CHUNK):
            if skipped >= 0:
                end = chunk.find(b"\n")
                if end == -1:
                    skipped += len(chunk)
                    continue
                yield index, offset, None, skipped + end
                offset += skipped + end + 1
                index += 1
                skipped = -1
                chunk = chunk[end + 1:]
            sample = min(len(chunk), SAMPLE)
            if chunk.count(b"\n", 0, sample) * 16 < sample:
                # One split per chunk, not a regex match per line: the per-line cost of a million-line
                # transcript is most of what reading it costs. The chunk is split as read (no copy
                # of it joined to the unfinished line before it).
                lines = chunk.split(b"\n")
                if len(lines) > 1:
                    if pending:
                        lines[0] = pending + lines[0]
                    pending = lines.pop()  # the line the chunk leaves unfinished
                    for line in lines:
                        length = len(line)
                        if length and (line[0] == 123 or line.strip(_BLANK)):  # 123: "{", as most lines start
                            yield index, offset, line if length <= max_line else None, length
                        index += 1
                        offset += length + 1
                else:  # no newline: the unfinished line goes on
                    pending += chunk
            else:  # mostly blank lines (a split would list each): the regex skips them in C
                pending += chunk
                cut = pending.rfind(b"\n") + 1  # the complete lines end here
                at = 0
                for match in _FILLED.finditer(pending, 0, cut):
                    start, end = match.span()
                    index += pending.count(b"\n", at, start)
                    at = start
                    yield index, offset + start, match.group() if end - start <= max_line else None, end - start
                index += pending.count(b"\n", at, cut)
                offset += cut
                pending = pending[cut:]
            self.count = index
            if len(pending) > max_line:
                skipped, pending = len(pending), b""
        if skipped >= 0:
            yield index, offset, None, skipped
            index += 1
        elif pending:
            if pending.strip():
                yield index, offset, pending if len(pending) <= max_line else None, len(pending)
            index += 1
        self.count = index


def read_lines(handle: IO[bytes], max_line: int) -> Iterator[tuple[int, int, bytes | None, int]]:
    """The non-blank lines of ``handle`` (see ``Lines``)."""
    return iter(Lines(handle, max_line))


def parse_line(index: int, data: bytes | None, length: int, max_line: int) -> tuple[Record | None, int | None]:
    """The record a line holds (None for a blank line) and, for a line that is not JSON,
    the 1-based column where parsing failed."""
    if data is not None:
        try:  # json, below, reads (and reports) what msgspec cannot read as it would
            value = fast_loads(data)
        except ValueError:
            pass
        else:
            if holds_too_many(data, value):
                return _too_many_values(index), None
            record = to_record(index, value)
            record.size = length
            return record, None
    where = _new(Pointer, (index,))
    if data is None:
        problem = f"line is {length / 1048576:.1f} MiB, over the {max_line // 1048576} MiB limit for one message"
        return Record(index, where, None, None, problem=(where, problem)), None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        return Record(index, where, None, None, problem=(where, f"not valid UTF-8 (byte 0x{data[err.start]:02x})")), \
            len(data[: err.start].decode("utf-8", "replace")) + 1
    if not text.strip():
        return None, None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        cut = err.pos >= len(text.rstrip()) or err.msg.startswith("Unterminated string")
        what = "truncated JSON" if cut else "not valid JSON"
        return Record(index, where, None, None, problem=(where, f"{what}: {err.msg}")), err.colno
    except (ValueError, RecursionError) as err:
        return Record(index, where, None, None, problem=(where, f"not valid JSON: {err}")), None
    if holds_too_many(data, value):
        return _too_many_values(index), None
    record = to_record(index, value)
    record.size = length
    return record, None


def _too_many_values(index: int) -> Record:
    where = _new(Pointer, (index,))
    return Record(index, where, None, None, problem=(where, f"line holds more than {MAX_VALUES:,} JSON values, "
                                                            "the limit for one message"))


def to_record(index: int, value) -> Record:
    if isinstance(value, dict) and "jsonrpc" not in value and ("from" in value or "message" in value or "http" in value):
        get = value.get
        sender, http = get("from"), get("http")
        record = Record(index, _new(Pointer, (index, "message")), sender, get("message"), http)
        if sender != CLIENT and sender != SERVER and "from" in value:
            record.problem = (_new(Pointer, (index, "from")), f"'from' must be \"client\" or \"server\", not {json.dumps(sender)}")
            record.sender = None
        if type(http) is not dict and "http" in value and not isinstance(http, dict):
            record.problem = (_new(Pointer, (index, "http")), "'http' must be an object")
            record.set_http(None)
        probe = get("probe")
        if probe is not None and isinstance(probe, str):
            record.probe = probe
        if http is None and record.message is None and record.sender == SERVER:
            if isinstance(get("raw"), str):
                record.raw_body = value["raw"]  # a line a stdio server wrote that is not JSON (`mcplint audit --record`)
            if type(get("exit")) is int:
                record.exited = value["exit"]  # the stdio server exited mid-audit (`mcplint audit --record`)
        status = record.status
        if status is not None and record.message is None and isinstance(get("raw"), str):
            # an error page `mcplint audit --record` kept (as a HAR keeps it), or a 2xx body it could not read
            record.raw_body = value["raw"]
        elif status is not None and status >= 400:
            if record.message is not None and not is_jsonrpc(record.message):
                # An HTTP error's own JSON body (OAuth's {"error": "invalid_token"}), not JSON-RPC.
                record.raw_body, record.message = json.dumps(record.message), None
        return record
    where = _new(Pointer, (index,))
    if isinstance(value, (dict, list)):
        return Record(index, where, None, value)
    return Record(index, where, None, None, problem=(where, "expected a JSON object per line"))


def looks_like_transcript(head: bytes) -> bool:
    """Sniff the start of a file: does it hold JSON-RPC messages or transcript records?"""
    return any(marker in head for marker in (b'"jsonrpc"', b'"from"', b'"message"'))


class JsonlSource:
    """Locates pointers of a streamed transcript by re-reading the lines they name."""

    def __init__(self, handle: IO[bytes], max_line: int = 64 << 20) -> None:
        self.handle, self.max_line = handle, max_line
        # Where each non-blank line is (blank lines are only counted, in ``count``).
        self.indexes = array("q")  # line index, ascending
        self.offsets = array("q")  # byte offset
        self.lengths = array("q")
        self.count = 0  # lines in the file
        self.bad_columns: dict[int, int] = {}  # line index -> column where JSON parsing failed
        self._maps: dict[int, JsonSourceMap | None] = {}
        self._texts: dict[int, str] = {}
        self._long: int | None = None  # the one long line held (see LONG_LINE)
        self._resolved: dict[int, dict] = {}  # long line let go -> the offsets its map had found

    def records(self) -> Iterator[Record]:
        """The records of the stream, in order; each line's place is noted on the way."""
        lines = Lines(self.handle, self.max_line)
        max_line = self.max_line
        add_index, add_offset, add_length = self.indexes.append, self.offsets.append, self.lengths.append
        decode, short = fast_json.decoder(), fast_json.SHORT
        for index, offset, data, length in lines:
            add_index(index)
            add_offset(offset)
            add_length(length)
            if data is not None:  # parse_line's first step, inlined: nearly every line takes it
                try:
                    value = decode(data) if length < short and decode is not None else fast_loads(data)
                except (ValueError, RecursionError):
                    pass
                else:
                    record = to_record(index, value)
                    record.size = length
                    yield record
                    continue
            record, bad_column = parse_line(index, data, length, max_line)
            if bad_column is not None:
                self.bad_columns[index] = bad_column
            if record is not None:
                yield record
        self.count = lines.count

    def _slot(self, index: int) -> int | None:
        slot = bisect_left(self.indexes, index)
        return slot if slot < len(self.indexes) and self.indexes[slot] == index else None

    def _read(self, slot: int) -> bytes:
        """A line's bytes, read without moving the stream the lines are being read from."""
        handle = self.handle
        position = handle.tell()
        try:
            handle.seek(self.offsets[slot])
            return handle.read(self.lengths[slot])
        finally:
            handle.seek(position)

    def record(self, index: int) -> Record | None:
        """The record of line ``index`` parsed again: what a pending request or a record held
        while the version was sought keeps instead of its message (see ``session.Session``)."""
        slot = self._slot(index)
        if slot is None:
            return None
        length = self.lengths[slot]
        data = self._read(slot) if length <= self.max_line else None
        return parse_line(index, data, length, self.max_line)[0]

    def text(self, index: int) -> str:
        if index not in self._texts:
            slot = self._slot(index)
            if slot is None or self.lengths[slot] > (64 << 20):
                return ""
            if self.lengths[slot] > LONG_LINE:
                # One long line at a time: findings on a hundred 1 MiB lines must not hold
                # a hundred of them (their code frames show nothing).
                if self._long is not None:
                    self._texts.pop(self._long, None)
                    let_go = self._maps.pop(self._long, None)
                    if let_go is not None:  # its findings' offsets, found in one walk, stay
                        self._resolved[self._long] = let_go.resolved()
                self._long = index
            self._texts[index] = self._read(slot).decode("utf-8", "replace").rstrip("\r")
        return self._texts[index]

    def _is_long(self, index: int) -> bool:
        slot = self._slot(index)
        return slot is not None and self.lengths[slot] > LONG_LINE

    def _map(self, index: int) -> JsonSourceMap:
        text = self.text(index)
        found = self._maps.get(index)
        if found is None:
            found = self._maps[index] = JsonSourceMap(text, resolved=self._resolved.pop(index, None))
        return found

    def span(self, pointer: Pointer, key: bool = False, within: tuple[int, int] | None = None) -> tuple[Span, Pointer]:
        index = int(pointer[0]) if pointer else 0
        line = index + 1
        text = self.text(index)
        if index in self.bad_columns or len(pointer) <= 1:
            column = self.bad_columns.get(index, 1)
            first = len(text) - len(text.lstrip()) + 1 if column == 1 and text else column
            return Span(line, first, line, max(first + 1, len(text.rstrip()) + 1 if column == 1 else first + 1)), \
                Pointer(pointer[:1])
        try:
            start, end, found = self._map(index).offsets(Pointer(pointer[1:]), key, within)
        except (ValueError, IndexError):  # not JSON after all (prepare() skips long lines)
            return Span(line, 1, line, 2), Pointer(pointer[:1])
        return Span(line, start + 1, line, end + 1), Pointer((pointer[0], *found))

    def prepare(self, pointers) -> None:
        by_line: dict[int, list[Pointer]] = {}
        for ptr in pointers:
            if ptr and str(ptr[0]).isdigit():
                by_line.setdefault(int(ptr[0]), []).append(Pointer(ptr[1:]))
        # Each line is walked once for all its findings; the long ones last, one at a time (text()
        # holds a single long line: the offsets of the one before are kept, its text is not)
        for index, inner in sorted(by_line.items(), key=lambda item: self._is_long(item[0])):
            slot = self._slot(index)
            if index in self.bad_columns or slot is None:
                continue
            try:
                self._map(index).prepare(inner)
            except (ValueError, IndexError):
                self.bad_columns[index] = 1

    def lines(self) -> "SparseLines":
        return SparseLines({i + 1: t for i, t in self._texts.items() if len(t) <= LONG_LINE}, self.count)


class SparseLines:
    """The lines of a large file that code frames need, indexable like a list of all lines."""

    def __init__(self, texts: dict[int, str], count: int) -> None:
        self._texts, self._count = texts, count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: int) -> str:
        return self._texts.get(index + 1, "")
