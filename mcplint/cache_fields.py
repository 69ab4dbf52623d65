"""The caching fields of 2026-07-28 results (`ttlMs`, `cacheScope`), as MCP109, MCP641 and MCP644 read them."""

from __future__ import annotations

SCOPES = ("public", "private")


def valid_ttl(value) -> bool:
    """An integer >= 0; 60000.0 counts, as in JSON Schema (and 10**400 does not overflow a float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return value >= 0 and (isinstance(value, int) or value.is_integer())
