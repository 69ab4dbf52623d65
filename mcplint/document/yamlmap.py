"""YAML -> plain data plus an eager source map, from ruamel's composed node graph.

Constructing from nodes ourselves (instead of ruamel's constructors) keeps every
duplicate key (the last wins, as with JSON), keeps timestamps as strings, and lets
alias expansion be bounded before anything is built.
"""

from __future__ import annotations

import math

from mcplint.document.pointer import Pointer
from mcplint.document.span import Span, from_marks
from mcplint.document.string_offsets import YAML_DOUBLE_ESCAPE, YAML_SINGLE_ESCAPE, StringOffsets
from mcplint.errors import InputError
from mcplint.regex_cache import regex

MAX_EXPANDED_NODES = 1_000_000
# Aliases may make the text of a document's scalars at most this many times the document's own
# size (or MIN_EXPANDED_CHARS): shared schemas repeat small nodes, not megabytes of text.
MAX_EXPANSION = 8
MIN_EXPANDED_CHARS = 4 << 20
MAX_FLOW_DEPTH = 256  # ruamel's scanner slows down sharply with deep flow nesting
# Brackets outside quoted scalars. A quote opens a scalar only where a YAML token can start
# (not the apostrophe of "don't"), and an unclosed one runs to the end: every match succeeds
# once begun, so the scan is linear (a failing `"...` retried at each quote was quadratic).
_FLOW_TOKEN = regex(
    r"""(?s)(?<![^\s\[{,:])(?:"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)|'[^']*(?:''[^']*)*(?:'|\Z))|[\[\]{}]"""
)

_BOOL = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}


class YamlSourceMap:
    def __init__(self, spans: dict, key_spans: dict, text: str = "", one_line: dict | None = None) -> None:
        self._spans = spans
        self._key_spans = key_spans
        self._text = text
        self._one_line = one_line or {}  # path -> (style, start index) of a string scalar on one line

    def prepare(self, pointers) -> None:  # everything is mapped eagerly
        pass

    def span(self, pointer: Pointer, key: bool = False, within: tuple[int, int] | None = None) -> tuple[Span, Pointer]:
        tokens = tuple(str(t) for t in pointer)
        depth = len(tokens)
        while tokens[:depth] not in self._spans:
            depth -= 1
        found = tokens[:depth]
        if key and depth == len(tokens) and found in self._key_spans:
            return self._key_spans[found], Pointer(pointer[:depth])
        if within is not None and depth == len(tokens) and found in self._one_line:
            return self._narrowed(self._spans[found], *self._one_line[found], within), Pointer(pointer)
        return self._spans[found], Pointer(pointer[:depth])

    def _narrowed(self, whole: Span, style: str | None, index: int, within: tuple[int, int]) -> Span:
        """The columns of ``within`` in a string scalar written on one line (a folded or
        multi-line scalar keeps the whole value: its characters are not where they print)."""
        if style is None:  # plain: the characters as written
            low, high = index + within[0], index + within[1]
        else:
            escape = YAML_SINGLE_ESCAPE if style == "'" else YAML_DOUBLE_ESCAPE
            offsets = StringOffsets(self._text, index + 1, index + whole.end_column - whole.column - 1, escape)
            low, high = offsets.raw(within[0]), offsets.raw(within[1])
        width = whole.end_column - whole.column
        if not 0 <= low - index < high - index <= width:
            return whole
        return Span(whole.line, whole.column + low - index, whole.line, whole.column + high - index)


