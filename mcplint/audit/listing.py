"""Listing a server's tools, prompts and resources: every page, following nextCursor, within bounds
(pages per method, items per method, JSON values over all list pages together)."""

from __future__ import annotations

from typing import Any

from mcplint import progress
from mcplint.audit.server_text import quoted
from mcplint.capture.listing_budget import MAX_LISTED_VALUES
from mcplint.document.value_count import count_values

MAX_PAGES = 50  # per list method
MAX_LISTED = 10_000  # items kept per list method: more tools than any server has, far fewer than a hostile one sends


def list_all(audit, method: str, key: str) -> list[Any]:
    """Every page, following nextCursor (bounded; a repeated cursor ends the loop)."""
    items: list[Any] = []
    cursor, seen = None, set()
    for number in range(1, MAX_PAGES + 1):
        progress.stage(f"listing {_LISTED.get(key, key)}" + (f" (page {number})" if number > 1 else ""))
        reply = audit.request(method, {"cursor": cursor} if cursor is not None else None)
        result = reply.result if reply.ok and isinstance(reply.result, dict) else None
        if result is None:
            break
        page = result.get(key)
        if not _within_budget(audit, method, page):
            break
        if isinstance(page, list):
            room = MAX_LISTED - len(items)
            items.extend(page[:room])
            if len(page) > room or (len(items) >= MAX_LISTED and result.get("nextCursor")):
                audit.notes.append(f"{method}: stopped at {MAX_LISTED:,} {_LISTED.get(key, key)}")
                break
        cursor = result.get("nextCursor")
        modern = audit.session.era == "modern"
        if not isinstance(cursor, str) or (cursor == "" and not modern) or cursor in seen:
            break
        if not _encodable(cursor):
            audit.notes.append(f"{method}: stopped at page {number}: its nextCursor {quoted(cursor, 60)} is not valid "
                               "Unicode (a lone surrogate), so it cannot be sent back")
            break
        seen.add(cursor)
    else:
        audit.notes.append(f"{method}: stopped after {MAX_PAGES} pages")
    return items


_LISTED = {"resourceTemplates": "resource templates"}


def _within_budget(audit, method: str, page: Any) -> bool:
    """Pages are kept while all the list pages together hold at most MAX_LISTED_VALUES JSON values
    (each page is under the per-message cap, but endless pages would add up to gigabytes); the
    lint of the transcript cuts the listing at the same page (mcplint.capture.listing_budget)."""
    left = MAX_LISTED_VALUES - audit.listed_values
    count = count_values(page, left)
    if count <= left:
        audit.listed_values += count
        return True
    audit.notes.append(f"{method}: stopped listing at {audit.listed_values:,} JSON values over all list pages "
                       f"({MAX_LISTED_VALUES:,} at most); the page past it was not kept, and no more were asked for")
    return False


def _encodable(text: str) -> bool:
    """Whether a string the server sent can go back in a JSON text as UTF-8 (a lone surrogate cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
