"""HAR 1.2 captures: the MCP exchanges among a browser's or proxy's recorded entries.

Messages live inside HAR strings (request bodies, JSON or SSE response bodies), so a
finding inside one is located by mapping the embedded JSON's offsets back through the
string's escapes to the HAR file's own line and column.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

from mcplint import fast_json
from mcplint.capture import sse
from mcplint.capture.records import CLIENT, SERVER, Record, headers_dict, is_jsonrpc
from mcplint.document.jsonmap import JsonSourceMap
from mcplint.document.loader import Document
from mcplint.document.pointer import Pointer
from mcplint.document.span import LineIndex, Span
from mcplint.document.string_offsets import StringOffsets
from mcplint.document.value_count import MAX_VALUES, holds_too_many
from mcplint.errors import InputError


class Embedded:
    """One JSON message inside a HAR string: the decoded string and where the JSON starts."""

    __slots__ = ("string_pointer", "body", "offset", "length", "exact", "_map")

    def __init__(self, string_pointer: Pointer, body: str, offset: int, length: int, exact: bool) -> None:
        self.string_pointer, self.body, self.offset, self.length, self.exact = string_pointer, body, offset, length, exact
        self._map: JsonSourceMap | None = None

    def prepare(self, pointers) -> None:
        if self._map is None:
            self._map = JsonSourceMap(self.body[self.offset: self.offset + self.length])
        try:
            self._map.prepare(pointers)
        except (ValueError, IndexError):  # not valid JSON: offsets() answers the whole message
            pass

    def offsets(self, inner: Pointer, key: bool, within: tuple[int, int] | None = None) -> tuple[int, int, Pointer]:
        if self._map is None:
            self._map = JsonSourceMap(self.body[self.offset: self.offset + self.length])
        try:
            start, end, found = self._map.offsets(inner, key, within)
        except (ValueError, IndexError):  # the message is not valid JSON: the whole of it
            return self.offset, self.offset + self.length, Pointer()
        return self.offset + start, self.offset + end, found


def records(document: Document, embedded: dict) -> Iterator[Record]:
    """The MCP records of a HAR document, in request order, made as they are read (a HAR file
    of 120,000 entries held 200 MB of records at once), each record with a message inside a
    HAR string entered in ``embedded`` (``HarSource.embedded``) as it is made. The file's
    shape is checked at once."""
    entries = _entries(document)
    endpoints = {url for _, entry in entries if _carries_jsonrpc(entry) for url in [_url(entry)] if url}
    if not endpoints:
        raise InputError(
            document.path, f"no MCP traffic in this HAR file: none of its {len(entries)} entries carries JSON-RPC"
        )
    mcp = [(i, e) for i, e in entries if _url(e) in endpoints]
    mcp.sort(key=lambda item: (*_started(item[1]), item[0]))
    return _made(mcp, embedded)


def _made(mcp: list[tuple[int, dict]], embedded: dict) -> Iterator[Record]:
    index = 0
    for original, entry in mcp:
        for record in _entry_records(original, entry):
            record.index = index
            index += 1
            if record.embedded is not None:
                embedded[tuple(map(str, record.base))] = record.embedded
            yield record


def _entries(document: Document) -> list[tuple[int, dict]]:
    log = document.data.get("log") if isinstance(document.data, dict) else None
    entries = log.get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list):
        raise InputError(document.path, "not a HAR file: expected {\"log\": {\"entries\": [...]}}")
    return [(i, e) for i, e in enumerate(entries) if isinstance(e, dict)]


def _url(entry: dict) -> str | None:
    request = entry.get("request")
    url = request.get("url") if isinstance(request, dict) else None
    return url.split("#")[0] if isinstance(url, str) else None


def _carries_jsonrpc(entry: dict) -> bool:
    request, response = entry.get("request") or {}, entry.get("response") or {}
    post = request.get("postData") if isinstance(request, dict) else None
    content = response.get("content") if isinstance(response, dict) else None
    texts = [post.get("text") if isinstance(post, dict) else None, _body(content)[0]]
    return any(isinstance(t, str) and '"jsonrpc"' in t for t in texts)


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _started(entry: dict) -> tuple[int, int]:
    """Sort key of an entry's start time: (0, microseconds since 1970 UTC) when it is an ISO
    8601 time (one without a zone is taken as UTC), else (1, 0): such entries keep their file
    order after the dated ones. Integers, so the order is total whatever the file holds
    (naive and aware times mixed, years past 9999, numbers, nothing at all)."""
    stamp = entry.get("startedDateTime")
    if not isinstance(stamp, str) or len(stamp) > 64:
        return 1, 0
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00").replace("z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        return 0, (moment - _EPOCH) // timedelta(microseconds=1)
    except (ValueError, OverflowError, TypeError):
        return 1, 0


def _body(content) -> tuple[str | None, bool]:
    """(decoded body text, whether it was decoded from base64)."""
    if not isinstance(content, dict) or not isinstance(content.get("text"), str):
        return None, False
    text = content["text"]
    if content.get("encoding") == "base64":
        try:
            return base64.b64decode(text, validate=False).decode("utf-8", "replace"), True
        except (binascii.Error, ValueError):
            return None, True
    return text, False


def _header_pointers(base: Pointer, pairs) -> dict[str, Pointer]:
    found: dict[str, Pointer] = {}
    for k, pair in enumerate(pairs if isinstance(pairs, list) else ()):
        if isinstance(pair, dict) and isinstance(pair.get("name"), str):
            found.setdefault(pair["name"].lower(), base / "headers" / k / "value")
    return found


def _entry_records(i: int, entry: dict) -> list[Record]:
    at = ("log", "entries", i)  # pointers are built from tuples: a HAR file may hold 100,000 entries
    request = entry.get("request") if isinstance(entry.get("request"), dict) else {}
    response = entry.get("response") if isinstance(entry.get("response"), dict) else {}
    post = request.get("postData") if isinstance(request.get("postData"), dict) else {}
    client = Record(
        0, Pointer((*at, "request", "postData", "text")), CLIENT, None,
        {"method": request.get("method"), "url": request.get("url"), "headers": headers_dict(request.get("headers"))},
        http_base=Pointer((*at, "request")), header_pointers=_header_pointers(Pointer((*at, "request")), request.get("headers")),
    )
    text = post.get("text") if isinstance(post.get("text"), str) else None
    if text and text.strip():
        try:
            client.message = _loads(text)
            if holds_too_many(text, client.message):
                client.message, client.problem = None, (client.base, _TOO_MANY)
            client.embedded = Embedded(client.base, text, len(text) - len(text.lstrip()), len(text.strip()), True)
        except (ValueError, RecursionError):
            client.raw_body = text
    found = [client]
    status = response.get("status")
    http = {"status": status if isinstance(status, int) else None, "headers": headers_dict(response.get("headers"))}
    content = response.get("content")
    body, from_base64 = _body(content)
    text_ptr = Pointer((*at, "response", "content", "text"))
    response_ptr = Pointer((*at, "response"))
    common = dict(http_base=response_ptr, request=client,
                  header_pointers=_header_pointers(response_ptr, response.get("headers")))
    content_type = content.get("mimeType") if isinstance(content, dict) else None
    if not isinstance(content_type, str) or not content_type:
        content_type = http["headers"].get("Content-Type")
    if body and sse.is_event_stream(content_type) or (body and body.lstrip().startswith(("data:", "id:", "event:"))):
        for k, event in enumerate(sse.parse(body)):
            record = Record(0, text_ptr / k, SERVER, None, dict(http), **common)
            record.embedded = Embedded(text_ptr, body, event.offset, len(event.data), not from_base64 and "\n" not in event.data)
            _parse_into(record, event.data, event.complete)
            found.append(record)
        if len(found) == 1:
            found.append(Record(0, text_ptr, SERVER, None, dict(http), **common))
    elif body and body.strip():
        record = Record(0, text_ptr, SERVER, None, dict(http), **common)
        record.embedded = Embedded(text_ptr, body, len(body) - len(body.lstrip()), len(body.strip()), not from_base64)
        _parse_into(record, body, True)
        found.append(record)
    else:
        found.append(Record(0, text_ptr, SERVER, None, dict(http), **common))
    return found


_TOO_MANY = f"body holds more than {MAX_VALUES:,} JSON values, the limit for one message"


def _loads(text: str):
    """json.loads(text), by msgspec where it reads the text as json does (a HAR file of
    120,000 small bodies spent a fifth of its time in json)."""
    if fast_json.pays(len(text)):
        try:
            return fast_json.fast_loads(text)
        except ValueError:
            pass
    return json.loads(text)


def _parse_into(record: Record, text: str, complete: bool) -> None:
    try:
        record.message = _loads(text)
        if holds_too_many(text, record.message):
            record.message, record.problem = None, (record.base, _TOO_MANY)
        elif not is_jsonrpc(record.message):  # a JSON body that is not JSON-RPC (an OAuth error, ...)
            record.raw_body, record.message = text, None
    except (ValueError, RecursionError) as err:
        if text.lstrip()[:1] in ("{", "["):
            what = "SSE event ends early" if not complete else "body is not valid JSON"
            record.problem = (record.base, f"{what}: {getattr(err, 'msg', err)}")
        else:
            record.raw_body = text


class HarSource:
    """Locates pointers in a HAR file, including pointers into the JSON embedded in its strings."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self.map: JsonSourceMap = document.source_map
        self.embedded: dict[tuple, Embedded] = {}  # records() enters each record's as it makes it
        self._lines: LineIndex | None = None
        self._strings: dict[int, StringOffsets] = {}  # quote offset -> escapes of that string

    def prepare(self, pointers) -> None:
        """Resolve all pointers in one walk of the file and one walk of each embedded message
        named (not one walk per finding: a body can hold thousands of them)."""
        outer, inner = [], {}
        for pointer in pointers:
            string_pointer, embedded, rest = self._outer(pointer)
            outer.append(string_pointer)
            if embedded is not None:
                inner.setdefault(id(embedded), (embedded, []))[1].append(rest)
        self.map.prepare(outer)
        for embedded, rests in inner.values():
            embedded.prepare(rests)

    def _outer(self, pointer: Pointer) -> tuple[Pointer, Embedded | None, Pointer]:
        tokens = tuple(map(str, pointer))
        for depth in (7, 6):
            embedded = self.embedded.get(tokens[:depth])
            if embedded is not None:
                return embedded.string_pointer, embedded, Pointer(pointer[depth:])
        return pointer, None, Pointer()

    def span(self, pointer: Pointer, key: bool = False, within: tuple[int, int] | None = None) -> tuple[Span, Pointer]:
        outer, embedded, inner = self._outer(pointer)
        start, end, found = self.map.offsets(outer, key and embedded is None, within if embedded is None else None)
        if self._lines is None:
            self._lines = LineIndex(self.document.text)
        if embedded is None or not embedded.exact or found != outer:
            return self._lines.span(start, end), found
        inner_start, inner_end, inner_found = embedded.offsets(inner, key, within)
        string = self._strings.get(start)
        if string is None:
            string = self._strings[start] = StringOffsets(self.document.text, start + 1, end - 1)
        return self._lines.span(string.raw(inner_start), string.raw(inner_end)), \
            Pointer(pointer[: len(pointer) - len(inner)] + tuple(inner_found))
