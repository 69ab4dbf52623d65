"""`per-file-ignores` from the config: which rules are silenced at which files and pointers."""

from __future__ import annotations

from pathlib import Path


def ignored(code: str, found_at: str, path: str, plan) -> bool:
    """Whether per-file-ignores silence rule ``code`` at pointer ``found_at`` in ``path``."""
    if not plan.per_file_ignores:
        return False
    silenced = False
    for index, pointer, codes in _entries_for(path, plan):
        if code in codes and (not pointer or found_at == pointer or found_at.startswith(pointer + "/")):
            plan.used_ignores.add(index)  # every matching entry counts as used
            silenced = True
    return silenced


def _entries_for(path: str, plan) -> list[tuple[int, str, set[str]]]:
    """The entries whose glob matches ``path``, matched once per path: globs matched again for
    every finding cost entries x findings (2,000 entries on 60,000 findings: 89 s)."""
    cache = plan.ignores_by_path
    found = cache.get(path)
    if found is None:
        rel = relative(path, plan.root)
        found = cache[path] = [(index, pointer, codes) for index, (regex, pointer, codes)
                               in enumerate(plan.per_file_ignores) if regex.match(rel)]
    return found


def relative(path: str, root: Path) -> str:
    try:
        return Path(path).absolute().relative_to(root).as_posix()
    except ValueError:
        return path
