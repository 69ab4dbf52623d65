"""Configuration: `[tool.mcplint]` in pyproject.toml or `.mcplint.yaml`, found upward
from the working directory. pydantic is imported only when a config file exists."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcplint.errors import MCPLintError
from mcplint.versions import VERSIONS

CONFIG_FILES = (".mcplint.yaml", ".mcplint.yml", "pyproject.toml")
MAX_CONFIG_BYTES = 10 << 20
MAX_CONFIG_VALUES = 20_000  # a real config holds hundreds
MAX_YAML_CONFIG_BYTES = 1 << 20  # (pyproject.toml: MAX_CONFIG_BYTES, TOML is parsed fast)
MAX_FILE_SIZE_MB = 1024  # the largest max-file-size-mb: files are read whole into memory
MAX_GLOB_LENGTH = 1000
LEVELS = ("error", "warning", "info")
FAIL_ON = ("error", "warning", "info", "never")


@dataclass
class Config:
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    severity: dict[str, str] = field(default_factory=dict)  # rule -> level | "off"
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    protocol_version: str | None = None
    fail_on: str = "error"
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    max_file_size_mb: int = 20
    root: Path = field(default_factory=Path.cwd)  # relative globs are relative to this
    source: str | None = None  # the file it came from
    servers: list = field(default_factory=list)  # mcplint.servers.spec.ServerSpec entries


def discover(start: Path | None = None) -> Path | None:
    """The closest config file at or above ``start`` (a pyproject.toml counts only
    when it has a [tool.mcplint] table), looked for no higher than the repository ``start``
    is in, or only in ``start`` itself outside a repository. A config names commands that
    `mcplint check` runs: one in a folder above the checkout (/tmp/.mcplint.yaml on a shared
    machine) belongs to somebody else, the lesson of git's safe.directory."""
    directory = (start or Path.cwd()).resolve()
    for folder in _searched(directory):
        for name in CONFIG_FILES:
            candidate = folder / name
            if _is_file(candidate) and (name != "pyproject.toml" or _has_tool_table(candidate)):
                return candidate
    return None


REPOSITORY_MARKERS = (".git", ".hg", ".svn", ".jj")  # a folder or (worktrees, submodules) a file


def _searched(directory: Path) -> list[Path]:
    """``directory`` and its parents up to the repository root, or just ``directory``."""
    folders = []
    for folder in (directory, *directory.parents):
        folders.append(folder)
        if any(_exists(folder / marker) for marker in REPOSITORY_MARKERS):
            return folders
    return [directory]


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def _is_file(path: Path) -> bool:
    try:  # Path.is_file lets EACCES and ENAMETOOLONG through
        return path.is_file()
    except OSError:
        return False


def _has_tool_table(pyproject: Path) -> bool:
    try:
        with open(pyproject, "rb") as handle:
            text = handle.read(MAX_CONFIG_BYTES).decode("utf-8", "replace")
        return re.search(r"^\[tool\.mcplint[.\]]", text, re.M) is not None
    except (OSError, UnicodeDecodeError):
        return False


def load(path: Path | None) -> Config:
    if path is None:
        return Config()
    raw, text = _read_raw(path)
    return _validate(raw, path, text)


def load_servers(path: Path | None) -> list:
    """Only the `servers:` entries, without the full validation (and without importing pydantic):
    `check` starts the servers first, so they boot while the rest loads. ``load`` checks them again."""
    if path is None:
        return []
    raw, text = _read_raw(path)
    if raw.get("servers") is None:
        return []
    from mcplint.servers.spec import parse_servers

    try:
        return parse_servers(raw["servers"], path.parent.resolve(), text)
    except ValueError as err:
        raise MCPLintError(f"{path}: {err}") from None


def _read_raw(path: Path) -> tuple[dict, str]:
    try:
        with open(path, "rb") as handle:
            raw_bytes = handle.read(MAX_CONFIG_BYTES + 1)
        text = raw_bytes.decode("utf-8")
    except UnicodeDecodeError as err:
        raise MCPLintError(f"{path}: cannot read config: not UTF-8 text (byte 0x{err.object[err.start]:02x})") from None
    except OSError as err:
        raise MCPLintError(f"{path}: cannot read config: {err.strerror or err}") from None
    if len(raw_bytes) > MAX_CONFIG_BYTES:
        raise MCPLintError(f"{path}: config file is over {MAX_CONFIG_BYTES >> 20} MiB; not read")
    if path.name != "pyproject.toml" and len(raw_bytes) > MAX_YAML_CONFIG_BYTES:
        # YAML is parsed in pure Python at about 150 KB/s: a 2 MB list took 13 s on every run
        raise MCPLintError(f"{path}: config file is over {MAX_YAML_CONFIG_BYTES >> 20} MiB; not read")
    if path.name == "pyproject.toml":
        import tomllib

        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise MCPLintError(f"{path}: invalid TOML: {err}") from None
        except RecursionError:
            raise MCPLintError(f"{path}: invalid TOML: nested too deeply") from None
        except ValueError as err:  # an integer over int()'s digit limit
            raise MCPLintError(f"{path}: invalid TOML: {str(err).split(';')[0]}") from None
        tool = doc.get("tool", {})
        raw = tool.get("mcplint", {}) if isinstance(tool, dict) else {}
    elif not text.strip():
        raw = {}
    else:  # the manifest loader keeps dates such as 2025-06-18 as text
        from mcplint.document.yamlmap import load_yaml

        raw = load_yaml(text, str(path), max_nodes=4 * MAX_CONFIG_VALUES)[0]
    if not isinstance(raw, dict):
        raise MCPLintError(f"{path}: config must be a mapping of settings")
    from mcplint.document.value_count import count_values

    if count_values(raw, MAX_CONFIG_VALUES) > MAX_CONFIG_VALUES:
        # 200,000 extra-verbs or 50,000 per-file-ignores (or an alias fanned out) made every run
        # take a minute validating and compiling them; a real config holds hundreds
        raise MCPLintError(f"{path}: config holds more than {MAX_CONFIG_VALUES:,} values (lists, globs, "
                           "words); mcplint reads no more")
    return raw, text


