"""`per-file-ignores` from the config: which rules are silenced at which files and pointers."""

from __future__ import annotations

from pathlib import Path


def ignored(code: str, found_at: str, path: str, plan) -> bool:
    """Whether per-file-ignores silence rule ``code`` at pointer ``found_at`` in ``path``."""
    if not plan.per_file_ignores:
        return False
    rel = relative(path, plan.root)
    silenced = False
    for index, (regex, pointer, codes) in enumerate(plan.per_file_ignores):
        if code in codes and regex.match(rel) and (
            not pointer or found_at == pointer or found_at.startswith(pointer + "/")
        ):
            plan.used_ignores.add(index)  # every matching entry counts as used
            silenced = True
    return silenced


def relative(path: str, root: Path) -> str:
    try:
        return Path(path).absolute().relative_to(root).as_posix()
    except ValueError:
        return path
