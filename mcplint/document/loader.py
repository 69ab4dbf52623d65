"""Read a file (or stdin) into a Document; every failure is a one-line InputError."""

from __future__ import annotations

import codecs
import errno
import json
import os
import select
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcplint.document.pointer import Pointer
from mcplint.errors import InputError
from mcplint.document.value_count import MAX_VALUES, holds_too_many
from mcplint.regex_cache import regex

MAX_FILE_BYTES = 20 * 1024 * 1024
JSON_SUFFIXES = {".json"}
YAML_SUFFIXES = {".yaml", ".yml"}


@dataclass
class Document:
    path: str  # as shown in reports
    text: str
    data: Any
    format: str  # "json" | "yaml"
    source_map: Any  # JsonSourceMap | YamlSourceMap
    duplicate_keys: list[Pointer] = field(default_factory=list)


def read_text(path: str, raw: bytes, max_bytes: int = MAX_FILE_BYTES) -> str:
    if len(raw) > max_bytes:  # (only max_bytes + 1 were read: the size is the file's own, when it has one)
        size = _file_size(path)
        shown = "is over" if not size or size <= max_bytes else \
            f"is {size / 1024 ** 3:.1f} GiB, over" if size >= 1024 ** 3 else f"is {size / 1048576:.1f} MiB, over"
        raise InputError(
            path, f"file {shown} the {max_bytes // 1048576} MiB limit (raise it with max-file-size-mb in the config)"
        )
    if raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        raise InputError(path, "file is UTF-32 encoded; save it as UTF-8")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(path, "file is UTF-16 encoded; save it as UTF-8")
    nul = raw.find(b"\x00", 0, 8192)
    if nul != -1:
        raise InputError(path, "binary file (contains NUL bytes), expected JSON or YAML text", *_position(raw, nul))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(
            path, f"not valid UTF-8 (byte 0x{raw[err.start]:02x})", *_position(raw, err.start)
        ) from None
    if not text.strip():
        raise InputError(path, "empty file, expected a JSON or YAML document")
    return text


