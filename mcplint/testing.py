"""Helpers for testing rules (ours and third-party packs): lint a text in memory."""

from __future__ import annotations

from mcplint import engine, registry
from mcplint.config import Config
from mcplint.document.loader import load_document
from mcplint.document.manifest import classify
from mcplint.errors import MCPLintError


def lint_text(text: str, fmt: str = "json", select=("ALL",), version: str | None = None,
              options: dict | None = None, path: str | None = None):
    """Findings for one in-memory document, with only ``select``ed rules enabled."""
    path = path or f"case.{fmt}"
    document = load_document(path, text.encode("utf-8"))
    manifest = classify(document)
    if manifest is None:
        raise MCPLintError(f"{path}: not an MCP tool manifest")
    config = Config(select=list(select), options=dict(options or {}))
    plan = engine.Plan.build(config, version=version)
    findings, _ = engine.lint(manifest, plan)
    return sorted(findings, key=lambda f: f.sort_key)


__all__ = ["lint_text", "registry"]
