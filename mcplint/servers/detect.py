"""Find the MCP servers a repository defines, for `mcplint init` to write `servers:` entries.

Python: a file that creates a FastMCP / MCPServer / low-level ``Server`` of the mcp SDK (or
the standalone ``fastmcp`` package) and runs it. TypeScript/JavaScript: a package.json that
depends on ``@modelcontextprotocol/sdk``, started by its ``bin`` or ``main``. Nothing is run.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "env", "__pycache__", "build", "dist", ".tox", ".nox",
             "site-packages", ".mypy_cache", ".pytest_cache", "tests", "test", "fixtures", "examples"}
MAX_FILES = 5000
MAX_BYTES = 1 << 20
# The low-level Server is imported from mcp.server (as the reference servers time, fetch and git do)
# or from mcp.server.lowlevel, on one line or in parentheses.
_PY_SERVER = re.compile(
    r"\b(?:FastMCP|MCPServer)\s*\(|\(\s*(?:FastMCP|MCPServer)\s*\)|"  # made, or subclassed
    r"from\s+mcp\.server(?:\.lowlevel(?:\.server)?)?\s+import\s+(?:\([^)]*|[^\n]*)\bServer\b|"
    r"mcp\.server(?:\.lowlevel)?\.Server\s*\(")
_PY_RUNS = re.compile(r"""__name__\s*==\s*["']__main__["']|\.run\s*\(|stdio_server\s*\(""")
SDK_PACKAGE = "@modelcontextprotocol/sdk"


@dataclass(frozen=True)
class Detected:
    name: str
    command: tuple[str, ...]
    source: tuple[str, ...]
    how: str  # what was recognised, for the comment above the entry
    cwd: str = "."  # where the command runs: a src/ layout's folder, so `python -m package` finds it


def detect(folder: Path) -> list[Detected]:
    found = _node(folder) + _python(folder)
    names: set[str] = set()
    unique = []
    for entry in found:
        name, n = entry.name, 2
        while name in names:
            name, n = f"{entry.name}-{n}", n + 1
        names.add(name)
        unique.append(Detected(name, entry.command, entry.source, entry.how, entry.cwd))
    return unique


def _python(folder: Path) -> list[Detected]:
    texts: dict[Path, str] = {}
    for path in _files(folder, ".py"):
        try:
            texts[path] = path.read_text("utf-8", errors="replace")
        except OSError:
            continue
    found, entries = [], set()
    for path, text in texts.items():
        if not _PY_SERVER.search(text):
            continue
        # A server made in one module and run by another of its package (server.py and main.py, as
        # many servers of awslabs/mcp are): the package's runner starts it.
        entry = path if _PY_RUNS.search(text) else _runner(path, texts)
        if entry is None or entry in entries:
            continue
        entries.add(entry)
        relative = entry.relative_to(folder).as_posix()
        target, cwd = _python_target(entry, folder, texts)
        source = _source(entry, folder, cwd)
        how = f"mcp SDK server in {relative}" if entry == path else \
            f"mcp SDK server in {path.relative_to(folder).as_posix()}, run by {relative}"
        found.append(Detected(_name(entry.stem if entry.stem not in ("server", "__main__", "main") else
                                    (entry.parent.name if entry.parent != folder else folder.name)),
                              ("python", *target), (source,), how, cwd))
    return found


def _namespace_parent(top: Path, texts: dict[Path, str]) -> bool:
    """``top``'s folder is a namespace package (no __init__.py) its modules import through:
    `from awslabs.the_server import ...` (awslabs/mcp)."""
    namespace = top.parent.name
    if not namespace.isidentifier() or (top.parent / "__init__.py").is_file():
        return False
    dotted = re.compile(rf"\b(?:from|import)\s+{re.escape(namespace)}\.{re.escape(top.name)}\b")
    return any(dotted.search(text) for path, text in texts.items() if top in path.parents)


def _source(entry: Path, folder: Path, cwd: str) -> str:
    """Where the server's definitions are: a src/ package's folder (one server of a monorepo), a
    top-level package, or a script's own folder (never the whole tree above a script)."""
    if cwd != ".":
        return f"{cwd}/"
    relative = entry.relative_to(folder)
    if len(relative.parts) == 1:
        return "."
    if (entry.parent / "__init__.py").is_file():
        return relative.parts[0] + "/"
    return relative.parent.as_posix() + "/"


RUNNER_NAMES = ("__main__.py", "main.py", "server.py", "cli.py", "app.py")


def _runner(path: Path, texts: dict[Path, str]) -> Path | None:
    """The module of ``path``'s package (or of a package above it) that runs a server; ``texts``
    holds the repository's files, so the search never leaves it."""
    package = path.parent
    # a folder without __init__.py inside a package (memcached's common/) is part of it
    while (package / "__init__.py").is_file() or (package.parent / "__init__.py").is_file():
        for name in RUNNER_NAMES:
            candidate = package / name
            text = texts.get(candidate)
            if candidate != path and text is not None and _PY_RUNS.search(text):
                return candidate
        package = package.parent
    return None


def _python_target(path: Path, folder: Path, texts: dict[Path, str]) -> tuple[tuple[str, ...], str]:
    """How to start the file, and from which folder: as a module of its package (its imports are
    package-relative), the package itself when it has a __main__.py, or the file as a script.
    A package below the repository's root (a src/ layout) is run from the folder holding it."""
    package = path.parent
    if not (package / "__init__.py").is_file() or package == folder:
        return (path.relative_to(folder).as_posix(),), "."
    top = package
    while top.parent != folder and (top.parent / "__init__.py").is_file() and top.parent.name.isidentifier():
        top = top.parent
    if top.parent != folder and _namespace_parent(top, texts):
        top = top.parent
    dotted = ".".join(path.relative_to(top.parent).with_suffix("").parts)
    if (package / "__main__.py").is_file():
        dotted = dotted.rsplit(".", 1)[0]
    cwd = top.parent.relative_to(folder).as_posix() if top.parent != folder else "."
    return ("-m", dotted), cwd


def _node(folder: Path) -> list[Detected]:
    found = []
    for path in _files(folder, "package.json"):
        try:
            package = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(package, dict):
            continue
        deps = {**_dict(package.get("dependencies")), **_dict(package.get("devDependencies"))}
        if SDK_PACKAGE not in deps:
            continue
        base = path.parent
        entry = _entry(package)
        if entry is None:
            continue
        try:
            relative = (base / entry).resolve().relative_to(folder.resolve()).as_posix()
        except ValueError:  # an entry outside the repository
            continue
        runner = ("npx", "tsx") if relative.endswith((".ts", ".mts")) else ("node",)
        source = "src/" if (base / "src").is_dir() else "."
        if base != folder:
            source = f"{base.relative_to(folder).as_posix()}/{'src/' if source == 'src/' else ''}"
        name = str(package.get("name") or base.name).split("/")[-1]
        how = f"{SDK_PACKAGE} in {path.relative_to(folder).as_posix()}"
        if not (base / entry).is_file():  # a TypeScript server's dist/ before its first build
            build = "build" in _dict(package.get("scripts"))
            how += f"; build it first ({relative} does not exist{': npm run build' if build else ''})"
        found.append(Detected(_name(name), (*runner, relative), (source,), how))
    return found


def _entry(package: dict) -> str | None:
    bin_ = package.get("bin")
    if isinstance(bin_, str):
        return bin_
    if isinstance(bin_, dict) and bin_ and all(isinstance(v, str) for v in bin_.values()):
        return next(iter(bin_.values()))
    main = package.get("main")
    return main if isinstance(main, str) else None


def _files(folder: Path, suffix: str):
    count = 0
    for path in sorted(folder.rglob(f"*{suffix}" if suffix.startswith(".") else suffix)):
        if count >= MAX_FILES:
            return
        relative = path.relative_to(folder).parts
        if any(part in SKIP_DIRS or part.startswith(".") for part in relative[:-1]):
            continue
        try:
            if not path.is_file() or path.stat().st_size > MAX_BYTES:
                continue
        except OSError:
            continue
        count += 1
        yield path


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _name(text: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.") or "server"
    return name[:64]


def render(found: list[Detected]) -> list[str]:
    """The `servers:` block of a starter config (commented out when nothing was found)."""
    out = ["# MCP servers of this repository: `mcplint check` (no paths) starts each one, lists its",
           "# tools, prompts and resources, and reports findings on the source lines that define them.",
           "# command runs with the interpreter on PATH: use the one that has the server's dependencies.",
           "# audit: true also runs the audit's safe probes (no tool that could change anything is called)."]
    if not found:
        out += ["# servers:", "#   - name: weather", "#     command: [python, server.py]   # or url: http://127.0.0.1:8000/mcp",
                "#     source: [src/]", "#     env: {API_KEY: dummy}", "#     audit: false"]
        return out
    from mcplint.servers.spec import MAX_SERVERS

    out.append("servers:")
    if len(found) > MAX_SERVERS:
        out.append(f"  # {len(found)} servers were found; a config holds at most {MAX_SERVERS}, so the last "
                   f"{len(found) - MAX_SERVERS} are not written: split them over configs in their folders")
    for entry in found[:MAX_SERVERS]:
        out += [f"  - name: {entry.name}                # {entry.how}",
                f"    command: [{', '.join(json.dumps(a) for a in entry.command)}]",
                *([f"    cwd: {json.dumps(entry.cwd)}"] if entry.cwd != "." else []),
                f"    source: [{', '.join(json.dumps(s) for s in entry.source)}]",
                "    audit: false"]
    return out
