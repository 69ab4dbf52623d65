"""Python syntax helpers: exact regions of `ast` nodes, literal values, parameters and their Fields.

`ast` counts columns in UTF-8 bytes; `Locator` turns them into code points, 1-based, end
exclusive, the one convention of mcplint's spans.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from mcplint.document.span import Span
from mcplint.source.model import Definition, Pointer, Region

MISSING = object()
MAX_DEPTH = 64  # literal nesting followed; deeper parts stay with their nearest mapped ancestor

# Keyword arguments of pydantic's Field that become JSON Schema keywords of the property.
FIELD_KEYWORDS = {
    "description": "description", "title": "title", "ge": "minimum", "le": "maximum",
    "gt": "exclusiveMinimum", "lt": "exclusiveMaximum", "min_length": "minLength",
    "max_length": "maxLength", "pattern": "pattern", "multiple_of": "multipleOf",
    "examples": "examples", "json_schema_extra": None,
}
# Schema keywords that the type annotation writes.
TYPE_KEYS = ("type", "anyOf", "oneOf", "allOf", "items", "enum", "const", "$ref", "format",
             "additionalProperties", "prefixItems", "properties", "required")


class Locator:
    """Regions of nodes of one parsed file."""

    def __init__(self, path: str, lines: list[str]) -> None:
        self.path = path
        self.lines = lines

    def column(self, line: int, byte_col: int) -> int:
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text.isascii():
            return byte_col
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", "replace"))

    def node(self, node: ast.AST) -> Region:
        line, end_line = node.lineno, node.end_lineno or node.lineno
        start = self.column(line, node.col_offset)
        end = self.column(end_line, node.end_col_offset if node.end_col_offset is not None else node.col_offset)
        return Region(self.path, Span(line, start + 1, end_line, end + 1))

    def word(self, node: ast.AST, length: int) -> Region:
        """The `length` code points starting where `node` starts (a keyword's or a parameter's name)."""
        line = node.lineno
        start = self.column(line, node.col_offset)
        return Region(self.path, Span(line, start + 1, line, start + 1 + length))

    def def_name(self, func: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> Region:
        """The name in `def name(` / `class name`: the definition's tightest anchor."""
        line = func.lineno
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        start = self.column(line, func.col_offset)
        keyword = "class" if isinstance(func, ast.ClassDef) else "def"
        at = text.find(keyword, start)
        found = text.find(func.name, at + len(keyword)) if at >= 0 else -1
        if found < 0:
            return self.word(func, len(keyword))
        return Region(self.path, Span(line, found + 1, line, found + 1 + len(func.name)))


def last_name(node: ast.AST | None) -> str | None:
    """`Field`, `pydantic.Field`, `types.Tool`: the last dotted part of a name or attribute."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def constants(tree: ast.Module) -> dict[str, ast.AST]:
    """Module-level `NAME = value` assignments, for values passed by name (annotations=READ_ONLY)."""
    found: dict[str, ast.AST] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                found[target.id] = statement.value
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.value:
            found[statement.target.id] = statement.value
        elif isinstance(statement, ast.ClassDef):  # Enum members: name=Tools.STATUS.value (mcp-server-git)
            for member in statement.body:
                if (isinstance(member, ast.Assign) and len(member.targets) == 1
                        and isinstance(member.targets[0], ast.Name)):
                    found[f"{statement.name}.{member.targets[0].id}"] = member.value
    return found


def resolve(node: ast.AST | None, names: dict[str, ast.AST]) -> ast.AST | None:
    """A name bound once at module level stands for its value (a few hops at most)."""
    for _ in range(4):
        if isinstance(node, ast.Name) and node.id in names:
            node = names[node.id]
        elif isinstance(node, ast.Attribute) and (key := _member(node)) in names:
            node = names[key]
        else:
            break
    return node


def _member(node: ast.Attribute) -> str | None:
    """``Cls.MEMBER`` or ``Cls.MEMBER.value`` as the key ``constants`` files a class member under."""
    if node.attr == "value" and isinstance(node.value, ast.Attribute):
        node = node.value
    if isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def literal(node: ast.AST | None, names: dict[str, ast.AST] | None = None):
    """The value of a literal expression, or MISSING."""
    node = resolve(node, names or {})
    if node is None:
        return MISSING
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return MISSING


def text_of(node: ast.AST | None, names: dict[str, ast.AST]) -> str | None:
    value = literal(node, names)
    return value if isinstance(value, str) else None


def keywords(call: ast.Call | None) -> dict[str, ast.keyword]:
    return {kw.arg: kw for kw in (call.keywords if call else []) if kw.arg}


def camel(name: str) -> str:
    """Python keyword -> wire member: input_schema -> inputSchema, meta -> _meta."""
    if name == "meta":
        return "_meta"
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def map_literal(node: ast.AST, pointer: Pointer, definition: Definition, where: Locator,
                names: dict[str, ast.AST], label: str, key: Region | None = None, depth: int = 0) -> None:
    """Record every part of a literal (dict, list, model call) under `pointer`.

    A container is anchored at the key that holds it (tight), a scalar at its value.
    """
    resolved = resolve(node, names)
    if resolved is not node and resolved is not None and depth < MAX_DEPTH:
        definition.put(pointer, key or where.node(node), label)
        map_literal(resolved, pointer, definition, where, names, label, key, depth + 1)
        return
    if isinstance(node, ast.Dict) and depth < MAX_DEPTH:
        definition.put(pointer, key or where.node(node), label)
        for k, v in zip(node.keys, node.values):
            if isinstance(k, ast.Constant) and isinstance(k.value, str) and v is not None:
                _map_member(v, pointer + (k.value,), definition, where, names, label, where.node(k), depth)
    elif isinstance(node, (ast.List, ast.Tuple)) and depth < MAX_DEPTH:
        definition.put(pointer, key or where.node(node), label)
        for i, item in enumerate(node.elts):
            _map_member(item, pointer + (str(i),), definition, where, names, label, where.node(item), depth)
    elif isinstance(node, ast.Call) and not node.args and node.keywords and depth < MAX_DEPTH:
        definition.put(pointer, key or where.node(node.func), label)
        for kw in node.keywords:
            if kw.arg:
                _map_member(kw.value, pointer + (camel(kw.arg),), definition, where, names, label,
                            where.word(kw, len(kw.arg)), depth)
    else:
        value = literal(node)
        definition.put(pointer, where.node(node), label, value if isinstance(value, str) else None)


def _map_member(value: ast.AST, pointer: Pointer, definition: Definition, where: Locator,
                names: dict[str, ast.AST], label: str, key: Region, depth: int) -> None:
    target = resolve(value, names)
    if isinstance(target, (ast.Dict, ast.List, ast.Tuple, ast.Call, ast.Name)) and target is not None:
        map_literal(value, pointer, definition, where, names, label, key, depth + 1)
    else:
        map_literal(value, pointer, definition, where, names, label, None, depth + 1)


@dataclass
class Param:
    """A function parameter or a model field, as the SDK turns it into a schema property."""

    name: str  # the property name on the wire (the Field alias when there is one)
    name_region: Region
    annotation: ast.AST | None
    default: ast.AST | None  # the default value's node (a Field's default argument included)
    required: bool
    field_keywords: dict[str, ast.keyword] = field(default_factory=dict)
    whole: Region | None = None  # name, annotation and default


def is_field_call(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Call) and last_name(node.func) == "Field"


def unwrap_annotated(annotation: ast.AST | None) -> tuple[ast.AST | None, ast.Call | None]:
    """`Annotated[T, Field(...)]` -> (T, the Field call)."""
    if (isinstance(annotation, ast.Subscript) and last_name(annotation.value) == "Annotated"
            and isinstance(annotation.slice, ast.Tuple) and annotation.slice.elts):
        first, *rest = annotation.slice.elts
        return first, next((meta for meta in rest if is_field_call(meta)), None)
    return annotation, None


def field_default(call: ast.Call) -> tuple[bool, ast.AST | None]:
    """Whether a Field call gives a default, and the default's node."""
    given = call.args[0] if call.args else keywords(call).get("default", None)
    node = given.value if isinstance(given, ast.keyword) else given
    if node is not None and not (isinstance(node, ast.Constant) and node.value is Ellipsis):
        return True, node
    return "default_factory" in keywords(call), None


