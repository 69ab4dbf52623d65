"""The lists a server offers besides tools: which object members hold them, how a document
is recognised as one, and the human-facing texts of their prompts, resources and templates."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcplint.document.pointer import Pointer

if TYPE_CHECKING:
    from mcplint.document.manifest import Manifest

# List member -> the method whose result carries it, in the order a listing is walked.
METHODS = {
    "tools": "tools/list",
    "prompts": "prompts/list",
    "resources": "resources/list",
    "resourceTemplates": "resources/templates/list",
}
MEMBERS = {method: member for member, method in METHODS.items()}
# What one entry of each list is called in messages.
NOUNS = {"tools": "tool", "prompts": "prompt", "resources": "resource", "resourceTemplates": "resource template"}

# A member that is an empty list, or a list where some object has one of these keys, is taken
# for a prompts/resources/templates list (its other entries are then linted as broken entries).
# Stricter than for `tools` (any value): a folder walk meets many JSON and YAML files, and
# `resources` or `prompts` are common keys in other formats (lists of names, of paths).
_ENTRY_KEYS = {
    "prompts": ("name", "arguments"),
    "resources": ("uri", "name"),
    "resourceTemplates": ("uriTemplate", "name"),
}


def members(data: dict) -> list[str]:
    """The list members ``data`` holds, in METHODS order: `tools` whatever its value (as a
    tools/list result has always been recognised), the others when they look like lists of
    prompts, resources or resource templates."""
    found = ["tools"] if "tools" in data else []
    for member, keys in _ENTRY_KEYS.items():
        value = data.get(member)
        if isinstance(value, list) and (not value or any(
            isinstance(item, dict) and any(key in item for key in keys) for item in value
        )):
            found.append(member)
    return found


def entries(value: Any, ptr: Pointer) -> list[tuple[Pointer, Any]]:
    """(pointer, entry) for each entry of a list member's value; none when it is not an array."""
    if not isinstance(value, list):
        return []
    return [(ptr / index, entry) for index, entry in enumerate(value)]


def texts(doc: "Manifest") -> list[tuple[Pointer, str, str]]:
    """Every human-facing string of the document's prompts, resources and resource templates:
    (pointer, what it is, text). Names, titles and descriptions, and a prompt argument's title
    and description (its name is an identifier, as a tool parameter's is: not listed)."""
    found: list[tuple[Pointer, str, str]] = []
    for member in ("prompts", "resources", "resourceTemplates"):
        noun = NOUNS[member]
        for ptr, entry in doc.entries(member):
            if not isinstance(entry, dict):
                continue
            for key in ("name", "title", "description"):
                value = entry.get(key)
                if isinstance(value, str):
                    found.append((ptr / key, f"{noun} {key}", value))
            arguments = entry.get("arguments") if member == "prompts" else None
            if not isinstance(arguments, list):
                continue
            for index, argument in enumerate(arguments):
                if not isinstance(argument, dict):
                    continue
                name = argument.get("name")
                label = f"prompt argument '{name}'" if isinstance(name, str) else f"prompt argument {index}"
                for key in ("title", "description"):
                    value = argument.get(key)
                    if isinstance(value, str):
                        found.append((ptr / "arguments" / index / key, f"{label} {key}", value))
    return found


def noun_of(what: str) -> str:
    """The entry a ``texts`` label speaks of: "prompt", "resource" or "resource template"."""
    if what.startswith("resource template"):
        return "resource template"
    return "resource" if what.startswith("resource") else "prompt"


def is_identifier(what: str) -> bool:
    """Whether a ``texts`` label names an identifier rather than prose: a prompt's name. (A
    resource's name was "a human-readable name" until 2025-06-18 and still serves as its
    display name when it has no title.)"""
    return what == "prompt name"
