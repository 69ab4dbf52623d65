"""The offline fallback: a Python server that cannot start is read from its source.

Read statically, a tool's name, description, parameter names, parameter descriptions and
annotations are known exactly; its schema's types, formats and constraints are not (the
SDK derives them at run time). So only the rules that judge what is known run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

# Rules that judge names, descriptions, parameter names and descriptions, and annotations.
STATIC_RULES = frozenset({
    "tool-name-invalid", "tool-name-style", "duplicate-tool-name", "tool-description-missing",
    "description-not-imperative", "description-too-short", "description-too-long", "emoji-in-text",
    "marketing-language", "markup-in-text", "hidden-characters", "prompt-injection", "parameter-name-style",
    "parameter-description-missing", "destructive-tool-unannotated", "destructive-tool-annotated-safe",
    "annotations-contradictory", "annotation-value-invalid", "title-not-meaningful", "title-inconsistent",
})
PYTHON_LAUNCHERS = ("python", "python3", "uv", "uvx", "poetry", "pipenv", "hatch", "pdm", "fastmcp", "mcp")


def static_rules(rules: list) -> list:
    """The selected rules that can judge a statically read listing (prompt and resource name
    and text rules included: they read nothing the source does not say)."""
    return [rule for rule in rules if rule.name in STATIC_RULES or rule.name.startswith(("prompt-", "resource-name"))]


def is_python(command: tuple[str, ...]) -> bool:
    if not command:
        return False
    head = Path(command[0]).name.lower()
    return head.startswith("python") or head in PYTHON_LAUNCHERS or command[0].endswith(".py")


def static_listing(spec, index) -> dict[str, list[Any]] | None:
    """The listing read from the server's Python source, or None (not Python, nothing found)."""
    if not is_python(spec.command):
        return None
    listing = index.static_listing()
    if not any(listing.get(key) for key in ("tools", "prompts", "resources", "resourceTemplates")):
        return None
    return {key: value for key, value in listing.items() if value or key == "tools"}


def unknown_parts(listing: dict, pointer: str) -> bool:
    """Whether ``pointer`` (into the listing) falls in a part the static reading could not know
    (the entry's ``x-mcplint-unknown`` pointers, e.g. a parameter typed by a model class), or
    names the object one of them is a member of: a finding about a missing member points at
    its parent, and a description built by an f-string is left out, not missing."""
    parts = pointer.split("/")
    if len(parts) < 3 or parts[1] not in listing:
        return False
    try:
        entry = listing[parts[1]][int(parts[2])]
    except (IndexError, ValueError, TypeError):
        return False
    inner = "/" + "/".join(parts[3:])
    unknown = entry.get("x-mcplint-unknown", []) if isinstance(entry, dict) else []
    return any(inner == u or inner.startswith(u.rstrip("/") + "/") or (u.rsplit("/", 1)[0] or "/") == inner
               for u in unknown if isinstance(u, str))
