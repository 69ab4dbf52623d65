"""Glue for CI and git hooks, kept out of the command so its hooks stay one line each.

- ``as_walked``: ``check --skip-non-manifests`` (what the pre-commit hook passes). pre-commit
  names every staged JSON/YAML file (package.json, tsconfig.json with comments, CI configs);
  a named file that is not a manifest is an error for a human at the prompt, but in a hook it
  must be skipped the way a file found by walking a folder is: sniffed, skipped unless it is
  a manifest (a file that does not parse is still an error when it looks like one), and
  subject to the config's ``include``/``exclude``.
- ``append_step_summary``: the Markdown summary for ``$GITHUB_STEP_SUMMARY``.
"""

from __future__ import annotations

import os
from pathlib import Path

from mcplint.config import Config
from mcplint.globs import glob_to_regex
from mcplint.discovery import STDIN, Target
from mcplint.errors import MCPLintError

STEP_SUMMARY_ENV = "GITHUB_STEP_SUMMARY"


def as_walked(targets: list[Target], config: Config) -> list[Target]:
    """Named files treated like files found by walking (standard input stays named)."""
    includes = [glob_to_regex(p) for p in config.include]
    excludes = [glob_to_regex(p) for p in config.exclude]
    kept = []
    for target in targets:
        if target.path == STDIN or not target.explicit:
            kept.append(target)
            continue
        rel = _relative(Path(target.path), config.root)
        if any(p.match(rel) for p in excludes) or (includes and not any(p.match(rel) for p in includes)):
            continue
        kept.append(Target(target.path, False))
    return kept


def _relative(file: Path, root: Path) -> str:
    try:
        return file.resolve().relative_to(root).as_posix()
    except (ValueError, OSError, RuntimeError):  # outside the root; a symlink loop
        return file.as_posix()


def step_summary_file(fmt: str) -> str | None:
    """Where to append the Markdown summary: only for ``--format github`` inside Actions."""
    if fmt != "github":
        return None
    return os.environ.get(STEP_SUMMARY_ENV) or None


def append_step_summary(findings, ctx, path: str) -> None:
    from mcplint.reporters.step_summary import render_summary

    try:  # GitHub hands each step its own file and concatenates them; always append
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(render_summary(findings, ctx))
    except OSError as err:
        reason = err.strerror or err
        raise MCPLintError(f"{path}: cannot write the step summary (${STEP_SUMMARY_ENV}): {reason}") from None