def _validate(raw: dict, path: Path, text: str = "") -> Config:
    from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

    class Model(BaseModel):
        model_config = ConfigDict(extra="forbid", alias_generator=lambda s: s.replace("_", "-"), populate_by_name=False)
        select: list[str] | None = None
        extend_select: list[str] = []
        ignore: list[str] = []
        severity: dict[str, str] = {}
        per_file_ignores: dict[str, list[str]] = {}
        options: dict[str, dict[str, Any]] = {}
        protocol_version: str | None = None
        fail_on: str = "error"
        include: list[str] = []
        exclude: list[str] = []
        max_file_size_mb: int = 20
        servers: Any = None  # checked by mcplint.servers.spec

        @field_validator("max_file_size_mb", mode="before")
        @classmethod
        def _size(cls, value: Any) -> int:
            if type(value) is not int or not 1 <= value <= MAX_FILE_SIZE_MB:
                raise ValueError(f"{_shown(value)} is not a whole number of MiB from 1 to {MAX_FILE_SIZE_MB}")
            return value

        @field_validator("include", "exclude")
        @classmethod
        def _globs(cls, value: list[str]) -> list[str]:
            for pattern in value:
                _check_glob(pattern)
            return value

        @field_validator("per_file_ignores")
        @classmethod
        def _ignore_globs(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
            for pattern in value:
                _check_glob(pattern.partition("#")[0])
            return value

        @field_validator("severity")
        @classmethod
        def _levels(cls, value: dict[str, str]) -> dict[str, str]:
            for rule, level in value.items():
                if level not in (*LEVELS, "off"):
                    raise ValueError(f"{rule}: {level!r} is not one of error, warning, info, off")
            return value

        @field_validator("protocol_version")
        @classmethod
        def _version(cls, value: str | None) -> str | None:
            if value is not None and value not in VERSIONS:
                raise ValueError(f"{value!r} is not one of {', '.join(VERSIONS)}")
            return value

        @field_validator("fail_on")
        @classmethod
        def _fail_on(cls, value: str) -> str:
            if value not in FAIL_ON:
                raise ValueError(f"{value!r} is not one of {', '.join(FAIL_ON)}")
            return value

    try:
        model = Model.model_validate(raw)
    except ValidationError as err:
        raise MCPLintError(f"{path}: {_first_error(err, Model.model_fields)}") from None
    values = {name: getattr(model, name) for name in Model.model_fields}
    root = path.parent.resolve()
    if values["servers"] is not None:
        from mcplint.servers.spec import parse_servers

        try:
            values["servers"] = parse_servers(values["servers"], root, text)
        except ValueError as err:
            raise MCPLintError(f"{path}: {err}") from None
    else:
        values["servers"] = []
    return Config(**values, root=root, source=str(path))


def _shown(value: Any, width: int = 40) -> str:
    """A value from a config file as a one-line message shows it."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _check_glob(pattern: str) -> None:
    if not pattern:
        raise ValueError("an empty pattern matches nothing; remove it")
    if len(pattern) > MAX_GLOB_LENGTH:
        raise ValueError(f"pattern {_shown(pattern)} is over {MAX_GLOB_LENGTH} characters")


def _first_error(err, fields=()) -> str:
    """The first problem as 'key: message'; an unknown key gets the closest of ``fields``."""
    first = err.errors()[0]
    key = ".".join(str(p) if isinstance(p, int) or (str(p).isprintable() and len(str(p)) <= 60) else _shown(p)
                   for p in first["loc"]) or "(top level)"
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        from mcplint.suggest import did_you_mean

        typed = str(first["loc"][-1]) if first["loc"] else ""
        message = "unknown setting" + did_you_mean(typed, [name.replace("_", "-") for name in fields])
    return f"{key}: {message}"


def rule_options(rule, raw: dict[str, Any] | None, source: str | None):
    """The rule's Options instance, validated against its declared annotations."""
    if not raw:
        return rule.Options()
    from pydantic import ConfigDict, ValidationError, create_model

    fields = rule.Options.fields()
    annotations = rule.Options.annotations()
    model = create_model(
        f"{rule.__name__}Options",
        __config__=ConfigDict(extra="forbid", alias_generator=lambda s: s.replace("_", "-")),
        **{name: (annotations.get(name, Any), spec.default) for name, spec in fields.items()},
    )
    try:
        validated = model.model_validate(raw)
    except ValidationError as err:
        raise MCPLintError(f"{source or 'config'}: options.{rule.name}.{_first_error(err, fields)}") from None
    return rule.Options(**{name: getattr(validated, name) for name in fields})
