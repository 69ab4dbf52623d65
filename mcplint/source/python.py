"""Tool, prompt and resource definitions in Python source, read with `ast` (never imported or run).

- `@mcp.tool(...)`, `@mcp.prompt(...)`, `@mcp.resource("uri", ...)` on an `MCPServer` (mcp 2.x),
  a `FastMCP` (mcp 1.x) or the standalone `fastmcp` package, `mcp.add_tool(fn, ...)`, `Tool.from_function(fn,
  ...)` and `mcp.tool(fn, ...)` or `self.tool(self.method, ...)`: the
  name, title, description (keyword or docstring), annotations and each parameter.
- Low-level literals: `types.Tool(name=..., inputSchema={...})`, `types.Prompt(...)`,
  `types.Resource(...)` and plain dicts with `"name"` and `"inputSchema"` (or `"arguments"`,
  `"uri"`, `"uriTemplate"`), whose keys map to JSON pointers one to one.
- pydantic models, to follow a parameter typed with one into `$defs` (see `Model`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from mcplint.document.span import Span
from mcplint.source import pywrappers
from mcplint.source.model import Definition, Pointer, Region
from mcplint.source.pyast import (Locator, Param, constants, function_params, keywords,
                                  last_name, make_param, map_literal, put_param, text_of)

VERBS = {"tool": "tools", "prompt": "prompts", "resource": "resources"}
LITERAL_CALLS = {"Tool": "tools", "Prompt": "prompts", "Resource": "resources",
                 "ResourceTemplate": "resourceTemplates"}
# Which keys make a dict literal a listing entry of which kind, most telling first.
DICT_KINDS = (("inputSchema", "tools"), ("uriTemplate", "resourceTemplates"), ("uri", "resources"),
              ("arguments", "prompts"))
PREFILTER = (".tool", ".prompt", ".resource", "Tool(", "Prompt(", "Resource", "inputSchema", "add_tool",
             "FastMCP", "MCPServer", "@tool(", "@prompt(")
REGISTERING_MARKERS = ("from_function(", ".tool(")  # a registering call may sit in any expression
LITERAL_MARKERS = ("Tool(", "Prompt(", "Resource(", "ResourceTemplate(", "inputSchema", "uriTemplate", '"uri"',
                   "'uri'", '"arguments"', "'arguments'")


@dataclass
class Model:
    """A class that may be a pydantic model; `parts` are relative to its schema (`$defs/<name>`)."""

    name: str
    path: str
    bases: list[str]
    parts: Definition  # () the class name, ("description",) its docstring, ("properties", f, ...)
    required: list[str] = field(default_factory=list)  # its own fields without a default, in order
    refs: list[tuple[str, str]] = field(default_factory=list)  # (field name, annotation's class name)


@dataclass
class PythonFile:
    definitions: list[Definition]
    models: list[Model]
    flavor: str | None  # "fastmcp" (standalone package), "mcp" (the SDK) or None (cannot tell)


@dataclass
class Decorated:
    """What a decorated function tells the static listing (see static.py)."""

    func: ast.FunctionDef | ast.AsyncFunctionDef
    call_keywords: dict[str, ast.keyword]
    params: list[Param]
    names: dict[str, ast.AST]
    flavor: str | None
    refs: list[tuple[Pointer, str]] = field(default_factory=list)  # property pointer -> model class name


def wants(text: str) -> bool:
    """The cheap test that a file may define something (only those are parsed)."""
    return any(marker in text for marker in PREFILTER)


def parse(path: str, text: str, lines: list[str]) -> PythonFile:
    """Raises SyntaxError, ValueError, RecursionError or MemoryError on sources `ast` refuses."""
    tree = ast.parse(text)
    where = Locator(path, lines)
    names = constants(tree)
    flavor = _flavor(tree)
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    definitions: list[Definition] = []
    models: list[Model] = []
    added: list[ast.Call] = []
    statements = list(_statements(tree))
    wrappers = pywrappers.find(statements)
    own = _own_decorators(tree, path)
    for node in statements:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.setdefault(node.name, node)
            for decorator in node.decorator_list:
                found = _decorated(node, decorator, where, names, flavor, own)
                if found is not None:
                    definitions.append(found)
                elif wrappers:
                    definitions.extend(_wrapped(node, decorator, wrappers, where, names, flavor))
        elif isinstance(node, ast.ClassDef):
            models.append(_model(node, where))
        elif (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
              and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "add_tool"):
            added.append(node.value)
    if any(marker in text for marker in REGISTERING_MARKERS):  # anywhere in an expression: walk the tree
        added += [node for node in ast.walk(tree) if isinstance(node, ast.Call) and _registers_function(node)]
    # Literals can sit in any expression: only files that may hold one pay for the full walk.
    if any(marker in text for marker in LITERAL_MARKERS):
        for node in ast.walk(tree):
            found = None
            if isinstance(node, ast.Call):
                found = _literal_call(node, where, names)
            elif isinstance(node, ast.Dict):
                found = _literal_dict(node, where, names)
            if found is not None:
                definitions.append(found)
    for node in added:  # mcp.add_tool(fn, name=...) refers to a function defined anywhere in the file
        func = _function_named(node.args[0], functions) if node.args else None
        if func is not None:
            bound = isinstance(node.args[0], ast.Attribute)  # self.method: the SDK never sees `self`
            found = _registered(func, "tools", node, where, names, flavor, "add_tool", bound=bound)
            if found is not None:
                definitions.append(found)
    return PythonFile(definitions, models, flavor)


def _registers_function(call: ast.Call) -> bool:
    """`Tool.from_function(fn, name=...)` (fastmcp, and mcp 1.x's FastMCP), and `mcp.tool(fn, ...)` or
    `self.tool(self.method, ...)` (fastmcp 2.7+: `tool` called with the function, not as a decorator)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or not call.args:
        return False
    if func.attr == "from_function":
        return isinstance(func.value, ast.Name) and func.value.id == "Tool"
    return func.attr == "tool" and isinstance(call.args[0], (ast.Name, ast.Attribute))


def _function_named(node: ast.AST, functions: dict) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The function of the file that ``node`` names: `fn`, or `self.method` / `cls.method`."""
    if isinstance(node, ast.Name):
        return functions.get(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
        return functions.get(node.attr)
    return None


def _statements(tree: ast.Module):
    """Every statement, nested ones too (function and class bodies, if/try/with/for/match blocks)."""
    stack = [tree.body]
    while stack:
        for statement in stack.pop():
            yield statement
            for name in ("body", "orelse", "finalbody"):
                block = getattr(statement, name, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    stack.append(block)
            for handler in getattr(statement, "handlers", None) or ():
                stack.append(handler.body)
            for case in getattr(statement, "cases", None) or ():
                stack.append(case.body)


def _flavor(tree: ast.Module) -> str | None:
    """`fastmcp` or `mcp`, from the file's imports (module level, or under a try/if there)."""
    statements = list(tree.body)
    for statement in tree.body:
        if isinstance(statement, (ast.Try, ast.If)):
            statements.extend(statement.body)
    tops = set()
    for node in statements:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            tops.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            tops.update(alias.name.split(".")[0] for alias in node.names)
    if "fastmcp" in tops:
        return "fastmcp"
    return "mcp" if tops & {"mcp", "mcp_types"} else None


def _decorated(func, decorator: ast.AST, where: Locator, names, flavor, own=frozenset()) -> Definition | None:
    call = decorator if isinstance(decorator, ast.Call) else None
    target = call.func if call else decorator
    if isinstance(target, ast.Name) and target.id in own and call is not None and _names_itself(call):
        return _registered(func, VERBS[target.id], call, where, names, flavor, f"@{target.id} (the server's own)")
    if not isinstance(target, ast.Attribute) or target.attr not in VERBS:
        return None
    return _registered(func, VERBS[target.attr], call, where, names, flavor, f"@{_dotted(target)}")


def _own_decorators(tree: ast.Module, path: str) -> frozenset[str]:
    """`tool` and `prompt` imported from a module of the project itself (`from leanish.registry import
    tool`, `from .registry import tool`), whose `@tool("lean_goal")` marks a function that the project
    registers elsewhere (`server.tool(name, **options)(function)`: lean-lsp-mcp). A decorator of that
    name from another package (langchain's `@tool("search")`) is not the server's."""
    parts = path.replace("\\", "/").split("/")[:-1]
    found = set()
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        ours = node.level > 0 or (node.module is not None and node.module.split(".")[0] in parts)
        if ours:
            found.update(alias.asname or alias.name for alias in node.names
                         if alias.name in ("tool", "prompt") and (alias.asname or alias.name) in ("tool", "prompt"))
    return frozenset(found)


def _names_itself(call: ast.Call) -> bool:
    """The decorator's call writes the name: `@tool("lean_goal", ...)` or `@tool(name="lean_goal")`."""
    first = call.args[0] if call.args else next((kw.value for kw in call.keywords if kw.arg == "name"), None)
    return isinstance(first, ast.Constant) and isinstance(first.value, str)


def _wrapped(func, decorator: ast.AST, wrappers, where: Locator, names, flavor) -> list[Definition]:
    """`@register_tool("name")`: a decorator of the file's own that registers the function (pywrappers)."""
    found = []
    shown = _dotted(decorator.func if isinstance(decorator, ast.Call) else decorator)
    for named in pywrappers.names(decorator, wrappers, func.name, names):
        definition = _registered(func, named.kind, None, where, names, flavor,
                                 f"@{shown} (registers through {named.via})", (named.name, named.node))
        if definition is not None:
            found.append(definition)
    return found


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    parts.append(node.id if isinstance(node, ast.Name) else "...")
    return ".".join(reversed(parts))


def _registered(func, kind: str, call: ast.Call | None, where: Locator, names, flavor,
                construct: str, named: tuple[str, ast.AST | None] | None = None,
                bound: bool = False) -> Definition | None:
    """`named`: the name a wrapper registers the function under, and the node that writes it;
    `bound`: the function is a method registered bound (its first parameter is not listed)."""
    given = keywords(call)
    positional = call.args[1:] if call is not None and construct == "add_tool" else (call.args if call else [])
    name_node = given["name"].value if "name" in given else None
    uri_node = given["uri"].value if "uri" in given else None
    if kind == "resources":
        uri_node = uri_node or (positional[0] if positional else None)
    elif name_node is None and positional:  # fastmcp: @mcp.tool("name")
        name_node = positional[0]
    name = text_of(name_node, names) if name_node is not None else func.name
    if named is not None:
        name, name_node = named
    if name is None:
        return None
    uri = text_of(uri_node, names) if uri_node is not None else None
    if kind == "resources" and uri is not None and "{" in uri:
        kind = "resourceTemplates"
    def_region = where.def_name(func)
    anchor = where.node(name_node) if name_node is not None else def_region
    definition = Definition(kind, name, anchor, f"python {construct}", uri=uri)
    label = f"{func.name}"
    definition.put((), def_region, f"definition of {label}")
    definition.put(("name",), anchor, "name" if name_node is not None else f"function name {label}", name)
    for keyword_name, pointer in (("title", ("title",)), ("description", ("description",)),
                                  ("mime_type", ("mimeType",)), ("annotations", ("annotations",))):
        if keyword_name in given:
            kw = given[keyword_name]
            map_literal(kw.value, pointer, definition, where, names, f"{keyword_name}= of {label}",
                        where.word(kw, len(keyword_name)) if keyword_name == "annotations" else None)
    if uri_node is not None:
        definition.put(("uriTemplate",) if kind == "resourceTemplates" else ("uri",), where.node(uri_node),
                       f"URI of {label}", uri)
    doc = _docstring(func)
    if doc is not None:
        definition.put(("description",), where.node(doc), f"docstring of {label}", doc.value)
    params = function_params(func, where)[1:] if bound and func.args.args else function_params(func, where)
    decorated = Decorated(func, given, params, names, flavor)
    if params:
        first, last = params[0].whole.span, params[-1].whole.span
        region = Region(where.path, Span(first.line, first.column, last.end_line, last.end_column))
        group = ("arguments",) if kind == "prompts" else ("inputSchema",)
        definition.put(group, region, f"parameters of {label}")
        if kind != "prompts":
            definition.put(group + ("properties",), region, f"parameters of {label}")
    _put_params(definition, kind, params, where, decorated)
    definition.static = {"decorated": decorated}
    return definition


def _put_params(definition: Definition, kind: str, params: list[Param], where: Locator,
                decorated: Decorated) -> None:
    if kind == "prompts":
        for i, param in enumerate(params):
            base = ("arguments", str(i))
            definition.put(base + ("name",), param.name_region, f"parameter {param.name}", param.name)
            definition.put(base + ("required",), param.name_region, f"parameter {param.name}")
            put_param(definition, base, param, where)
        return
    required = [param for param in params if param.required]
    for i, param in enumerate(required):
        definition.put(("inputSchema", "required", str(i)), param.name_region, f"parameter {param.name}")
    for param in params:
        base = ("inputSchema", "properties", param.name)
        put_param(definition, base, param, where)
        model = _model_name(param.annotation)
        if model is not None:
            decorated.refs.append((base, model))


def _model_name(annotation: ast.AST | None) -> str | None:
    """`loc: Location` (also `Location | None`, `Optional[Location]`): a class a model may have."""
    if isinstance(annotation, ast.BinOp):
        return _model_name(annotation.left) or _model_name(annotation.right)
    if isinstance(annotation, ast.Subscript) and last_name(annotation.value) in ("Optional", "Union"):
        inner = annotation.slice
        for item in (inner.elts if isinstance(inner, ast.Tuple) else [inner]):
            if (found := _model_name(item)) is not None:
                return found
        return None
    name = last_name(annotation)
    if name is None or name in ("str", "int", "float", "bool", "list", "dict", "None", "Any"):
        return None
    return name if name[:1].isupper() else None


def _docstring(node) -> ast.Constant | None:
    if node.body and isinstance(node.body[0], ast.Expr):
        value = node.body[0].value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value
    return None


def _model(node: ast.ClassDef, where: Locator) -> Model:
    name_region = where.def_name(node)
    parts = Definition("model", node.name, name_region, "python class")
    parts.put((), name_region, f"model {node.name}")
    doc = _docstring(node)
    if doc is not None:
        parts.put(("description",), where.node(doc), f"docstring of model {node.name}", doc.value)
    fields, refs = [], []
    for statement in node.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            if last_name(statement.annotation) == "ClassVar":
                continue
            param = make_param(statement.target.id, statement.target, statement.annotation,
                               statement.value, where)
            fields.append(param)
            if (model := _model_name(param.annotation)) is not None:
                refs.append((param.name, model))
    for param in fields:
        put_param(parts, ("properties", param.name), param, where, f"field of {node.name}:")
    bases = [name for base in node.bases if (name := last_name(base))]
    if any(last_name(d.func if isinstance(d, ast.Call) else d) == "dataclass" for d in node.decorator_list):
        bases.append("dataclass")  # pydantic lists a dataclass's fields like a model's
    return Model(node.name, where.path, bases, parts, [param.name for param in fields if param.required], refs)


def _literal_call(node: ast.Call, where: Locator, names) -> Definition | None:
    kind = LITERAL_CALLS.get(last_name(node.func) or "")
    if kind is None or node.args:
        return None
    given = keywords(node)
    name_kw = given.get("name")
    name = text_of(name_kw.value, names) if name_kw else None
    if name is None:
        return None
    anchor = where.node(name_kw.value)
    uri_kw = given.get("uri") or given.get("uri_template") or given.get("uriTemplate")
    definition = Definition(kind, name, anchor, f"python {_dotted(node.func)}(...)",
                            uri=text_of(uri_kw.value, names) if uri_kw else None)
    definition.put((), anchor, f"name of {name}")
    map_literal(node, (), definition, where, names, f"{_dotted(node.func)}(...) of {name}")
    definition.static = {"literal": (node, names)}
    return definition


def _literal_dict(node: ast.Dict, where: Locator, names) -> Definition | None:
    keys = {k.value: v for k, v in zip(node.keys, node.values)
            if isinstance(k, ast.Constant) and isinstance(k.value, str) and v is not None}
    name = text_of(keys.get("name"), names)
    if name is None:
        return None
    kind = next((kind for key, kind in DICT_KINDS if key in keys), None)
    if kind is None or (kind == "prompts" and not isinstance(keys["arguments"], (ast.List, ast.Tuple))):
        return None
    anchor = where.node(keys["name"])
    uri = keys.get("uri") or keys.get("uriTemplate")
    definition = Definition(kind, name, anchor, "python dict literal",
                            uri=text_of(uri, names) if uri is not None else None)
    definition.put((), anchor, f"name of {name}")
    map_literal(node, (), definition, where, names, f"dict literal of {name}")
    definition.static = {"literal": (node, names)}
    return definition