def _position(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    column = len(raw[line_start:offset].decode("utf-8", errors="replace")) + 1
    return raw.count(b"\n", 0, offset) + 1, column


def detect_format(path: str, text: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in JSON_SUFFIXES:
        return "json"
    if suffix in YAML_SUFFIXES:
        return "yaml"
    return "json" if text.lstrip()[:1] in ("{", "[") else "yaml"


def load_document(path: str, raw: bytes | None = None, max_bytes: int = MAX_FILE_BYTES,
                  max_values: int | None = MAX_VALUES) -> Document:
    """Load ``path`` (``raw`` given for stdin) as a JSON or YAML document of at most
    ``max_values`` values (None: any number; a HAR file's entries cost little, its bodies
    are bounded one by one)."""
    if raw is None:
        raw = read_bytes(path, max_bytes)
    text = read_text(path, raw, max_bytes)
    fmt = detect_format(path, text)
    if fmt == "json":  # (the bytes read are the text's UTF-8 after a BOM: not encoded again)
        return _load_json(path, text, raw[3:] if raw.startswith(codecs.BOM_UTF8) else raw, max_values)
    from mcplint.document.yamlmap import load_yaml

    try:
        data, source_map, duplicates = load_yaml(text, path)
    except RecursionError:
        raise InputError(path, "document is nested too deeply") from None
    if max_values is not None and holds_too_many(text, data, max_values, json=False):
        raise InputError(path, _too_many(max_values))
    return Document(path, text, data, "yaml", source_map, duplicates)


def _file_size(path: str) -> int | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def read_bytes(path: str, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    try:  # O_NONBLOCK: opening a FIFO nobody writes to would otherwise wait forever
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if stat.S_ISDIR(mode):
                raise IsADirectoryError
            if not stat.S_ISREG(mode):  # a named pipe (`<(...)`) or a device: wait a bounded time
                wait_for_data(handle.fileno(), path)
                os.set_blocking(handle.fileno(), True)
            return handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise InputError(path, "no such file or directory") from None
    except IsADirectoryError:
        raise InputError(path, "is a directory") from None
    except OSError as err:
        raise InputError(path, f"cannot read: {os_error(err)}") from None
    except ValueError:  # a NUL byte in the path
        raise InputError(path, "cannot read: the path holds a NUL byte") from None


PIPE_WAIT_SECONDS = 60


def wait_for_data(fd: int, path: str) -> None:
    """Wait (bounded) until a named pipe or device has something to read."""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLPRI)
    if not poller.poll(PIPE_WAIT_SECONDS * 1000):  # Linux: no POLLHUP before a writer has come
        raise InputError(path, f"nothing was written to this pipe or device within {PIPE_WAIT_SECONDS} s")


def os_error(err: OSError) -> str:
    """What went wrong with a path, in words for a one-line message."""
    if err.errno == errno.ELOOP:
        return "symlink loop"
    if err.errno == errno.ENOENT:
        return "dangling symlink" if err.filename and os.path.islink(err.filename) else "no such file or directory"
    if err.errno == errno.ENAMETOOLONG:
        return "path too long"
    return err.strerror or str(err)


# A stream (standard input, a named pipe) is spooled to a temporary file; past this many bytes
# reading stops (an endless `yes ... | mcplint check -` filled the disk). A file on disk is
# streamed in place and has no such bound.
MAX_SPOOL = 1 << 30


def spool(read_chunk, head: bytes = b"", chunk: int = 1 << 20, shown: str = "<stdin>"):
    """A seekable temporary file holding ``head`` and then everything ``read_chunk(chunk)``
    gives until it is empty: a stream (stdin, a named pipe) made into a file that can be
    read again by offset, without holding it in memory. InputError past ``MAX_SPOOL`` bytes."""
    import tempfile

    spooled = tempfile.TemporaryFile()
    try:
        spooled.write(head)
        size, limit = len(head), MAX_SPOOL
        while size <= limit and (data := read_chunk(chunk)):
            spooled.write(data)
            size += len(data)
        if size > limit:
            raise InputError(shown, f"more than {_size(limit)} arrived on this stream; mcplint stopped reading "
                                    "it: save the input to a file and check that file")
        spooled.seek(0)
    except BaseException:
        spooled.close()
        raise
    return spooled


def _size(count: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale and count % scale == 0:
            return f"{count // scale} {unit}"
    return f"{count:,} bytes"


def read_stdin(limit: int = -1) -> bytes:
    """Standard input: all of it, or at most ``limit`` bytes (fewer only at its end)."""
    return sys.stdin.buffer.read(limit)


def _too_many(limit: int) -> str:
    return f"holds more than {limit:,} values, the limit for one document (each costs mcplint memory)"


def _load_json(path: str, text: str, encoded: bytes | None = None, max_values: int | None = MAX_VALUES) -> Document:
    from mcplint.document.jsonmap import JsonSourceMap

    duplicated: list[tuple[dict, list[str]]] = []

    def pairs_hook(pairs):
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            dups = [k for k, _ in pairs if k in seen or seen.add(k)]
            duplicated.append((obj, dups))
        return obj

    data = _fast_loads(text) if encoded is None else _fast_loads(text, encoded)
    if data is _SLOW:
        try:
            data = loads(text, path, object_pairs_hook=pairs_hook)
        except json.JSONDecodeError as err:
            raise InputError(path, f"invalid JSON: {err.msg}", err.lineno, err.colno) from None
    if max_values is not None and holds_too_many(text, data, max_values):
        raise InputError(path, _too_many(max_values))
    duplicates = _locate_duplicates(data, duplicated) if duplicated else []
    return Document(path, text, data, "json", JsonSourceMap(text, unique_keys=not duplicated), duplicates)


_SLOW = object()


def _fast_loads(text: str, encoded: bytes | None = None):
    """The document parsed by msgspec (about 3x faster than ``loads`` with its hooks; the
    capture reader uses it too), or ``_SLOW`` when it does not pay (a small text) or could
    differ in any way from ``loads``: msgspec failed (the exact error then comes from
    ``loads``), or a duplicate key (msgspec
    keeps the last silently; the members' colons outnumber the parsed ones; a \\u003a escape
    would blur that count). msgspec reads big integers exactly, as ``loads`` does; NaN,
    Infinity, numbers overflowing a float, lone surrogates and deep nesting make it fail."""
    from mcplint.fast_json import pays

    if not pays(len(text)):
        return _SLOW
    try:
        from msgspec.json import decode, encode
    except ImportError:  # pragma: no cover - a dependency, but the stdlib path is complete
        return _SLOW
    if "\\u003a" in text or "\\u003A" in text:
        return _SLOW
    try:
        if encoded is None:
            encoded = text.encode("utf-8")
        data = decode(encoded)
        if encode(data).count(b":") != encoded.count(b":"):
            return _SLOW
    except Exception:  # any refusal: ``loads`` says what is wrong, with its position
        return _SLOW
    return data


def _locate_duplicates(data, duplicated) -> list[Pointer]:
    by_id = {id(obj): keys for obj, keys in duplicated}
    found: list[Pointer] = []
    stack = [(Pointer(), data)]
    while stack:
        ptr, value = stack.pop()
        if isinstance(value, dict):
            for key in by_id.get(id(value), ()):
                found.append(ptr / key)
            stack.extend((ptr / k, v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((ptr / i, v) for i, v in enumerate(value))
    return sorted(found, key=lambda p: [str(t) for t in p])


# -- JSON from untrusted text ------------------------------------------------------------

_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'  # a JSON string token, unrolled (no backtracking)
_NUMBER_OR_CONSTANT = regex(_STRING + r"|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|NaN|-?Infinity)")
_SURROGATE_ESCAPE = regex(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = regex(
    r"\\\\|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"  # escaped backslash, a pair
    r"|(\\u[dD][89a-fA-F][0-9a-fA-F]{2})"  # a lone half
)
_INF = float("inf")


class _Rejected(Exception):
    def __init__(self, token: str, why: str) -> None:
        self.token, self.why = token, why


def loads(text: str, path: str, object_pairs_hook=None):
    """``json.loads`` for untrusted text. A syntax error is a ``json.JSONDecodeError`` (the
    caller words it); everything else that could later crash or mislead is an InputError
    naming path:line:column: NaN and Infinity, numbers that overflow a float, integers
    too long to print again, lone UTF-16 surrogates (not encodable as UTF-8), nesting
    deeper than the interpreter can recurse."""
    try:  # the float hook costs ~20% of the parse; a regex deciding when to skip it cost more
        data = json.loads(text, object_pairs_hook=object_pairs_hook, parse_constant=_constant,
                          parse_float=_finite_float)
    except json.JSONDecodeError:
        raise
    except _Rejected as err:
        raise InputError(path, err.why, *_where_number(text, err.token)) from None
    except RecursionError:
        where = _where_deep(text)
        raise InputError(path, f"document is nested too deeply (over {DEEP_NESTING} levels)" if where[0]
                         else "document is nested too deeply", *where) from None
    except ValueError as err:  # int() refused an integer over its digit limit
        if "integer string conversion" not in str(err):
            raise
        raise _too_long(text, path) from None
    if _SURROGATE_ESCAPE.search(text):
        for match in _LONE_SURROGATE.finditer(text):
            if match.group(1):
                raise InputError(
                    path, f"string holds a lone UTF-16 surrogate ({match.group(1)}), which is not a "
                    "Unicode character and cannot be encoded as UTF-8", *_line_column(text, match.start(1)),
                )
    return data


def _constant(name: str):
    raise _Rejected(name, f"invalid JSON: {name} is not valid JSON (JSON has no NaN or Infinity)")


def _finite_float(token: str) -> float:
    value = float(token)
    if value == _INF or value == -_INF:
        raise _Rejected(token, f"number {_shorten(token)} is too large for a 64-bit float (it would read as infinity)")
    return value


def _too_long(text: str, path: str) -> InputError:
    """int() refused an integer: longer ones could not be printed again (4,300 digits unless
    PYTHONINTMAXSTRDIGITS says otherwise)."""
    limit = sys.get_int_max_str_digits()
    for match in _NUMBER_OR_CONSTANT.finditer(text):
        digits = (match.group(1) or "").lstrip("-")
        if len(digits) > limit and digits.isdigit():
            return InputError(path, f"integer with {len(digits):,} digits is too long (the limit is {limit:,} digits)",
                              *_line_column(text, match.start(1)))
    return InputError(path, f"an integer is too long (the limit is {limit:,} digits)")


def _where_number(text: str, token: str) -> tuple[int | None, int | None]:
    for match in _NUMBER_OR_CONSTANT.finditer(text):
        if match.group(1) == token:  # the first one: the parser stopped there
            return _line_column(text, match.start(1))
    return None, None


DEEP_NESTING = 500  # the parser's recursion gives out somewhere past this; report where it was crossed
_STRING_OR_BRACKET = regex(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _where_deep(text: str) -> tuple[int | None, int | None]:
    """Line and column of the bracket that opens level DEEP_NESTING + 1 of a JSON text."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > DEEP_NESTING:
                return _line_column(text, match.start())
        elif char in "]}":
            depth -= 1
    return None, None


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def _shorten(token: str, width: int = 24) -> str:
    return token if len(token) <= width else f"{token[:10]}…{token[-10:]}"
