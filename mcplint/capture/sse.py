"""Server-sent events (text/event-stream) as the WHATWG spec parses them."""

from __future__ import annotations

from dataclasses import dataclass

from mcplint.regex_cache import regex

_LINE = regex(r"([^\r\n]*)(\r\n|\r|\n|$)")


@dataclass(slots=True)
class Event:
    data: str  # data lines joined with "\n"
    offset: int  # where the first data value starts in the body (for locating findings)
    id: str | None
    event: str | None
    complete: bool  # False for an event the body ends in the middle of


def parse(body: str) -> list[Event]:
    """Every event that carries data, in order. Comments, `retry` and events without data
    (priming events) are dropped; an unterminated last event is kept with complete=False."""
    events: list[Event] = []
    data: list[str] = []
    offset = -1
    event_id = event_type = None
    position = 0
    while position < len(body):
        match = _LINE.match(body, position)
        line, ending = match.group(1), match.group(2)
        start = position
        position = match.end()
        if not line:
            if any(data):  # an empty data buffer dispatches nothing (SSE priming events)
                events.append(Event("\n".join(data), offset, event_id, event_type, True))
            data, offset, event_type = [], -1, None
            if not ending:
                break
            continue
        if line.startswith(":"):
            continue
        name, colon, value = line.partition(":")
        skip = 1 if value.startswith(" ") else 0
        value = value[skip:] if colon else ""
        if name == "data":
            if offset < 0:
                offset = start + len(name) + len(colon) + skip
            data.append(value)
        elif name == "id" and "\0" not in value:
            event_id = value
        elif name == "event":
            event_type = value
        if not ending:
            break
    if any(data):
        events.append(Event("\n".join(data), offset, event_id, event_type, False))
    return events


def is_event_stream(content_type) -> bool:
    """Whether a Content-Type (any JSON value a capture holds) names an SSE stream."""
    return isinstance(content_type, str) and content_type.split(";")[0].strip().lower() == "text/event-stream"
