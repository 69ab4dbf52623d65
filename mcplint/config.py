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


def discover(start: Path | None = None) -> Path | None:
    """The closest config file at or above ``start`` (a pyproject.toml counts only
    when it has a [tool.mcplint] table)."""
    directory = (start or Path.cwd()).resolve()
    for folder in (directory, *directory.parents):
        for name in CONFIG_FILES:
            candidate = folder / name
            if candidate.is_file() and (name != "pyproject.toml" or _has_tool_table(candidate)):
                return candidate
    return None


def _has_tool_table(pyproject: Path) -> bool:
    try:
        return re.search(r"^\[tool\.mcplint[.\]]", pyproject.read_text("utf-8"), re.M) is not None
    except (OSError, UnicodeDecodeError):
        return False


def load(path: Path | None) -> Config:
    if path is None:
        return Config()
    raw = _read_raw(path)
    return _validate(raw, path)


def _read_raw(path: Path) -> dict:
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise MCPLintError(f"{path}: cannot read config: {err}") from None
    if path.name == "pyproject.toml":
        import tomllib

        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise MCPLintError(f"{path}: invalid TOML: {err}") from None
        raw = doc.get("tool", {}).get("mcplint", {})
    elif not text.strip():
        raw = {}
    else:  # the manifest loader keeps dates such as 2025-06-18 as text
        from mcplint.document.yamlmap import load_yaml

        raw = load_yaml(text, str(path))[0]
    if not isinstance(raw, dict):
        raise MCPLintError(f"{path}: config must be a mapping of settings")
    return raw


def _validate(raw: dict, path: Path) -> Config:
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
        raise MCPLintError(f"{path}: {_first_error(err)}") from None
    values = {name: getattr(model, name) for name in Model.model_fields}
    return Config(**values, root=path.parent.resolve(), source=str(path))


def _first_error(err) -> str:
    first = err.errors()[0]
    key = ".".join(str(p) for p in first["loc"]) or "(top level)"
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        message = "unknown setting"
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
        raise MCPLintError(f"{source or 'config'}: options.{rule.name}.{_first_error(err)}") from None
    return rule.Options(**{name: getattr(validated, name) for name in fields})


def glob_to_regex(pattern: str) -> re.Pattern:
    """gitignore-like globs: `*` within a segment, `**` across segments; a pattern
    without `/` matches at any depth."""
    if "/" not in pattern.rstrip("/"):
        pattern = "**/" + pattern
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + "(?:/.*)?$")
