"""Content annotations (audience, priority, lastModified) and `_meta` on content blocks and
resource contents, per protocol version: part of mcplint's model of results
(mcplint.capture.content, which re-exports these)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from mcplint.regex_cache import regex
from mcplint.tool_fields import json_type, meta_key_problem, show
from mcplint.versions import V2025_06_18

Problem = tuple[tuple, str]
ROLES = ("user", "assistant")
META_SINCE = V2025_06_18  # `_meta` on blocks, resource contents and Tool
LAST_MODIFIED_SINCE = V2025_06_18


# -- annotations -------------------------------------------------------------------------------

def annotation_problems(annotations: Any, version: str) -> list[Problem]:
    """The schema's Annotations: audience an array of "user"/"assistant", priority a
    number from 0 to 1, lastModified a string (2025-06-18 and later)."""
    if not isinstance(annotations, dict):
        return [((), f"'annotations' must be an object (audience, priority, lastModified), not {json_type(annotations)}")]
    problems: list[Problem] = []
    audience = annotations.get("audience")
    if "audience" in annotations:
        if not isinstance(audience, list):
            problems.append((("audience",), f"'audience' must be an array of \"user\"/\"assistant\", not {json_type(audience)}"))
        else:
            problems.extend((("audience", i), f"'audience' entries are \"user\" or \"assistant\", not {show(role)}")
                            for i, role in enumerate(audience) if role not in ROLES)
    if "priority" in annotations:
        priority = annotations["priority"]
        if json_type(priority) not in ("integer", "number"):
            problems.append((("priority",), f"'priority' must be a number from 0 to 1, not {show(priority)}"))
        elif not 0 <= priority <= 1:
            problems.append((("priority",), f"'priority' must be between 0 (least) and 1 (most important), not {priority}"))
    if version >= LAST_MODIFIED_SINCE and "lastModified" in annotations and not isinstance(annotations["lastModified"], str):
        problems.append((("lastModified",), f"'lastModified' must be an ISO 8601 string, not {show(annotations['lastModified'])}"))
    return problems


_ISO_START = regex(r"\d{4}-\d{2}-\d{2}")


def last_modified_problem(value: Any, version: str) -> str | None:
    if version < LAST_MODIFIED_SINCE:
        return f"'annotations.lastModified' is defined from {LAST_MODIFIED_SINCE} on, not in {version}"
    if not isinstance(value, str):
        return None  # annotation_problems reports the type
    if _ISO_START.match(value):
        try:
            datetime.fromisoformat(value)
            return None
        except ValueError:
            pass
    return f"'lastModified' should be an ISO 8601 timestamp such as 2025-01-12T15:00:58Z, not {show(value)}"


# -- _meta -------------------------------------------------------------------------------------

def meta_problems(obj: dict, version: str, what: str) -> list[Problem]:
    """`_meta` where this version defines none, and keys that break the key grammar."""
    meta = obj.get("_meta")
    if "_meta" not in obj:
        return []
    if version < META_SINCE:
        return [(("_meta",), f"_meta on {what} is defined from {META_SINCE} on, not in {version}; "
                             "move it to the result's _meta")]
    if not isinstance(meta, dict):
        return []  # field_problems reports the type
    found = []
    for key in meta:
        problem = meta_key_problem(key, version)
        if problem:
            found.append((("_meta", key), f"_meta key '{key}' is invalid: {problem}"))
    return found
