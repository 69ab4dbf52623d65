"""Reporters are pure functions: ``render(findings, ctx) -> str``."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

# --format value -> module in this package
FORMATS = {
    "rich": "terminal", "json": "json", "sarif": "sarif", "github": "github", "junit": "junit", "gitlab": "gitlab",
}


@dataclass(frozen=True)
class ReportContext:
    rules: tuple  # the selected rules, classes or registry.RuleEntry (SARIF lists them; the checklist uses them)
    summary: dict
    tool_version: str
    files: tuple = ()  # FileReport entries
    color: bool = False
    width: int = 100
    sources: dict = field(default_factory=dict)  # path -> text, for code frames
    levels: dict = field(default_factory=dict)  # rule code -> Severity, where config overrides it
    failures: tuple = ()  # summary.ReadFailure: inputs that could not be read
    extra: dict[str, Any] = field(default_factory=dict)


def render(fmt: str, findings, ctx: ReportContext) -> str:
    # Imported on demand so machine formats never pay for rich.
    module = importlib.import_module(f"mcplint.reporters.{FORMATS[fmt]}")
    return module.render(findings, ctx)
