"""Build output a server runs from: the folder to search when the source walk would skip it.

An npm package ships its server compiled (`node dist/index.js`, `node build/index.js`), often
with no TypeScript beside it. The source walk skips dist/ and build/ (they are usually copies
of src/), so a command that runs a file there names the one place its tools are defined.
That folder is searched after the configured `source:` folders: where a TypeScript source
defines a tool too, the source wins over its compiled copy.
"""

from __future__ import annotations

from pathlib import Path

from mcplint.source.files import PYTHON, SCRIPT, SKIP_DIRS


def build_output(command: tuple[str, ...], cwd: Path, sources: tuple[Path, ...]) -> list[Path]:
    """The skipped folders (the deepest one of each path) that hold a script the command runs,
    inside one of the `sources` folders."""
    found: list[Path] = []
    for argument in command:
        if argument.startswith("-") or Path(argument).suffix.lower() not in SCRIPT | PYTHON:
            continue
        path = Path(cwd, argument)
        try:
            if not path.is_file():
                continue
            path = path.resolve()
        except (OSError, RuntimeError):
            continue
        for source in sources:
            try:
                folders = path.relative_to(source).parts[:-1]
            except ValueError:
                continue
            skipped = [i for i, folder in enumerate(folders) if folder in SKIP_DIRS]
            if skipped:
                folder = source.joinpath(*folders[:skipped[-1] + 1])
                if folder not in found:
                    found.append(folder)
            break
    return found
