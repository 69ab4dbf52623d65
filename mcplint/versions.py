"""Released MCP protocol versions, oldest first."""

from __future__ import annotations

V2024_11_05 = "2024-11-05"
V2025_03_26 = "2025-03-26"
V2025_06_18 = "2025-06-18"
V2025_11_25 = "2025-11-25"
V2026_07_28 = "2026-07-28"

VERSIONS: tuple[str, ...] = (V2024_11_05, V2025_03_26, V2025_06_18, V2025_11_25, V2026_07_28)
LATEST = VERSIONS[-1]
LATEST_HANDSHAKE = V2025_11_25  # newest version negotiated with `initialize`
ALL = frozenset(VERSIONS)


def since(version: str) -> frozenset[str]:
    """This version and every later one."""
    return frozenset(VERSIONS[VERSIONS.index(version):])


def until(version: str) -> frozenset[str]:
    """Every version up to and including this one."""
    return frozenset(VERSIONS[: VERSIONS.index(version) + 1])


def is_stateless(version: str) -> bool:
    return version >= V2026_07_28
