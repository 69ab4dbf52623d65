"""Decorators of a server's own that register the function they decorate.

wikipedia-mcp writes `@register_tool("get_summary", schema)` over its tools, where
`register_tool` is a function of the same file whose inner decorator calls
`server.tool(func, name=name)` (and again with `name=f"wikipedia_{name}"`). Such a wrapper is
recognised when it is used as a decorator in the file that defines it and its body calls
`<x>.tool(...)`, `<x>.prompt(...)` or `<x>.add_tool(...)`. The name each of those calls gives
is read from its `name=`: one of the wrapper's parameters (the decorator's argument for it is
the name, and is where the name is written), an f-string of them, or nothing (the decorated
function's own name). A name built any other way is not guessed: that registration is left out.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass

from mcplint.source.pyast import keywords, last_name, text_of

KINDS = {"tool": "tools", "add_tool": "tools", "prompt": "prompts"}


@dataclass(frozen=True)
class Registration:
    kind: str  # "tools" or "prompts"
    name: ast.AST | None  # the registering call's name expression; None: the decorated function's name
    via: str  # the call, for how-labels: "server.tool"


@dataclass(frozen=True)
class Wrapper:
    params: tuple[str, ...]  # the wrapper's parameters, in order
    defaults: dict[str, ast.AST]
    registrations: tuple[Registration, ...]


@dataclass(frozen=True)
class Named:
    kind: str
    name: str
    node: ast.AST | None  # where the name is written in the decorator; None: the function's name
    via: str


def find(statements: list[ast.stmt]) -> dict[str, Wrapper]:
    """The wrappers among the file's functions, by name (only names used as decorators are looked at)."""
    used = {last_name(d.func if isinstance(d, ast.Call) else d)
            for node in statements if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            for d in node.decorator_list}
    used.discard(None)
    found: dict[str, Wrapper] = {}
    for node in statements:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in used and node.name not in found:
            wrapper = _wrapper(node)
            if wrapper is not None:
                found[node.name] = wrapper
    return found


def _wrapper(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Wrapper | None:
    registrations = []
    for call in _registering_calls(func):
        given = keywords(call)
        name = given["name"].value if "name" in given else None
        via = f"{last_name(call.func.value) or '...'}.{call.func.attr}"
        registrations.append(Registration(KINDS[call.func.attr], name, via))
    if not registrations:
        return None
    args = func.args
    positional = [a.arg for a in args.posonlyargs + args.args]
    defaults = dict(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    return Wrapper(tuple(positional + [a.arg for a in args.kwonlyargs]), defaults, tuple(registrations))


def _registering_calls(func: ast.FunctionDef | ast.AsyncFunctionDef):
    """The calls in `func` that register a function handed to the function they are written in:
    `server.tool(fn, ...)` or `mcp.tool(...)(fn)` where `fn` is its parameter, or `@mcp.tool(...)`
    over a function defined inside. A `.tool(...)` call handed anything else (a client's
    `client.tool(label)`, say) does not make `func` a wrapper."""
    pending = [(func, {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs})]
    while pending:
        scope, params = pending.pop(0)
        for node in _own_nodes(scope):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield from (d for d in node.decorator_list if isinstance(d, ast.Call) and _registers(d.func))
                inner = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                pending.append((node, {a.arg for a in inner}))
            elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name) \
                    and node.args[0].id in params:
                if _registers(node.func):
                    yield node
                elif isinstance(node.func, ast.Call) and _registers(node.func.func):
                    yield node.func


def _own_nodes(scope: ast.AST):
    """The nodes of a function's body in source order, and the functions defined in it, but not their bodies."""
    queue = deque(scope.body)
    while queue:
        node = queue.popleft()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            queue.extend(ast.iter_child_nodes(node))


def _registers(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in KINDS


def names(decorator: ast.AST, wrappers: dict[str, Wrapper], func_name: str,
          constants: dict[str, ast.AST]) -> list[Named]:
    """What `decorator` (a use of a wrapper, or not) registers the decorated function as."""
    call = decorator if isinstance(decorator, ast.Call) else None
    wrapper = wrappers.get(last_name(call.func if call else decorator) or "")
    if wrapper is None:
        return []
    bound = _bindings(wrapper, call, isinstance(call.func if call else decorator, ast.Attribute))
    found = []
    for registration in wrapper.registrations:
        named = _name(registration.name, bound, func_name, constants)
        if named is not None:
            found.append(Named(registration.kind, named[0], named[1], registration.via))
    return found


def _bindings(wrapper: Wrapper, call: ast.Call | None, method: bool) -> dict[str, ast.AST]:
    """The wrapper's parameters -> the decorator's arguments for them (or their defaults)."""
    params = list(wrapper.params)
    if method and params[:1] in (["self"], ["cls"]):
        params = params[1:]
    bound = {name: node for name, node in wrapper.defaults.items() if name in params}
    if call is not None:
        bound.update(zip(params, call.args))
        bound.update({kw.arg: kw.value for kw in call.keywords if kw.arg})
    return bound


def _name(expression: ast.AST | None, bound: dict[str, ast.AST], func_name: str,
          constants: dict[str, ast.AST]) -> tuple[str, ast.AST | None] | None:
    """(the registered name, the decorator argument that writes it), or None when not known."""
    if expression is None or (isinstance(expression, ast.Attribute) and expression.attr == "__name__"):
        return func_name, None
    if isinstance(expression, ast.Name) and expression.id in bound:
        value = text_of(bound[expression.id], constants)
        return (value, bound[expression.id]) if value else None
    if isinstance(expression, ast.JoinedStr):
        text, writer = "", None
        for part in expression.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                text += part.value
            elif (isinstance(part, ast.FormattedValue) and part.conversion == -1 and part.format_spec is None
                  and isinstance(part.value, ast.Name) and part.value.id in bound
                  and (value := text_of(bound[part.value.id], constants)) is not None):
                text += value
                writer = writer or bound[part.value.id]
            else:
                return None
        return (text, writer) if text and writer is not None else None
    return None
