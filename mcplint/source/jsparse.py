"""A forgiving JavaScript/TypeScript expression reader over `jstokens` tokens.

It reads what tool definitions are made of: string and template literals, object and array
literals, and call chains (`z.string().describe("...")`, `new ResourceTemplate(...)`).
Anything else (functions, operators, types) is skipped with its brackets balanced and kept as
`Other`, so a construct it does not know never derails what follows. Nesting deeper than
`MAX_DEPTH` is skipped, not recursed into, so hostile sources cannot exhaust the stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mcplint.source.jstokens import Token

MAX_DEPTH = 100
EXPRESSIONS_PER_TOKEN, MIN_EXPRESSIONS = 2, 20_000
OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {")", "]", "}"}
STOP = {",", ";", ")", "]", "}"}


@dataclass
class Node:
    start: int  # code-point offsets into the text
    end: int


@dataclass
class Str(Node):
    value: str = ""
    plain: bool = True  # False: a template literal with substitutions, value unknown


@dataclass
class Entry:
    key: str | None  # None for computed keys and spreads
    key_start: int
    key_end: int
    value: Node | None


@dataclass
class Obj(Node):
    entries: list[Entry] = field(default_factory=list)

    def get(self, key: str) -> Entry | None:
        return next((entry for entry in self.entries if entry.key == key), None)


@dataclass
class Arr(Node):
    items: list[Node | None] = field(default_factory=list)


@dataclass
class Segment:
    kind: str  # "prop" or "call"
    name: str  # property name ("" for calls)
    start: int  # a property starts at its '.', a call at its '('
    end: int
    args: list[Node] = field(default_factory=list)


@dataclass
class Chain(Node):
    base: str = ""
    segments: list[Segment] = field(default_factory=list)

    def calls(self) -> list[tuple[str, Segment, Segment]]:
        """(method name, its property segment, its call segment) for each `.name(...)`."""
        found = []
        for first, second in zip(self.segments, self.segments[1:]):
            if first.kind == "prop" and second.kind == "call":
                found.append((first.name, first, second))
        return found


@dataclass
class Other(Node):
    pass


class ParseBudgetExceeded(ValueError):
    """The file's registrations would take more parsing than any real source needs (it is skipped)."""


class Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.n = len(tokens)
        # Punctuation by index (None for other tokens), padded so look-ahead never runs off the end.
        self.p = [token.text if token.kind == "punct" else None for token in tokens] + [None] * 4
        self._partners: dict[int, int] | None = None  # opening bracket -> just after its partner
        # Expressions this file may cost: real servers parse under 0.1 per token; nested unclosed
        # registrations (`a.registerTool(` x 27,000) re-parse each other 100 levels deep.
        self.budget = EXPRESSIONS_PER_TOKEN * len(tokens) + MIN_EXPRESSIONS

    def _pair_brackets(self) -> dict[int, int]:
        """skip_group's answer for every opening bracket (any closing bracket closes the latest
        open one, as skip_group counts them; one never closed runs to the end)."""
        partners, stack, n = {}, [], self.n
        for i, punct in enumerate(self.p[:n]):
            if punct is not None:
                if punct in OPEN:
                    stack.append(i)
                elif punct in CLOSE and stack:
                    partners[stack.pop()] = i + 1
        for i in stack:
            partners[i] = n
        return partners

    def text(self, i: int) -> str | None:
        return self.p[i] if i < self.n else None

    def skip_group(self, i: int) -> int:
        """From an opening bracket to just after its partner. The partners are found once, in one
        pass: a file of 2,700 unclosed `a.registerTool(` calls, each parsed, had every call scan
        to the end (73 s)."""
        if i < self.n and self.p[i] in OPEN:
            if self._partners is None:
                self._partners = self._pair_brackets()
            return self._partners[i]
        depth, p, n = 0, self.p, self.n
        while i < n:
            punct = p[i]
            if punct is not None:
                if punct in OPEN:
                    depth += 1
                elif punct in CLOSE:
                    depth -= 1
                    if depth <= 0:
                        return i + 1
            i += 1
        return n

    def skip_expression(self, i: int) -> int:
        """To the ',' / ';' / closing bracket that ends the expression starting at i."""
        p, n = self.p, self.n
        while i < n:
            punct = p[i]
            if punct is not None:
                if punct in OPEN:
                    i = self.skip_group(i)
                    continue
                if punct in STOP:
                    return i
            i += 1
        return n

    def expression(self, i: int, depth: int = 0) -> tuple[Node | None, int]:
        self.budget -= 1
        if self.budget < 0:
            raise ParseBudgetExceeded("its calls nest too deeply, or are left open too often, to read in bounded time")
        if i >= self.n or self.text(i) in STOP:
            return None, i
        node, j = self.primary(i, depth)
        if j < self.n and self.text(j) not in STOP:
            word = self.tokens[j].text if self.tokens[j].kind == "name" else None
            if word in ("as", "satisfies") and node is not None:
                return node, self.skip_expression(j)
            end = self.skip_expression(j)
            return Other(self.tokens[i].start, self.tokens[end - 1].end), end
        return node, j

    def primary(self, i: int, depth: int) -> tuple[Node | None, int]:
        token = self.tokens[i]
        if depth > MAX_DEPTH:
            end = self.skip_expression(i)
            return Other(token.start, self.tokens[max(end - 1, i)].end), end
        if token.kind in ("str", "tmpl"):
            return Str(token.start, token.end, token.text, token.plain), i + 1
        if token.kind == "punct" and token.text == "{":
            return self.object(i, depth + 1)
        if token.kind == "punct" and token.text == "[":
            return self.array(i, depth + 1)
        if token.kind == "name" and token.text == "new" and i + 1 < self.n and self.tokens[i + 1].kind == "name":
            return self.chain(i + 1, depth)
        if token.kind == "name" and token.text not in ("function", "async", "class"):
            return self.chain(i, depth)
        return None, i + 1 if token.kind != "punct" or token.text not in OPEN else self.skip_group(i)

    def chain(self, i: int, depth: int) -> tuple[Chain, int]:
        base = self.tokens[i]
        node = Chain(base.start, base.end, base.text)
        j = i + 1
        while j < self.n:
            punct = self.text(j)
            if punct in (".", "?.") and j + 1 < self.n and self.tokens[j + 1].kind == "name":
                name = self.tokens[j + 1]
                node.segments.append(Segment("prop", name.text, self.tokens[j].start, name.end))
                j += 2
            elif punct == "(":
                args, end = self.arguments(j, depth + 1)
                node.segments.append(Segment("call", "", self.tokens[j].start, self.tokens[end - 1].end, args))
                j = end
            elif punct == "[" or (punct == "!" and self.text(j + 1) != "="):
                j = self.skip_group(j) if punct == "[" else j + 1
            else:
                break
            node.end = self.tokens[j - 1].end
        return node, j

    def arguments(self, i: int, depth: int) -> tuple[list[Node], int]:
        """From '(' to after ')': the argument expressions (None-free; skipped ones are Other)."""
        args, j = [], i + 1
        while j < self.n and self.text(j) != ")":
            if self.text(j) == "...":
                j += 1
            node, end = self.expression(j, depth)
            if node is None and end == j:
                end = self.skip_expression(j)
                node = Other(self.tokens[j].start, self.tokens[max(end - 1, j)].end)
            if node is not None:
                args.append(node)
            j = end
            if self.text(j) == ",":
                j += 1
            elif self.text(j) != ")":
                return args, self.skip_group(i)
        return args, min(j + 1, self.n)

    def array(self, i: int, depth: int) -> tuple[Arr, int]:
        node, j = Arr(self.tokens[i].start, self.tokens[i].end), i + 1
        while j < self.n and self.text(j) != "]":
            if self.text(j) == ",":
                node.items.append(None)
                j += 1
                continue
            item, end = self.expression(j + (self.text(j) == "..."), depth)
            node.items.append(item)
            j = end
            if self.text(j) == ",":
                j += 1
            elif self.text(j) != "]":
                j = self.skip_group(i) - 1
                break
        node.end = self.tokens[min(j, self.n - 1)].end
        return node, min(j + 1, self.n)

    def object(self, i: int, depth: int) -> tuple[Obj, int]:
        node, j = Obj(self.tokens[i].start, self.tokens[i].end), i + 1
        while j < self.n and self.text(j) != "}":
            j = self.entry(node, j, depth)
            if self.text(j) == ",":
                j += 1
            elif self.text(j) != "}":
                j = self.skip_group(i) - 1
                break
        node.end = self.tokens[min(j, self.n - 1)].end
        return node, min(j + 1, self.n)

    def entry(self, node: Obj, j: int, depth: int) -> int:
        token = self.tokens[j]
        if self.text(j) == "...":
            return self.skip_expression(j + 1)
        if token.kind == "name" and token.text in ("get", "set", "async", "static") and \
                j + 1 < self.n and self.text(j + 1) not in (":", "(", ",", "}"):
            j += 1  # a modifier before a method's name
            token = self.tokens[j]
        if self.text(j) == "*":
            j += 1
            token = self.tokens[j] if j < self.n else token
        if self.text(j) == "[":
            key, key_end = None, self.skip_group(j)
        elif token.kind in ("name", "str", "num") or (token.kind == "tmpl" and token.plain):
            key, key_end = token.text, j + 1
        else:
            return self.skip_expression(j)
        after = self.text(key_end)
        if after == ":":
            value, end = self.expression(key_end + 1, depth)
            node.entries.append(Entry(key, token.start, token.end, value))
            return end
        if after in (",", "}"):  # shorthand `{ description }`: the value is the variable
            node.entries.append(Entry(key, token.start, token.end, Chain(token.start, token.end, token.text)))
            return key_end
        return self.skip_expression(key_end)  # a method, a getter, a default: not data
