"""§5 offline fallback: the listing a Python server would return, read from its source alone.

Each entry holds only what the source says exactly, as the SDK would put it on the wire:

- name, title, description (the `description=` keyword, else the docstring the way the SDK
  reads it: `fn.__doc__` as is for the official `mcp` SDK, so indented on Python < 3.13 and
  dedented by the compiler from 3.13; `inspect.cleandoc` for the standalone `fastmcp` package),
- `inputSchema` with `type: object`, each parameter's property (its `type` or `anyOf` when the
  annotation is a plain str/int/float/bool/list/dict or Optional of one, the Field's
  description and constraints, a literal default) and `required`,
- annotations written as `ToolAnnotations(...)` or a dict literal,
- prompts' arguments and resources' URIs and MIME types,
- low-level `types.Tool(...)` / dict literals as written.

Every entry carries `"x-mcplint-static": true`; `"x-mcplint-unknown"` lists the JSON pointers
of parts the source writes but not as a literal (a description held in a variable, a
parameter typed with a model), which were left out rather than guessed. Titles pydantic
generates, `$defs` and `outputSchema` are never included. Test code is not read (files.py leaves it out).
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import sys

from mcplint.source.model import Definition, Pointer, pointer_text
from mcplint.source.pyast import MISSING, Param, camel, literal, resolve

SIMPLE = {"str": "string", "int": "integer", "float": "number", "bool": "boolean", "list": "array",
          "dict": "object", "List": "array", "Dict": "object"}
CONSTRAINTS = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum",
               "min_length": "minLength", "max_length": "maxLength", "pattern": "pattern",
               "multiple_of": "multipleOf", "title": "title", "examples": "examples"}
MAX_DEPTH = 64


def compiler_clean(doc: str) -> str:
    """What Python 3.13+ stores as `__doc__`: tabs expanded, the first line's leading spaces
    and the common indentation of the other lines removed (blank lines kept, unlike cleandoc)."""
    lines = doc.expandtabs().split("\n")
    margins = [len(line) - len(line.lstrip(" ")) for line in lines[1:] if line.strip(" ")]
    margin = min(margins, default=0)
    cleaned = [lines[0].lstrip(" ")]
    for line in lines[1:]:
        indent = len(line) - len(line.lstrip(" "))
        cleaned.append(line[min(margin, indent):])
    return "\n".join(cleaned)


def sdk_description(doc: str | None, flavor: str | None, version: tuple[int, int]) -> str | None:
    if flavor == "fastmcp":
        return inspect.cleandoc(doc) if doc else None
    if doc is None:
        return ""
    return compiler_clean(doc) if version >= (3, 13) else doc


_ARGS_HEADING = re.compile(r"^(?:Args|Arguments|Parameters|Params)\s*:\s*$")
_ARG_LINE = re.compile(r"^(\*{0,2}[A-Za-z_]\w*)\s*(?:\([^)\n]*\))?\s*:\s*(.*)$")


def google_args(doc: str) -> dict[str, str]:
    """A Google-style docstring's `Args:` entries, name -> text (continuation lines joined), as
    the standalone fastmcp package puts them into the parameters' descriptions."""
    found: dict[str, str] = {}
    lines = doc.splitlines()
    at = next((i for i, line in enumerate(lines) if _ARGS_HEADING.match(line.strip()) and not line[:1].isspace()),
              None)
    if at is None:
        return found
    indent, current = None, None
    for line in lines[at + 1:]:
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if depth == 0:
            break  # the next section
        if indent is None:
            indent = depth
        match = _ARG_LINE.match(line.strip()) if depth == indent else None
        if match is not None:
            current = match.group(1).lstrip("*")
            found[current] = match.group(2).strip()
        elif current is not None and depth > indent:
            found[current] = f"{found[current]} {line.strip()}".strip()
    return {name: text for name, text in found.items() if text}


_SECTION = re.compile(r"^(?:Args|Arguments|Params|Parameters|Keyword Args|Keyword Arguments|Other Parameters|Returns?"
                      r"|Yields?|Raises|Exceptions|Warns|Warnings?|Examples?|Notes?|Attributes|See Also|Todo"
                      r"|References|Receives|Deprecated)\s*:\s*$")


