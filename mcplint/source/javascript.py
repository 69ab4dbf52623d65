"""Tool, prompt and resource definitions in JavaScript and TypeScript (the official TypeScript SDK).

- `server.registerTool("name", {title, description, inputSchema, outputSchema, annotations}, cb)`
  and every overload of `server.tool("name", [description], [paramsSchema], [annotations], cb)`;
  `registerPrompt` / `prompt` (argsSchema -> arguments), `registerResource` / `resource`
  (a URI string, or `new ResourceTemplate("uri/{x}", ...)` for a template).
- zod shapes: each key is a property (`/inputSchema/properties/<key>`), `.describe("...")` is its
  description, the constructor (`z.string()`) its type, `.min()`, `.max()`, `.email()` ... its
  constraints, and keys without `.optional()`/`.default()` are `required` in order.
- Plain object literals of a low-level `Server`: `{name: "x", description: "...", inputSchema:
  {type: "object", properties: {...}}}` (also prompts with `arguments: [...]` and resources with
  `uri`/`uriTemplate`): their keys map to JSON pointers one to one.
- A name declared once with `const`/`let`/`var` stands for its value (`inputSchema: Shape`).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

from mcplint.source.jsparse import Arr, Chain, Node, Obj, Parser, Str
from mcplint.source.jstokens import tokenize
from mcplint.source.model import Definition, Pointer, Region

VERBS = {"registerTool": "tools", "tool": "tools", "registerPrompt": "prompts", "prompt": "prompts",
         "registerResource": "resources", "resource": "resources", "addTool": "tools"}
PREFILTER = ("registerTool", ".tool(", "registerPrompt", ".prompt(", "registerResource", ".resource(",
             "inputSchema", "uriTemplate", "addTool")
ANNOTATION_KEYS = {"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
ZOD_TYPES = {"string", "number", "boolean", "bigint", "date", "any", "unknown", "literal", "enum",
             "nativeEnum", "array", "object", "union", "record", "tuple", "null", "int", "discriminatedUnion"}
OPTIONAL = {"optional", "nullish", "default", "catch"}
BOUNDS = {"string": ("minLength", "maxLength"), "array": ("minItems", "maxItems"),
          "number": ("minimum", "maximum"), "int": ("minimum", "maximum")}
FORMATS = {"email", "url", "uuid", "datetime", "date", "time", "ip", "cuid", "ulid", "emoji", "base64"}
LITERAL_KINDS = (("inputSchema", "tools"), ("uriTemplate", "resourceTemplates"), ("uri", "resources"),
                 ("arguments", "prompts"))
MAX_DEPTH = 64


def wants(text: str) -> bool:
    return any(marker in text for marker in PREFILTER)


class Reader:
    def __init__(self, path: str, text: str, span: Callable[[int, int], object]) -> None:
        self.path, self.text = path, text
        self.tokens = tokenize(text)  # TokenizeError on text it cannot read
        self.parser = Parser(self.tokens)
        self._span = span
        self.declarations = self._declarations()
        self._values: dict[str, Node | None] = {}

    def region(self, start: int, end: int) -> Region:
        return Region(self.path, self._span(start, end))

    def node_region(self, node: Node) -> Region:
        return self.region(node.start, node.end)

    def _declarations(self) -> dict[str, int]:
        found: dict[str, int] = {}
        tokens = self.tokens
        for i in range(len(tokens) - 3):
            if (tokens[i].kind == "name" and tokens[i].text in ("const", "let", "var")
                    and tokens[i + 1].kind == "name" and tokens[i + 2].text == "="):
                found.setdefault(tokens[i + 1].text, i + 3)
        return found

    def resolve(self, node: Node | None, depth: int = 0) -> Node | None:
        """A bare identifier declared in this file stands for the declared value, and so does a member
        of a declared object literal (azure-devops' `TOOLS.work_list`, figma's `spec.name`), the
        `.shape` of a `z.object(shape)` being its shape."""
        if not isinstance(node, Chain) or node.base not in self.declarations or depth >= 4:
            return node
        if not node.segments:
            if node.base not in self._values:
                self._values[node.base] = self.parser.expression(self.declarations[node.base])[0]
            value = self._values[node.base]
            return self.resolve(value, depth + 1) if value is not None else node
        if any(segment.kind != "prop" for segment in node.segments):
            return node
        value = self.resolve(Chain(node.start, node.end, node.base), depth + 1)
        for segment in node.segments:
            if isinstance(value, Obj) and (entry := value.get(segment.name)) is not None and entry.value is not None:
                value = self.resolve(entry.value, depth + 1)
            elif segment.name == "shape" and isinstance(value, Chain) and value.calls() \
                    and value.calls()[0][0] == "object" and value.calls()[0][2].args:
                value = self.resolve(value.calls()[0][2].args[0], depth + 1)
            else:
                return node
        return value

    # -- definitions -----------------------------------------------------------------------
    def definitions(self) -> list[Definition]:
        found: list[Definition] = []
        tokens, punct, mcp_file = self.tokens, self.parser.p, "mcp" in self.text.lower()
        calls: list[tuple[int, int]] = []  # token ranges of registration calls, read already
        for i in range(len(tokens) - 2):
            if punct[i] not in (".", "?.") or punct[i + 2] != "(":
                continue
            verb = tokens[i + 1]
            if verb.kind == "name" and verb.text in VERBS and (verb.text.startswith("register") or mcp_file):
                args, end = self.parser.arguments(i + 2, 1)
                definition = self._registration(verb.text, args)
                if definition is not None:
                    found.append(definition)
                    calls.append((i, end))
        found.extend(self._literals(calls))
        return found

    def _registration(self, verb: str, args: list[Node]) -> Definition | None:
        if verb == "addTool":
            return self._add_tool(self.resolve(args[0]) if args else None)
        # `registerTool(name, config, cb)` with `const name = "..."` (the reference server everything)
        name_node = self.resolve(args[0]) if args else None
        if not isinstance(name_node, Str) or not name_node.plain:
            return None
        kind = VERBS[verb]
        # a member of a map of names is placed where the call names it, not in the map
        anchor = self.node_region(args[0] if isinstance(args[0], Chain) and args[0].segments else name_node)
        definition = Definition(kind, name_node.value, anchor, f"typescript {verb}()")
        definition.put((), anchor, f"name of {name_node.value}")
        definition.put(("name",), anchor, "name", name_node.value)
        rest = [self.resolve(arg) for arg in args[1:-1]] if len(args) > 2 else []
        if verb == "registerTool":
            config = rest[0] if rest and isinstance(rest[0], Obj) else None
            self._config(definition, config, {"inputSchema": "shape", "outputSchema": "shape"})
        elif verb == "tool":
            params = None
            for arg in rest:
                if isinstance(arg, Str):
                    self._put_text(definition, ("description",), arg, "description argument")
                elif params is None and not _annotations_like(arg):
                    params = arg
                    self._shape(definition, ("inputSchema",), arg, None, 0)
                elif isinstance(arg, Obj):
                    self._literal(definition, ("annotations",), arg, None, 0)
        elif verb in ("registerPrompt", "prompt"):
            config = rest[0] if verb == "registerPrompt" and rest and isinstance(rest[0], Obj) else None
            self._config(definition, config, {"argsSchema": "arguments"})
            if verb == "prompt":
                for arg in rest:
                    if isinstance(arg, Str):
                        self._put_text(definition, ("description",), arg, "description argument")
                    else:
                        self._arguments(definition, arg)
        else:
            self._resource(definition, verb, [self.resolve(arg) for arg in args[1:]])
        return definition

    def _resource(self, definition: Definition, verb: str, args: list[Node]) -> None:
        target = args[0] if args else None
        if isinstance(target, Chain) and target.base == "ResourceTemplate":
            first = target.segments[0].args[0] if target.segments and target.segments[0].args else None
            definition.kind = "resourceTemplates"
            if isinstance(first, Str):
                definition.uri = first.value if first.plain else None
                self._put_text(definition, ("uriTemplate",), first, "URI template")
        elif isinstance(target, Str):
            definition.uri = target.value if target.plain else None
            self._put_text(definition, ("uri",), target, "URI")
        metadata = args[1] if len(args) > 2 and isinstance(args[1], Obj) else None
        self._config(definition, metadata, {})

    def _add_tool(self, config: Node | None) -> Definition | None:
        """The `fastmcp` package for TypeScript (firecrawl): `server.addTool({name, description,
        parameters: z.object({...}), annotations, execute})`."""
        if not isinstance(config, Obj):
            return None
        name_entry = next((e for e in config.entries if e.key == "name"), None)
        name_node = self.resolve(name_entry.value) if name_entry is not None else None
        if not isinstance(name_node, Str) or not name_node.plain:
            return None
        named = name_entry.value
        anchor = self.node_region(named if isinstance(named, Chain) and named.segments else name_node)
        definition = Definition("tools", name_node.value, anchor, "typescript addTool()")
        definition.put((), anchor, f"name of {name_node.value}")
        self._config(definition, config, {"parameters": "parameters", "execute": "skip"})
        return definition

    def _config(self, definition: Definition, config: Obj | None, special: dict[str, str]) -> None:
        if config is None:
            return
        for entry in config.entries:
            if entry.key is None or entry.value is None:
                continue
            key_region = self.region(entry.key_start, entry.key_end)
            value = self.resolve(entry.value)
            how = special.get(entry.key)
            if how == "skip":
                continue
            if how == "shape":
                self._shape(definition, (entry.key,), value, key_region, 0)
            elif how == "parameters":  # addTool's name for the input schema
                self._shape(definition, ("inputSchema",), value, key_region, 0)
            elif how == "arguments":
                self._arguments(definition, value)
            else:
                self._literal(definition, (entry.key,), entry.value, key_region, 0)

    def _put_text(self, definition: Definition, pointer: Pointer, node: Node, label: str) -> None:
        text = node.value if isinstance(node, Str) and node.plain else None
        definition.put(pointer, self.node_region(node), label, text)

    # -- zod -------------------------------------------------------------------------------
    def _shape(self, definition: Definition, base: Pointer, node: Node | None, key: Region | None,
               depth: int) -> None:
        """A zod raw shape `{a: z.string()}`, `z.object({...})`, or a JSON Schema object literal."""
        node = self.resolve(node)
        if node is None or depth > MAX_DEPTH:
            return
        if (isinstance(node, Chain) and len(node.segments) == 1 and node.segments[0].kind == "prop"
                and node.segments[0].name == "shape"):  # `Schema.shape` of a `const Schema = z.object({...})`
            node = self.resolve(Chain(node.start, node.end, node.base))
        if isinstance(node, Chain) and node.calls() and node.calls()[0][0] == "object":
            definition.put(base, key or self.node_region(node), "zod object")
            args = node.calls()[0][2].args
            node = self.resolve(args[0]) if args else None
            if not isinstance(node, Obj):
                return
        if not isinstance(node, Obj):
            definition.put(base, key or self.node_region(node), "schema")
            return
        if node.get("type") or node.get("properties") or node.get("$schema"):
            self._literal(definition, base, node, key, depth)  # a JSON Schema literal
            return
        region = key or self.node_region(node)
        definition.put(base, region, "zod shape")
        definition.put(base + ("properties",), region, "zod shape")
        required = 0
        for entry in node.entries:
            if entry.key is None or entry.value is None:
                continue
            key_region = self.region(entry.key_start, entry.key_end)
            value = self.resolve(entry.value)
            self._zod(definition, base + ("properties", entry.key), value, key_region, depth + 1)
            if not _optional(value):
                definition.put(base + ("required", str(required)), key_region, f"property {entry.key}")
                required += 1

    def _zod(self, definition: Definition, pointer: Pointer, node: Node | None, key: Region | None,
             depth: int) -> None:
        node = self.resolve(node)
        if node is None or depth > MAX_DEPTH:
            return
        what = pointer[-1] if not pointer[-1].isdigit() else f"argument {pointer[-1]}"
        definition.put(pointer, key or self.node_region(node), f"property {what}")
        if not isinstance(node, Chain):
            return
        calls, constructor = node.calls(), None
        for method, prop, call in calls:
            args = call.args
            if constructor is None and method in ZOD_TYPES:
                constructor = method
                region = self.region(node.start, call.end)
                definition.put(pointer + ("type",), region, f"zod type of {what}")
                if method == "enum" and args:
                    definition.put(pointer + ("enum",), self.node_region(args[0]), f"zod enum of {what}")
                elif method == "array" and args:
                    self._zod(definition, pointer + ("items",), args[0], None, depth + 1)
                elif method == "object" and args:
                    self._shape(definition, pointer, args[0], key, depth + 1)
            elif method == "describe" and args:
                self._put_text(definition, pointer + ("description",), args[0], f"describe() of {what}")
            elif method == "meta" and args and isinstance(args[0], Obj):
                entry = args[0].get("description")
                if entry is not None and entry.value is not None:
                    self._put_text(definition, pointer + ("description",), entry.value, f"meta() of {what}")
            elif method == "default" and args:
                definition.put(pointer + ("default",), self.node_region(args[0]), f"default of {what}")
            elif method in ("min", "max", "gte", "lte", "gt", "lt", "length", "nonempty", "positive"):
                lower, upper = BOUNDS.get(constructor or "", ("minimum", "maximum"))
                keyword = upper if method in ("max", "lte", "lt") else lower
                if constructor in ("number", "int") and method in ("gt", "lt"):
                    keyword = "exclusiveMinimum" if method == "gt" else "exclusiveMaximum"
                definition.put(pointer + (keyword,), self.region(prop.start, call.end), f".{method}() of {what}")
            elif method in FORMATS:
                definition.put(pointer + ("format",), self.region(prop.start, call.end), f".{method}() of {what}")
            elif method == "regex":
                definition.put(pointer + ("pattern",), self.region(prop.start, call.end), f".regex() of {what}")
            elif method == "int":
                definition.put(pointer + ("type",), self.region(prop.start, call.end), f".int() of {what}")
        if node.base in self.declarations and node.segments:  # `Status.optional()`: Status's own chain
            self._zod(definition, pointer, self.resolve(Chain(node.start, node.end, node.base)), key, depth + 1)

    def _arguments(self, definition: Definition, node: Node | None) -> None:
        """A prompt's argsSchema: each key is an argument, in order."""
        node = self.resolve(node)
        if isinstance(node, Chain) and node.calls() and node.calls()[0][0] == "object":
            args = node.calls()[0][2].args
            node = self.resolve(args[0]) if args else None
        if not isinstance(node, Obj):
            return
        entries = [entry for entry in node.entries if entry.key is not None and entry.value is not None]
        if entries:
            first = self.region(entries[0].key_start, entries[0].key_end)
            definition.put(("arguments",), first, "argsSchema")
        for i, entry in enumerate(entries):
            base, key_region = ("arguments", str(i)), self.region(entry.key_start, entry.key_end)
            definition.put(base, key_region, f"argument {entry.key}")
            definition.put(base + ("name",), key_region, f"argument {entry.key}", entry.key)
            definition.put(base + ("required",), key_region, f"argument {entry.key}")
            self._zod(definition, base, self.resolve(entry.value), key_region, 1)

    # -- plain literals --------------------------------------------------------------------
    def _literal(self, definition: Definition, pointer: Pointer, node: Node | None, key: Region | None,
                 depth: int) -> None:
        resolved = self.resolve(node)
        if node is None or depth > MAX_DEPTH:
            return
        if resolved is not node:
            definition.put(pointer, key or self.node_region(node), f"{pointer[-1] if pointer else 'entry'}")
            node = resolved
        label = f"{pointer[-1]}" if pointer else "entry"
        if isinstance(node, Obj):
            definition.put(pointer, key or self.node_region(node), label)
            for entry in node.entries:
                if entry.key is not None and entry.value is not None:
                    region = self.region(entry.key_start, entry.key_end)
                    nested = isinstance(self.resolve(entry.value), (Obj, Arr))
                    self._literal(definition, pointer + (entry.key,), entry.value, region if nested else None,
                                  depth + 1)
        elif isinstance(node, Arr):
            definition.put(pointer, key or self.node_region(node), label)
            for i, item in enumerate(node.items):
                if item is not None:
                    self._literal(definition, pointer + (str(i),), item, None, depth + 1)
        elif isinstance(node, Str):
            self._put_text(definition, pointer, node, label)
        elif node is not None:
            definition.put(pointer, self.node_region(node), label)

    def _opener(self, i: int) -> int | None:
        """The '{' of the object literal whose key is token i (walking back over balanced groups)."""
        punct, depth = self.parser.p, 0
        for j in range(i - 1, max(i - 20_000, -1), -1):
            mark = punct[j]
            if mark in (")", "]", "}"):
                depth += 1
            elif mark in ("(", "[", "{"):
                if depth == 0:
                    return j if mark == "{" else None
                depth -= 1
        return None

    def _literals(self, calls: list[tuple[int, int]]) -> list[Definition]:
        """Object literals with a string `name` and an `inputSchema` (or prompt/resource) key."""
        found, tokens, punct, done = [], self.tokens, self.parser.p, set()
        keys = {key for key, _ in LITERAL_KINDS}
        starts = [start for start, _ in calls]
        opener_of: dict[int, int] = {}
        for i, token in enumerate(tokens):
            if token.text in keys and punct[i + 1] == ":" and token.kind in ("name", "str"):
                at = bisect.bisect_right(starts, i) - 1
                if at >= 0 and i < calls[at][1]:
                    continue  # a registration's config, read with its call
                opener = self._opener(i)
                if opener is not None:
                    opener_of[i] = opener
        for opener in sorted(set(opener_of.values())):
            if opener in done:
                continue
            done.add(opener)
            node, _ = self.parser.object(opener, 1)
            name = node.get("name")
            value = self.resolve(name.value) if name is not None else None
            if not isinstance(value, Str) or not value.plain:
                continue
            keys = {entry.key for entry in node.entries}
            kind = next((kind for key, kind in LITERAL_KINDS if key in keys), None)
            if kind == "prompts" and not isinstance(self.resolve(node.get("arguments").value), Arr):
                continue
            anchor = self.node_region(value)
            definition = Definition(kind, value.value, anchor, "typescript object literal")
            definition.put((), anchor, f"name of {value.value}")
            uri = node.get("uri") or node.get("uriTemplate")
            if uri is not None and isinstance(uri.value, Str) and uri.value.plain:
                definition.uri = uri.value.value
            self._literal(definition, (), node, anchor, 0)
            found.append(definition)
        return found


def _annotations_like(node: Node | None) -> bool:
    """`server.tool`'s object argument is annotations when every key is an annotation hint."""
    return (isinstance(node, Obj) and bool(node.entries)
            and all(entry.key in ANNOTATION_KEYS and (isinstance(entry.value, Str) or (
                isinstance(entry.value, Chain) and not entry.value.segments)) for entry in node.entries))


def _optional(node: Node | None) -> bool:
    return isinstance(node, Chain) and any(method in OPTIONAL for method, _, _ in node.calls())


def read(path: str, text: str, span) -> list[Definition]:
    """Raises TokenizeError on text the tokenizer cannot read."""
    return Reader(path, text, span).definitions()


__all__ = ["Reader", "read", "wants"]