def make_param(name: str, name_node: ast.AST, annotation: ast.AST | None, default: ast.AST | None,
               where: Locator) -> Param:
    base, field_call = unwrap_annotated(annotation)
    has_default, default_node = default is not None, default
    if is_field_call(default):
        field_call = default
        has_default, default_node = field_default(default)
    elif field_call is not None and default is None:
        has_default, default_node = field_default(field_call)
    found = keywords(field_call)
    alias = text_of(found["alias"].value, {}) if "alias" in found else None
    wire = alias or name
    region = where.word(name_node, len(name))
    last = where.node(default if default is not None else (annotation if annotation is not None else name_node))
    whole = Region(where.path, Span(region.span.line, region.span.column, last.span.end_line,
                                    last.span.end_column))
    return Param(wire, region, base if annotation is not None else None, default_node,
                 not has_default, found, whole)


def put_param(definition: Definition, base: Pointer, param: Param, where: Locator, what: str = "parameter") -> None:
    """The parts a parameter writes: its name, its Field's keywords, its default and its type."""
    definition.put(base, param.name_region, f"{what} {param.name}")
    for keyword_name, kw in param.field_keywords.items():
        schema_key = FIELD_KEYWORDS.get(keyword_name)
        if schema_key is None:
            continue
        if schema_key in ("description", "title"):
            value = literal(kw.value)
            definition.put(base + (schema_key,), where.node(kw.value), f"Field {schema_key} of {param.name}",
                           value if isinstance(value, str) else None)
        else:
            definition.put(base + (schema_key,), where.node(kw), f"Field({keyword_name}=...) of {param.name}")
    if param.default is not None:
        definition.put(base + ("default",), where.node(param.default), f"default of {param.name}")
    if param.annotation is not None:
        region = where.node(param.annotation)
        for key in TYPE_KEYS:
            definition.put(base + (key,), region, f"type annotation of {param.name}")


def is_context(annotation: ast.AST | None) -> bool:
    """`ctx: Context` (also `Context[...]`, `Optional[Context]`): the SDK injects it, it is no property."""
    if annotation is None:
        return False
    return any(last_name(node) == "Context" for node in ast.walk(annotation)
               if isinstance(node, (ast.Name, ast.Attribute)))


def function_params(func: ast.FunctionDef | ast.AsyncFunctionDef, where: Locator) -> list[Param]:
    """The parameters the SDK lists: all but *args, **kwargs and the first Context parameter."""
    args = func.args
    positional = args.posonlyargs + args.args
    defaults: list[ast.AST | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
    params, context_seen = [], False
    for arg, default in pairs:
        if not context_seen and is_context(arg.annotation):
            context_seen = True
            continue
        params.append(make_param(arg.arg, arg, arg.annotation, default, where))
    return params
