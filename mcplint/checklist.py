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