def load_yaml(text: str, path: str, max_nodes: int = MAX_EXPANDED_NODES):
    """Return (data, source_map, duplicate_members) or raise InputError."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    _check_flow_depth(text, path)
    try:
        # the safe composer: the round-trip one keeps comments, at a cost quadratic in comment lines
        # inside a mapping (1 MB of "#" lines took 43 s); positions are the same marks
        root = YAML(typ="safe", pure=True).compose(text)
    except RecursionError:  # deep block nesting: ruamel's composer recurses per level
        line = _deep_block_line(text)
        raise InputError(path, f"document is nested too deeply (over {MAX_FLOW_DEPTH} levels)" if line
                         else "document is nested too deeply", line, 1 + _indent(text, line) if line else None) from None
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        problem = ", ".join(p for p in (err.context, err.problem) if p) or "invalid YAML"
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        raise InputError(path, f"invalid YAML: {problem}", line, col) from None
    except YAMLError as err:
        raise InputError(path, f"invalid YAML: {str(err).splitlines()[0]}") from None
    if root is None:
        raise InputError(path, "empty YAML document")
    try:
        _check_expansion(root, path, max_nodes, max(MAX_EXPANSION * len(text), MIN_EXPANDED_CHARS))
        builder = _Builder(path)
        data = builder.build(root, ())
    except RecursionError:
        raise InputError(path, "document is nested too deeply") from None
    return data, YamlSourceMap(builder.spans, builder.key_spans, text, builder.one_line), builder.duplicates


def _check_flow_depth(text: str, path: str) -> None:
    depth = 0
    for match in _FLOW_TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_FLOW_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
                raise InputError(path, f"document is nested too deeply (over {MAX_FLOW_DEPTH} levels)", line, column)
        elif token in "]}":
            depth = max(depth - 1, 0)


def _deep_block_line(text: str) -> int | None:
    """The first line indented past MAX_FLOW_DEPTH deeper levels (each deeper indentation opens a
    level in block style), to name where a document too deep to compose got too deep."""
    levels = [-1]
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        while indent < levels[-1]:
            levels.pop()
        if indent > levels[-1]:
            levels.append(indent)
            if len(levels) - 1 > MAX_FLOW_DEPTH:
                return number
    return None


def _indent(text: str, line: int) -> int:
    row = text.split("\n", line)[line - 1]
    return len(row) - len(row.lstrip(" "))


def _span(node) -> Span:
    s, e = node.start_mark, node.end_mark
    return from_marks(s.line, s.column, e.line, e.column)


def _check_expansion(root, path: str, max_nodes: int = MAX_EXPANDED_NODES, max_chars: int | None = None) -> None:
    """Reject recursive aliases and alias bombs before building anything: more than ``max_nodes``
    nodes, or scalars of more than ``max_chars`` characters, counting each use of an alias (one
    2 MiB description aliased 500 times made a 1 GB lock file)."""
    sizes: dict[int, tuple[int, int]] = {}
    active: set[int] = set()

    def size(node) -> tuple[int, int]:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in active:
            raise InputError(path, "recursive YAML alias", node.start_mark.line + 1, node.start_mark.column + 1)
        active.add(key)
        nodes, chars = 1, 0
        if node.id == "scalar":
            chars = len(node.value) if isinstance(node.value, str) else 0
        else:
            for child in (node.value if node.id == "sequence" else (c for pair in node.value for c in pair)):
                more_nodes, more_chars = size(child)
                nodes, chars = nodes + more_nodes, chars + more_chars
        active.discard(key)
        sizes[key] = nodes, chars
        return nodes, chars

    nodes, chars = size(root)
    where = root.start_mark.line + 1, root.start_mark.column + 1
    if nodes > max_nodes:
        raise InputError(
            path, f"YAML document holds more than {max_nodes:,} nodes, counting each use of an alias (an alias bomb?)",
            *where)
    if max_chars is not None and chars > max_chars:
        raise InputError(
            path, f"YAML document's aliases expand its text to more than {max_chars:,} characters (an alias bomb?)",
            *where)


class _Builder:
    def __init__(self, path: str) -> None:
        self.path = path
        self.spans: dict[tuple, Span] = {}
        self.key_spans: dict[tuple, Span] = {}
        self.duplicates: list[Pointer] = []
        self.one_line: dict[tuple, tuple[str | None, int]] = {}  # see YamlSourceMap

    def build(self, node, path: tuple):
        self.spans[path] = _span(node)
        if node.id == "scalar":
            value = self.scalar(node)
            style = getattr(node, "style", None)
            if type(value) is str and style in (None, "'", '"') and node.start_mark.line == node.end_mark.line:
                self.one_line[path] = (style, node.start_mark.index)
            return value
        if node.id == "sequence":
            return [self.build(child, path + (str(i),)) for i, child in enumerate(node.value)]
        result: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self._merge(result, value_node, path)
                continue
            key = self.scalar(key_node) if key_node.id == "scalar" else str(key_node.value)
            key = key if isinstance(key, str) else str(key).lower() if isinstance(key, bool) else str(key)
            child = path + (key,)
            if key in result:
                self.duplicates.append(Pointer(child))
            self.key_spans[child] = _span(key_node)
            result[key] = self.build(value_node, child)
        return result

    def scalar(self, node):
        """``_scalar``, with what JSON cannot hold as a one-line error at the node."""
        try:
            return _scalar(node)
        except _NotJson as err:
            mark = node.start_mark
            raise InputError(self.path, str(err), mark.line + 1, mark.column + 1) from None

    def _merge(self, result: dict, value_node, path: tuple) -> None:
        sources = value_node.value if value_node.id == "sequence" else [value_node]
        for source in sources:
            merged = self.build(source, path + ("<<",))
            if isinstance(merged, dict):
                for key, value in merged.items():
                    result.setdefault(key, value)


class _NotJson(ValueError):
    """A scalar that has no JSON equivalent (MCP tool definitions are JSON)."""


MAX_INT_DIGITS = 4300  # as for JSON (mcplint.document.loader): longer integers cannot be printed again
_MAX_INT_BITS = 14_284  # the same bound for integers written in hex, octal or binary


def _scalar(node):
    value = _scalar_value(node)
    if isinstance(value, str):
        if getattr(node, "style", None) == '"' and _SURROGATES.search(value):  # from \u escapes
            try:  # a pair of escaped halves is one character; a lone half is no character at all
                value = value.encode("utf-16", "surrogatepass").decode("utf-16")
            except UnicodeDecodeError:
                raise _NotJson("string holds a lone UTF-16 surrogate, which is not a Unicode character "
                               "and cannot be encoded as UTF-8") from None
    elif isinstance(value, float) and not math.isfinite(value):
        raise _NotJson(f"{node.value} is not a JSON number (JSON has no NaN or infinity)")
    elif isinstance(value, int) and value.bit_length() > _MAX_INT_BITS:
        raise _NotJson(f"integer {node.value[:10]}… is too long (the limit is {MAX_INT_DIGITS:,} digits)")
    return value


_SURROGATES = regex("[\ud800-\udfff]")


def _scalar_value(node):
    tag, value = node.tag, node.value
    if isinstance(tag, str):
        name = tag
    else:  # ruamel Tag object
        name = getattr(tag, "value", None) or str(tag)
    if name.endswith(":str") or getattr(node, "style", None) in ("'", '"', "|", ">"):
        return value
    if name.endswith(":null"):
        return None
    if name.endswith(":bool"):
        return _BOOL.get(value.lower(), value)
    if name.endswith(":int"):
        try:
            text = value.replace("_", "")
            if text.startswith(("0o", "-0o", "+0o")):
                return int(text.replace("0o", ""), 8)
            digits = len(text.lstrip("+-"))
            if digits > MAX_INT_DIGITS and text.lstrip("+-").isdigit():
                raise _NotJson(f"integer with {digits:,} digits is too long (the limit is {MAX_INT_DIGITS:,} digits)")
            return int(text, 0) if text.lstrip("+-").startswith(("0x", "0b")) else int(text)
        except ValueError as err:
            if isinstance(err, _NotJson):
                raise
            return value
    if name.endswith(":float"):
        try:
            return float(value.replace("_", ""))
        except ValueError:
            low = value.lower()
            if low in (".inf", "+.inf"):
                return float("inf")
            if low == "-.inf":
                return float("-inf")
            if low == ".nan":
                return float("nan")
            return value
    return value  # timestamps, binary and custom tags stay text: JSON has no such types
