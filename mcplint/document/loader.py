"""Read a file (or stdin) into a Document; every failure is a one-line InputError."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcplint.document.pointer import Pointer
from mcplint.errors import InputError

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
    if len(raw) > max_bytes:
        raise InputError(
            path, f"file is {len(raw) / 1048576:.1f} MiB, over the {max_bytes // 1048576} MiB limit "
            "(raise it with max-file-size-mb in the config)"
        )
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


def load_document(path: str, raw: bytes | None = None, max_bytes: int = MAX_FILE_BYTES) -> Document:
    """Load ``path`` (``raw`` given for stdin) as a JSON or YAML document."""
    if raw is None:
        raw = read_bytes(path, max_bytes)
    text = read_text(path, raw, max_bytes)
    fmt = detect_format(path, text)
    if fmt == "json":
        return _load_json(path, text)
    from mcplint.document.yamlmap import load_yaml

    try:
        data, source_map, duplicates = load_yaml(text, path)
    except RecursionError:
        raise InputError(path, "document is nested too deeply") from None
    return Document(path, text, data, "yaml", source_map, duplicates)


def read_bytes(path: str, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise InputError(path, "no such file or directory") from None
    except IsADirectoryError:
        raise InputError(path, "is a directory") from None
    except OSError as err:
        raise InputError(path, f"cannot read: {err.strerror or err}") from None


def read_stdin() -> bytes:
    return sys.stdin.buffer.read()


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def _load_json(path: str, text: str) -> Document:
    from mcplint.document.jsonmap import JsonSourceMap

    duplicated: list[tuple[dict, list[str]]] = []

    def pairs_hook(pairs):
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            dups = [k for k, _ in pairs if k in seen or seen.add(k)]
            duplicated.append((obj, dups))
        return obj

    try:
        data = json.loads(text, object_pairs_hook=pairs_hook, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise InputError(path, f"invalid JSON: {err.msg}", err.lineno, err.colno) from None
    except ValueError as err:  # NaN / Infinity
        raise InputError(path, f"invalid JSON: {err}") from None
    except RecursionError:
        raise InputError(path, "document is nested too deeply") from None
    duplicates = _locate_duplicates(data, duplicated) if duplicated else []
    return Document(path, text, data, "json", JsonSourceMap(text), duplicates)


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