def google_summary(doc: str) -> str:
    """The text before a Google-style docstring's first section (`Args:`, `Returns:`, ...): the
    description fastmcp 3 gives a tool whose docstring documents its parameters (griffe's first
    text section; the sections go into the parameters or nowhere)."""
    lines = doc.splitlines()
    end = next((i for i, line in enumerate(lines) if not line[:1].isspace() and _SECTION.match(line.strip())),
               len(lines))
    return "\n".join(lines[:end]).strip()


def static_entry(definition: Definition, flavor: str | None,
                 version: tuple[int, int] | None = None) -> dict | None:
    version = version or sys.version_info[:2]
    holder = definition.static or {}
    unknown: list[Pointer] = []
    if "decorated" in holder:
        entry = _decorated(definition, holder["decorated"], flavor or holder["decorated"].flavor, version,
                           unknown)
    elif "literal" in holder:
        node, names = holder["literal"]
        entry = _value(node, names, (), unknown, 0)
        if not isinstance(entry, dict):
            return None
    else:
        return None
    entry["x-mcplint-static"] = True
    if unknown:
        entry["x-mcplint-unknown"] = [pointer_text(pointer) for pointer in unknown]
    return entry


def _decorated(definition: Definition, decorated, flavor: str | None, version, unknown: list) -> dict:
    names, given, kind = decorated.names, decorated.call_keywords, definition.kind
    entry: dict = {"name": definition.name}
    if kind in ("resources", "resourceTemplates"):
        key = "uriTemplate" if kind == "resourceTemplates" else "uri"
        if definition.uri is not None:
            entry[key] = definition.uri
        else:
            unknown.append((key,))
    for keyword_name, key in (("title", "title"), ("mime_type", "mimeType")):
        if keyword_name in given:
            value = literal(given[keyword_name].value, names)
            if isinstance(value, str):
                entry[key] = value
            elif value is not None:
                unknown.append((key,))
    if kind in ("resources", "resourceTemplates") and "mimeType" not in entry and flavor != "fastmcp":
        if "mime_type" not in given:
            entry["mimeType"] = "text/plain"
    doc = ast.get_docstring(decorated.func, clean=False)
    written = literal(given["description"].value, names) if "description" in given else None
    if written is MISSING:
        unknown.append(("description",))
    elif written:
        entry["description"] = written
    else:
        description = sdk_description(doc, flavor, version)
        if description is not None:
            entry["description"] = description
    if kind == "prompts":
        entry["arguments"] = [_argument(param, names, i, unknown) for i, param in enumerate(decorated.params)]
    elif kind == "tools":
        entry["inputSchema"] = _schema(decorated.params, names, unknown)
        if flavor == "fastmcp" and doc:  # fastmcp reads parameter descriptions from the docstring
            documented = google_args(inspect.cleandoc(doc))
            for name, text in documented.items():
                prop = entry["inputSchema"]["properties"].get(name)
                if isinstance(prop, dict) and "description" not in prop:
                    prop["description"] = text
            if documented and not written:  # and then keeps only the text before the sections
                entry["description"] = google_summary(inspect.cleandoc(doc))
        if "annotations" in given:
            value = _value(given["annotations"].value, names, ("annotations",), unknown, 0)
            if isinstance(value, dict):
                entry["annotations"] = {k: v for k, v in value.items() if v is not None}
            elif value is not MISSING and value is not None:
                unknown.append(("annotations",))
    return entry


def _argument(param: Param, names, index: int, unknown: list) -> dict:
    argument = {"name": param.name, "required": param.required}
    if "description" in param.field_keywords:
        value = literal(param.field_keywords["description"].value, names)
        if isinstance(value, str):
            argument["description"] = value
        else:
            unknown.append(("arguments", str(index), "description"))
    return argument


def _schema(params: list[Param], names, unknown: list) -> dict:
    properties = {}
    for param in params:
        pointer = ("inputSchema", "properties", param.name)
        properties[param.name] = _property(param, names, pointer, unknown)
    schema = {"type": "object", "properties": properties}
    required = [param.name for param in params if param.required]
    if required:
        schema["required"] = required
    return schema


