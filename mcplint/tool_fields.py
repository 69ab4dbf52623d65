"""The members of the Tool type per protocol version, and the `_meta` key grammar.

Written from the `Tool`, `ToolAnnotations`, `ToolExecution` and `Icon` definitions
of each version's schema.json and the "General fields: _meta" section of the spec
(spec-requirements.md §3.4, §3.6). Used by MCP103, MCP106, MCP107 and MCP108.
"""

from __future__ import annotations

import re

from mcplint import versions
from mcplint.regex_cache import regex
from mcplint.versions import V2025_03_26, V2025_06_18, V2025_11_25

# Tool member -> the versions whose Tool type defines it.
TOOL_FIELDS: dict[str, frozenset[str]] = {
    "name": versions.ALL,
    "description": versions.ALL,
    "inputSchema": versions.ALL,
    "annotations": versions.since(V2025_03_26),
    "title": versions.since(V2025_06_18),
    "outputSchema": versions.since(V2025_06_18),
    "_meta": versions.since(V2025_06_18),
    "icons": versions.since(V2025_11_25),
    "execution": frozenset({V2025_11_25}),  # tasks became an extension in 2026-07-28
}
ANNOTATION_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
ANNOTATION_KEYS = ("title", *ANNOTATION_HINTS)
ICON_KEYS = ("src", "mimeType", "sizes", "theme")
ICON_THEMES = ("light", "dark")
TASK_SUPPORT = ("forbidden", "optional", "required")


_NOWHERE: frozenset[str] = frozenset()


def defined_in(field: str, version: str) -> bool:
    return version in TOOL_FIELDS.get(field, _NOWHERE)


def field_range(field: str) -> str:
    """Where ``field`` exists, in words: "2025-06-18 and later", "only 2025-11-25"."""
    present = [v for v in versions.VERSIONS if v in TOOL_FIELDS[field]]
    if len(present) == 1:
        return f"only in {present[0]}"
    if present[-1] == versions.LATEST:
        return f"from {present[0]} on"
    return f"from {present[0]} to {present[-1]}"


# -- _meta keys (META-02..04) ---------------------------------------------------------

_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_NAME = r"(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?"
_META_KEY = regex(rf"(?:({_LABEL}(?:\.{_LABEL})*)/)?({_NAME})")
_RESERVED_LABELS = ("modelcontextprotocol", "mcp")
# Keys the spec or an official extension defines under its own prefix: MCP's use, not squatting.
MCP_DEFINED_KEYS = frozenset(
    "io.modelcontextprotocol/" + name for name in (
        "protocolVersion", "clientCapabilities", "clientInfo", "logLevel", "serverInfo", "subscriptionId",
        "related-task", "model-immediate-response", "oauth-client-credentials", "tasks", "ui",
    )
)


def meta_key_problem(key: str, version: str) -> str | None:
    """Why ``key`` breaks the `_meta` key rules of ``version`` (2025-06-18 and later), or None."""
    match = _META_KEY.fullmatch(key)
    if match is None:
        prefix, slash, name = key.rpartition("/")
        if slash and not re.fullmatch(rf"{_LABEL}(?:\.{_LABEL})*", prefix):
            return (f"its prefix '{prefix}/' is not dot-separated labels (each starts with a letter, "
                    "ends with a letter or digit, with only letters, digits and hyphens inside)")
        return ("its name part must start and end with a letter or digit, with only letters, digits, "
                "'-', '_' and '.' inside")
    prefix = match.group(1)
    if prefix is None or key in MCP_DEFINED_KEYS:
        return None
    labels = [label.lower() for label in prefix.split(".")]
    if version == V2025_06_18:
        reserved = any(label in _RESERVED_LABELS for label in labels[:-1])
        rule = "a prefix with 'modelcontextprotocol' or 'mcp' followed by another label"
    else:
        reserved = len(labels) >= 2 and labels[1] in _RESERVED_LABELS
        rule = "a prefix whose second label is 'modelcontextprotocol' or 'mcp'"
    if reserved:
        return f"its prefix '{prefix}/' is reserved for MCP itself ({rule}); use a prefix you own"
    return None


def json_type(value) -> str:
    """The JSON type name of a loaded value: "boolean", "string", "null", ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    for kind, name in ((int, "integer"), (float, "number"), (str, "string"), (list, "array"), (dict, "object")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def show(value, limit: int = 60) -> str:
    """A value as JSON for a message: ``"no"``, ``1``, ``["a"]``; long values are cut."""
    import json

    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."
