"""How much of a capture's listing is kept: the pages of tools/list, prompts/list, resources/list
and resources/templates/list are linted, and their tools kept for the rest of the session, while
together they hold at most ``MAX_LISTED_VALUES`` JSON values.

Each message is capped at ``MAX_VALUES`` values (mcplint.document.value_count), but a server can
send endless pages under that cap, and every page kept costs memory: three pages of 480,000
values took 490 MB, six took 922 MB. Past the budget a page is neither linted nor kept, the
listing is counted as incomplete (no call is then judged against it as unknown) and a note says
where it was cut. Real listings hold a few thousand values; the 10,000-tool benchmark 282,000."""

from __future__ import annotations

from mcplint.document.value_count import MAX_VALUES, count_values

MAX_LISTED_VALUES = MAX_VALUES  # over all list pages of a session together


def admit(session, method: str, entries) -> bool:
    """Whether a new list page fits the session's listing budget (and is then counted in it)."""
    if session.listing_cut is not None:
        return False
    left = MAX_LISTED_VALUES - session.listed_values
    count = count_values(entries, left)
    if count <= left:
        session.listed_values += count
        return True
    session.listing_cut = (f"the listing was cut at {session.listed_values:,} JSON values ({MAX_LISTED_VALUES:,} at "
                           f"most over all list pages): from this {method} page on, pages were neither linted nor kept")
    return False
