"""An incremental parser for `text/event-stream` bodies (the WHATWG SSE format).

Chunks arrive as the network delivers them, so an event, a line, a CRLF pair or a
UTF-8 sequence may be cut anywhere; the parser keeps the unfinished part until the
next chunk. Lines end with CRLF, LF or a lone CR. An event is dispatched at a blank
line, and only when it has data: priming events (an id and empty data) and comment
lines (`: keep-alive`) produce nothing (a browser would fire an empty message for the
former; an audit records messages, and there is none).

One leniency: at the end of the stream an event that was never closed by a blank
line is still dispatched when it has data (a browser drops it). An audit records
what the server sent, so a truncated last event shows up in the transcript rather
than vanishing.

Memory is bounded: an event (its data lines, or one unfinished line) larger than
``MAX_EVENT`` raises ``EventTooLarge`` instead of growing without end.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

MAX_EVENT = 4 * 1024 * 1024  # characters of one event's data, or of one line


class EventTooLarge(ValueError):
    """An event or a line grew past MAX_EVENT."""


@dataclass(frozen=True, slots=True)
class Event:
    data: str
    event: str = "message"
    id: str | None = None
    retry: int | None = None


class SSEParser:
    def __init__(self, max_event: int = MAX_EVENT) -> None:
        self.max_event = max_event
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._tail = ""  # an unfinished line
        self._skip_lf = False  # the last chunk ended with CR: a leading LF belongs to it
        self._first = True  # a BOM is allowed at the very start only
        self._reset()
        self.last_id: str | None = None

    def _reset(self) -> None:
        self._data: list[str] = []
        self._size = 0  # characters in _data
        self._event = ""
        self._id: str | None = None
        self._retry: int | None = None

    def feed(self, chunk: bytes | str) -> list[Event]:
        text = self._decoder.decode(chunk) if isinstance(chunk, bytes) else chunk
        if self._first and text:
            self._first = False
            text = text.removeprefix("\ufeff")
        if self._skip_lf and text:
            self._skip_lf = False
            text = text.removeprefix("\n")
        events: list[Event] = []
        buffer = self._tail + text
        start = 0
        while True:
            cr, lf = buffer.find("\r", start), buffer.find("\n", start)
            if cr == -1 and lf == -1:
                break
            end = lf if cr == -1 or (lf != -1 and lf < cr) else cr
            line = buffer[start:end]
            if buffer[end] == "\r":
                if end + 1 < len(buffer):
                    start = end + 2 if buffer[end + 1] == "\n" else end + 1
                else:  # CR at the end of the chunk: the LF may come next
                    start = end + 1
                    self._skip_lf = True
            else:
                start = end + 1
            event = self._line(line)
            if event is not None:
                events.append(event)
        self._tail = buffer[start:]
        if len(self._tail) > self.max_event:
            raise EventTooLarge(len(self._tail))
        return events

    def close(self) -> list[Event]:
        """End of stream: a pending event with data is dispatched (see the module doc)."""
        events = self.feed(self._decoder.decode(b"", final=True))
        if self._tail:
            event = self._line(self._tail)
            self._tail = ""
            if event is not None:
                events.append(event)
        event = self._dispatch()
        if event is not None:
            events.append(event)
        return events

    def _line(self, line: str) -> Event | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None  # a comment: keep-alive
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "data":
            self._size += len(value) + 1
            if self._size > self.max_event:
                raise EventTooLarge(self._size)
            self._data.append(value)
        elif field == "event":
            self._event = value
        elif field == "id":
            if "\x00" not in value:
                self._id = value
                self.last_id = value
        elif field == "retry":
            if value.isdigit():
                self._retry = int(value)
        return None  # unknown fields are ignored

    def _dispatch(self) -> Event | None:
        data, event, id_, retry = "\n".join(self._data), self._event, self._id, self._retry
        self._reset()
        if not data:  # no data line, or only empty ones (a priming event): no message
            return None
        return Event(data, event or "message", id_, retry)
