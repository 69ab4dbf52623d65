"""Which files to lint: named files always; folders are walked."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from mcplint.config import Config, glob_to_regex
from mcplint.errors import InputError

LINTABLE_SUFFIXES = {".json", ".yaml", ".yml", ".jsonl", ".ndjson", ".har"}
SKIP_DIRS = {
    ".git", ".hg", ".svn", "node_modules", ".venv", "venv", "env", "__pycache__", ".tox", ".nox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages", "dist", "build", ".idea",
    ".vscode", ".cache", ".eggs",
}
STDIN = "-"


@dataclass(frozen=True)
class Target:
    path: str  # filesystem path, or "-" for standard input
    explicit: bool  # named on the command line (not found by walking)


def display_path(path: str) -> str:
    """Paths in reports: relative to the working directory when inside it, with '/'."""
    if path == STDIN:
        return "<stdin>"
    absolute, cwd = Path(path).absolute(), Path.cwd()
    for candidate in (absolute, absolute.resolve()):  # the second sees through symlinks
        try:
            return candidate.relative_to(cwd).as_posix()
        except ValueError:
            continue
    return Path(path).as_posix()


def collect(paths: list[str], config: Config) -> list[Target]:
    includes = [glob_to_regex(p) for p in config.include]
    excludes = [glob_to_regex(p) for p in config.exclude]
    targets: list[Target] = []
    for raw in paths:
        if raw == STDIN:
            targets.append(Target(STDIN, True))
            continue
        path = Path(raw)
        if path.is_dir():
            targets.extend(Target(str(f), False) for f in _walk(path, config.root, includes, excludes))
        elif path.exists():
            targets.append(Target(raw, True))
        else:
            raise InputError(raw, "no such file or directory")
    return targets


def _walk(folder: Path, root: Path, includes, excludes):
    found = []
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(
            d for d in dirs
            if d not in SKIP_DIRS and not d.endswith(".egg-info")
            and not (Path(current, d) / "pyvenv.cfg").exists()
        )
        for name in sorted(files):
            if Path(name).suffix.lower() not in LINTABLE_SUFFIXES:
                continue
            file = Path(current, name)
            rel = _relative(file, root)
            if excludes and any(p.match(rel) for p in excludes):
                continue
            if includes and not any(p.match(rel) for p in includes):
                continue
            found.append(file)
    return found


def _relative(file: Path, root: Path) -> str:
    try:
        return file.resolve().relative_to(root).as_posix()
    except ValueError:
        return file.as_posix()
