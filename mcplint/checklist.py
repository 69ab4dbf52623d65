"""The 21-item MCP server compliance checklist."""

from __future__ import annotations

ITEMS: dict[int, str] = {
    1: "Tool names are snake_case, valid and unique",
    2: "Descriptions start with an action verb and are useful",
    3: "No emoji or marketing language",
    4: "inputSchema is present and an object schema",
    5: "Parameters have clear types, descriptions and constraints",
    6: "Schemas are valid JSON Schema (2020-12 by default)",
    7: "Titles are meaningful",
    8: "Errors use standard JSON-RPC codes",
    9: "Protocol errors and tool-execution errors are kept apart",
    10: "Error messages are clear",
    11: "Errors carry context",
    12: "Tools with an outputSchema return structured content",
    13: "Structured content validates against the output schema",
    14: "Structured content is mirrored as text",
    15: "Content blocks have correct types",
    16: "Inputs are validated",
    17: "Access is controlled",
    18: "Requests are rate limited",
    19: "Outputs and descriptions are sanitized",
    20: "Destructive tools ask for confirmation (annotated honestly)",
    21: "MCP-Protocol-Version header is used",
}

NOT_ASSESSABLE_HINT = "not assessable from a manifest — run `mcplint audit` or lint a transcript"

# Items whose subject a protocol version does not have, so nothing can pass or fail before it:
# tool titles (annotations.title) and annotations came in 2025-03-26, structured content and the
# MCP-Protocol-Version header in 2025-06-18.
FEATURE_SINCE: dict[int, tuple[str, str]] = {
    7: ("2025-03-26", "tool titles"),
    12: ("2025-06-18", "structured content"),
    13: ("2025-06-18", "structured content"),
    14: ("2025-06-18", "structured content"),
    20: ("2025-03-26", "tool annotations"),
    21: ("2025-06-18", "MCP-Protocol-Version header"),
}


def missing_feature(item: int, version: str | None) -> str | None:
    """Why ``item`` cannot be assessed at ``version`` (None when the version has its subject)."""
    since = FEATURE_SINCE.get(item)
    if since is None or version is None or version >= since[0]:
        return None
    return f"protocol version {version} has no {since[1]} (it came in {since[0]})"
