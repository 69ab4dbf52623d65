"""Which files to lint: named files always; folders are walked.

A walk never stops at one bad entry: symlink loops, dangling links, over-long paths,
unreadable folders and anything that is not a regular file (a FIFO named `x.json`
would block the run forever) are skipped with the reason, which `check -v` lists.
A walk reads only what lies inside the folder it was given: a symlink to a file
elsewhere (a planted `leak.json -> ~/.aws/credentials`) is skipped, not read.
Named paths are always handed on, whatever they are: the loader reports the one that
cannot be read, and the run goes on with the others.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from mcplint.config import Config
from mcplint.globs import glob_to_regex
from mcplint.document.loader import os_error

LINTABLE_SUFFIXES = {".json", ".yaml", ".yml", ".jsonl", ".ndjson", ".har"}
SKIP_DIRS = {
    ".git", ".hg", ".svn", "node_modules", ".venv", "venv", "env", "__pycache__", ".tox", ".nox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages", "dist", "build", ".idea",
    ".vscode", ".cache", ".eggs",
}
STDIN = "-"
_NOT_REGULAR = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder"),
)


@dataclass(frozen=True)
class Target:
    path: str  # filesystem path, or "-" for standard input
    explicit: bool  # named on the command line (not found by walking)


class Targets(list):
    """The files to lint, and ``skipped``: (path as shown, why) for walked entries left out."""

    def __init__(self) -> None:
        super().__init__()
        self.skipped: list[tuple[str, str]] = []


def display_path(path: str) -> str:
    """Paths in reports: relative to the working directory when inside it, with '/'."""
    if path == STDIN:
        return "<stdin>"
    try:
        absolute, cwd = Path(path).absolute(), Path.cwd()
        candidates = [absolute]
        try:
            candidates.append(absolute.resolve())  # sees through symlinks
        except (OSError, RuntimeError):  # a symlink loop, an over-long path
            pass
    except OSError:  # the working directory is gone
        return Path(path).as_posix()
    for candidate in candidates:
        try:
            return candidate.relative_to(cwd).as_posix()
        except ValueError:
            continue
    return Path(path).as_posix()


def collect(paths: list[str], config: Config) -> Targets:
    includes = [glob_to_regex(p) for p in config.include]
    excludes = [glob_to_regex(p) for p in config.exclude]
    targets = Targets()
    for raw in paths:
        if raw != STDIN and _is_dir(raw):
            _walk(Path(raw), config.root, includes, excludes, targets)
        else:  # a file, or a path that cannot be read: loading it says which
            targets.append(Target(raw, True))
    return targets


def _is_dir(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _walk(folder: Path, root: Path, includes, excludes, targets: Targets) -> None:
    def unreadable(err: OSError) -> None:
        targets.skipped.append((display_path(err.filename or str(folder)), f"cannot read folder: {os_error(err)}"))

    inside = _resolved(folder)
    for current, dirs, files in os.walk(folder, onerror=unreadable):
        dirs[:] = sorted(
            d for d in dirs
            if d not in SKIP_DIRS and not d.endswith(".egg-info") and not _is_venv(Path(current, d))
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
            problem = _not_lintable(file) or _leaves(file, inside)
            if problem:
                targets.skipped.append((display_path(str(file)), problem))
            else:
                targets.append(Target(str(file), False))


def _not_lintable(file: Path) -> str | None:
    """Why a walked entry cannot be read as a file (stat only: opening a FIFO blocks)."""
    try:
        mode = os.stat(file).st_mode
    except OSError as err:
        return os_error(err)
    if stat.S_ISREG(mode):
        return None
    what = next((name for test, name in _NOT_REGULAR if test(mode)), "not a regular file")
    return f"{what}, not a regular file"


def _resolved(path: Path) -> Path | None:
    try:
        return path.resolve(strict=True)
    except (OSError, RuntimeError):
        return None


def _leaves(file: Path, inside: Path | None) -> str | None:
    """Why a walked symlink is not read: its target lies outside the walked folder."""
    if not file.is_symlink():
        return None
    target = _resolved(file)
    if inside is None or target is None or not target.is_relative_to(inside):
        return "a symlink to a file outside the folder, not followed"
    return None


def _is_venv(folder: Path) -> bool:
    try:
        return (folder / "pyvenv.cfg").exists()
    except OSError:
        return False


def _relative(file: Path, root: Path) -> str:
    try:
        return file.resolve().relative_to(root).as_posix()
    except (ValueError, OSError, RuntimeError):  # outside the root; a symlink loop
        return file.as_posix()
