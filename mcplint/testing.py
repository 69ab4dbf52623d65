"""Helpers for testing rules (ours and third-party packs): lint a text in memory."""

from __future__ import annotations

from mcplint import engine, registry
from mcplint.config import Config
from mcplint.document.loader import load_document
from mcplint.document.manifest import classify
from mcplint.errors import MCPLintError


def lint_text(text: str, fmt: str = "json", select=("ALL",), version: str | None = None,
              options: dict | None = None, path: str | None = None, lock=None):
    """Findings for one in-memory document, with only ``select``ed rules enabled.

    ``lock`` (for the pinning rules MCP501-MCP503) is a ``mcplint.pinning.Lock`` or the text
    of the manifest as it was pinned (JSON or YAML); the document is compared against it."""
    path = path or f"case.{fmt}"
    if fmt in ("jsonl", "har"):
        return _lint_capture(text, fmt, path, select, version, options)
    document = load_document(path, text.encode("utf-8"))
    manifest = classify(document)
    if manifest is None:
        raise MCPLintError(f"{path}: not an MCP tool manifest")
    config = Config(select=list(select), options=dict(options or {}))
    plan = engine.Plan.build(config, version=version)
    if isinstance(lock, str):
        from mcplint import pinning

        pinned = classify(load_document("pinned", lock.encode("utf-8")))
        if pinned is None:
            raise MCPLintError("lock: the pinned text is not an MCP tool manifest")
        pinned.document.path = path
        lock = pinning.from_manifest(pinned, "the lock")
    plan.lock = lock
    findings, _ = engine.lint(manifest, plan)
    return sorted(findings, key=lambda f: f.sort_key)


def _lint_capture(text: str, fmt: str, path: str, select, version, options):
    """A transcript (``jsonl``) or HAR text; ``version`` is used when the capture shows none."""
    from mcplint.capture.lint import lint_capture

    plan = engine.Plan.build(Config(select=list(select), options=dict(options or {})), version=version)
    kind = "har" if fmt == "har" else "transcript"
    linted = lint_capture(path, path, plan, text.encode("utf-8"), kind)
    return sorted(linted.findings, key=lambda f: f.sort_key)


__all__ = ["lint_text", "registry"]