def _property(param: Param, names, pointer: Pointer, unknown: list) -> dict:
    prop: dict = {}
    typed = _type(param.annotation)
    if typed is None:
        unknown.append(pointer)
    else:
        prop.update(typed)
    for keyword_name, kw in param.field_keywords.items():
        key = "description" if keyword_name == "description" else CONSTRAINTS.get(keyword_name)
        if key is None:
            continue
        value = literal(kw.value, names)
        if key != "description" and (typed is None or "anyOf" in typed):
            continue  # where pydantic puts a constraint on a union is not for this reader to guess
        if value is MISSING:
            unknown.append(pointer + (key,))
        elif value is not None or key != "description":
            prop[key] = value
    if param.default is not None:
        value = literal(param.default, names)
        try:
            value = json.loads(json.dumps(value)) if value is not MISSING else MISSING
        except (TypeError, ValueError):
            value = MISSING
        if value is MISSING:
            unknown.append(pointer + ("default",))
        else:
            prop["default"] = value
    return prop


def _type(annotation: ast.AST | None) -> dict | None:
    """The schema pydantic writes for a plain annotation (no title), or None when it is no plain one."""
    if annotation is None:
        return {"type": "string"}  # the SDK types an unannotated parameter as a string
    optional = _optional_parts(annotation)
    if optional is not None:
        inner = _plain(next(part for part in optional if not _is_none(part)))
        return {"anyOf": [inner, {"type": "null"}]} if inner else None  # pydantic puts null last
    return _plain(annotation)


def _optional_parts(annotation: ast.AST) -> list[ast.AST] | None:
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        parts = [annotation.left, annotation.right]
    elif isinstance(annotation, ast.Subscript) and _name(annotation.value) in ("Optional", "Union"):
        inner = annotation.slice
        parts = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
        if _name(annotation.value) == "Optional":
            parts.append(ast.Constant(None))
    else:
        return None
    if len(parts) != 2 or sum(_is_none(part) for part in parts) != 1:
        return None
    return parts


def _plain(node: ast.AST) -> dict | None:
    name = _name(node)
    if name in SIMPLE:
        return {"type": SIMPLE[name]}
    if isinstance(node, ast.Subscript) and _name(node.value) in ("list", "List"):
        inner = _name(node.slice)
        if inner in SIMPLE and SIMPLE[inner] not in ("array", "object"):
            return {"items": {"type": SIMPLE[inner]}, "type": "array"}
        return {"type": "array"}
    if isinstance(node, ast.Subscript) and _name(node.value) in ("dict", "Dict"):
        return {"type": "object"}
    return None


def _name(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "typing":
        return node.attr
    return None


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _constructor(func: ast.AST) -> bool:
    """A class (a capitalised name: `ToolAnnotations`, `types.Tool`) or `dict`."""
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "dict" or name[:1].isupper()


def _value(node: ast.AST, names, pointer: Pointer, unknown: list, depth: int):
    """A literal (dict, list, keyword-only model call) as JSON; parts that are no literal are listed."""
    node = resolve(node, names)
    if depth > MAX_DEPTH:
        unknown.append(pointer)
        return MISSING
    if isinstance(node, ast.Dict):
        out = {}
        for k, v in zip(node.keys, node.values):
            key = literal(k) if k is not None else MISSING
            if not isinstance(key, str) or v is None:
                unknown.append(pointer)
                continue
            value = _value(v, names, pointer + (key,), unknown, depth + 1)
            if value is not MISSING:
                out[key] = value
        return out
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_value(item, names, pointer + (str(i),), unknown, depth + 1) for i, item in enumerate(node.elts)]
        return [item for item in items if item is not MISSING]
    # a model or dict built from keywords (`ToolAnnotations(readOnlyHint=True)`); a function's call
    # (`annotations=write(destructive=True)`: astro-airflow) returns what its body makes: unknown
    if isinstance(node, ast.Call) and not node.args and all(kw.arg for kw in node.keywords) and _constructor(node.func):
        out = {}
        for kw in node.keywords:
            value = _value(kw.value, names, pointer + (camel(kw.arg),), unknown, depth + 1)
            if value is not MISSING and value is not None:
                out[camel(kw.arg)] = value
        return out
    value = literal(node, names)
    if value is MISSING:
        unknown.append(pointer)
    return value
