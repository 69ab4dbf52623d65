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


# -- what a pass needs ------------------------------------------------------------------------
# An item passes only when something it judges was seen, not merely when no rule complained.
# Items about the tool listing need a listed tool with the item's subject (a title, parameters,
# annotations...); items about behaviour need a traffic rule that judged traffic (a TrafficRule
# calls ``session.assess``). The schema rules of item 16 can fail it but never pass it: only a call
# with invalid arguments shows that inputs are validated. Item 19 needs both halves: descriptions
# from a listing and outputs from traffic.
LISTING_ITEMS = frozenset({1, 2, 3, 4, 5, 6, 7, 19, 20})
TRAFFIC_ITEMS = frozenset({8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21})
HTTP_ITEMS = frozenset({17, 21})  # access control and the version header exist only over HTTP
STRUCTURED_ITEMS = frozenset({12, 13, 14})  # about tools that declare an outputSchema

NO_RULE = "no selected rule checks it"
NO_OUTPUT_SCHEMA = "no tool declares an outputSchema"
OUTPUTS_HINT = "tool outputs are not in a manifest — run `mcplint audit` or lint a transcript"
_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def listing_gaps(tools, version: str | None, none: str, other_entries: bool = False) -> dict[int, str]:
    """Items a tool listing holds nothing to judge for, and why: ``none`` (e.g. "the manifest lists
    no tools") when it has no tool, else "no tool has a title" and the like. ``tools``: the listed
    tool objects. Items 12-14 are included: without an outputSchema there is no call to wait for.
    ``other_entries``: the listing also has prompts or resources, whose texts items 3 and 19 judge."""
    tools = [tool for tool in tools if isinstance(tool, dict)]
    if not tools:
        texts_judged = {3, 19} if other_entries else set()
        return dict.fromkeys(sorted((LISTING_ITEMS | STRUCTURED_ITEMS) - texts_judged), none)
    gaps: dict[int, str] = {}
    if not any(_has_parameters(tool) for tool in tools):
        gaps[5] = "no tool has parameters"
    if not any("inputSchema" in tool or "outputSchema" in tool for tool in tools):
        gaps[6] = "no tool has an input or output schema"
    if not any(_has_title(tool, version) for tool in tools):
        gaps[7] = "no tool has a title"
    if not any(isinstance(tool.get("outputSchema"), dict) for tool in tools):
        gaps.update(dict.fromkeys(sorted(STRUCTURED_ITEMS), NO_OUTPUT_SCHEMA))
    if not any(_annotated(tool) for tool in tools) and not any(_destructive(tool) for tool in tools):
        gaps[20] = "no tool is annotated or looks destructive"
    return gaps


def _has_parameters(tool: dict) -> bool:
    schema = tool.get("inputSchema")
    properties = schema.get("properties") if isinstance(schema, dict) else None
    return isinstance(properties, dict) and bool(properties)


def _has_title(tool: dict, version: str | None) -> bool:
    annotations = tool.get("annotations")
    if isinstance(annotations, dict) and isinstance(annotations.get("title"), str):
        return True
    return isinstance(tool.get("title"), str) and (version is None or version >= "2025-06-18")


def _annotated(tool: dict) -> bool:
    """Annotations the annotation rules judge: a hint, or a malformed value (MCP413)."""
    annotations = tool.get("annotations")
    if annotations is None:
        return False
    return not isinstance(annotations, dict) or any(key in annotations for key in _HINTS)


def _destructive(tool: dict) -> bool:
    from mcplint.risk import destructive_intent  # what MCP410/MCP411 judge an unannotated tool by

    return destructive_intent(tool.get("name"), tool.get("description")) is not None
