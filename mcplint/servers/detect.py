"""Find the MCP servers a repository defines, for `mcplint init` to write `servers:` entries.

Python: a file that creates a FastMCP / MCPServer / low-level ``Server`` of the mcp SDK (or
the standalone ``fastmcp`` package) and runs it. TypeScript/JavaScript: a package.json that
depends on the TypeScript SDK (``@modelcontextprotocol/sdk``, or from 2.0 ``/server`` or ``/node``),
started by its ``bin`` or ``main``. Nothing is run.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from mcplint.regex_cache import regex
from mcplint.servers.cli_hints import cli_needs, texts_of

SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "env", "__pycache__", "build", "dist", ".tox", ".nox",
             "site-packages", ".mypy_cache", ".pytest_cache", "tests", "test", "fixtures", "examples"}
MAX_FILES = 5000
MAX_BYTES = 1 << 20
# The low-level Server is imported from mcp.server (as the reference servers time, fetch and git do)
# or from mcp.server.lowlevel, on one line or in parentheses.
_PY_SERVER = regex(
    r"\b(?:FastMCP|MCPServer)\s*\(|\bclass\s+\w+\s*\(\s*(?:FastMCP|MCPServer)\s*\)|"  # made, or subclassed
    r"mcp\.server(?:\.lowlevel)?\.Server\s*\(")
_PY_SERVER_IMPORT = regex(r"from\s+mcp\.server(?:\.lowlevel(?:\.server)?)?\s+import\s+")
_SERVER_NAME = regex(r"\bServer\b")
MAX_IMPORTS = 20  # imports of mcp.server read per file (a hostile file may repeat one 40,000 times)


def _makes_python_server(text: str) -> bool:
    """The file makes a FastMCP / MCPServer, or imports the low-level Server (on the import's
    line, or in its parentheses): each import is read once, a bounded slice after it (an
    unclosed "import (" on every line had made one pattern scan to the end of the file each time)."""
    if _PY_SERVER.search(text):
        return True
    for count, match in enumerate(_PY_SERVER_IMPORT.finditer(text)):
        if count == MAX_IMPORTS:
            return False
        after = text[match.end():match.end() + 2000]
        names = after[1:].split(")", 1)[0] if after.startswith("(") else after.split("\n", 1)[0]
        if _SERVER_NAME.search(names):
            return True
    return False


_RUN = r"\.run(?:_(?:stdio|sse|streamable_http)_async)?\s*\("  # FastMCP / MCPServer's runners
_PY_RUNS = regex(rf"""__name__\s*==\s*["']__main__["']|{_RUN}|stdio_server\s*\(""")
# What starts a server when its module is run: the main guard, or a run at the module's top level.
# Without either (the official Python template: server.py's `async def main()`, run by the
# package's `main()` through a console script) `python -m` would import it and exit.
_PY_RUNS_AS_MAIN = regex(rf"""__name__\s*==\s*["']__main__["']|^[A-Za-z_][\w.]*{_RUN}""", re.M)
_PY_ENV = regex(r"""os\.(?:environ(?:\.get\(|\[)|getenv\()\s*["']([A-Z][A-Z0-9_]{2,63})["']""")
# `process.env.X`, also as compiled from `import process from "node:process"` (`node_process_1.default.env.X`).
_JS_ENV = regex(r"""\b(?:process|[A-Za-z_$][\w$]*process[\w$]*\.default)\.env"""
                r"""(?:\.([A-Z][A-Z0-9_]{2,63})\b|\[\s*["'`]([A-Z][A-Z0-9_]{2,63})["'`]\s*\])""")
_JS_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")
# Variables of the interpreter or the shell, read by a server but never a setting of its own.
_NOT_SETTINGS = {"PYTHONIOENCODING", "PYTHONPATH", "PYTHONUNBUFFERED", "PYTHONUTF8", "VIRTUAL_ENV", "NODE_ENV",
                 "NODE_OPTIONS", "NODE_DEBUG", "DEBUG", "HOME", "PATH", "PWD", "USER", "SHELL", "TERM", "LANG",
                 "TMPDIR", "TEMP", "TMP", "APPDATA", "USERPROFILE", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
                 "XDG_CACHE_HOME", "NO_COLOR", "FORCE_COLOR", "CI"}
SHOWN_ENV = 8  # names a comment lists before "and N more"
# The TypeScript SDK: one package up to 1.x, split from 2.0 (server, and node for its transports).
SDK_PACKAGES = ("@modelcontextprotocol/sdk", "@modelcontextprotocol/server", "@modelcontextprotocol/node")


@dataclass(frozen=True)
class Detected:
    name: str
    command: tuple[str, ...]
    source: tuple[str, ...]
    how: str  # what was recognised, for the comment above the entry
    cwd: str = "."  # where the command runs: a src/ layout's folder, so `python -m package` finds it
    env: tuple[str, ...] = ()  # environment variables its source reads (a commented env: line to fill in)
    cli: tuple[str, ...] = ()  # what its command line needs, as comments ("requires --db-path", "has --stdio")


def detect(folder: Path) -> list[Detected]:
    from mcplint.servers.detect_go import detect_go

    found = _node(folder) + _python(folder) + detect_go(folder)
    names: set[str] = set()
    unique = []
    for entry in found:
        name, n = entry.name, 2
        while name in names:
            name, n = f"{entry.name}-{n}", n + 1
        names.add(name)
        unique.append(Detected(name, entry.command, entry.source, entry.how, entry.cwd, entry.env, entry.cli))
    return unique


def _python(folder: Path) -> list[Detected]:
    texts: dict[Path, str] = {}
    for path in walk_files(folder, ".py"):
        try:
            texts[path] = path.read_text("utf-8", errors="replace")
        except OSError:
            continue
    found, entries = [], set()
    for path, text in texts.items():
        if not _makes_python_server(text):
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
        runs_package = (entry.parent / "__main__.py").is_file()  # `python -m package` runs that instead
        own = f"{target[1]}.{entry.stem}" if target[0] == "-m" and runs_package and entry.stem not in (
            "__main__", "__init__") else None
        script = _console_script(entry, folder, own) if own else None
        if script is not None and script[1] == own:
            # a console script of the server's own module beats the package's __main__, which may
            # start it some other way (tree-sitter's never registers its tools)
            name, module, function = script
            target = ("-c", f"import sys; from {module} import {function}; sys.exit({function}())")
            how += f", started by the console script {name} ({module}:{function})"
        elif target[0] == "-m" and not runs_package and (
                entry.name == "__init__.py" or not _PY_RUNS_AS_MAIN.search(texts[entry])):  # (-m never runs __init__ as main)
            script = _console_script(entry, folder, target[1])
            if script is not None:
                name, module, function = script
                target = ("-c", f"import sys; from {module} import {function}; sys.exit({function}())")
                how += f", started by the console script {name} ({module}:{function})"
            else:
                how += f"; check the command: {relative} starts nothing when run as a module"
        if any(d.command == ("python", *target) and d.cwd == cwd for d in found):
            continue  # two modules of one package, both started by its one command
        env = {m for p, text in texts.items() if _within(p, folder / source) for m in _PY_ENV.findall(text)}
        found.append(Detected(_server_name(entry, folder), ("python", *target), (source,), how, cwd,
                              tuple(sorted(env - _NOT_SETTINGS)), cli_needs([texts[entry], texts[path]])))
    return found


def _server_name(entry: Path, folder: Path) -> str:
    """The module's name, or its package's for a generic one (server.py, cli.py, __init__.py...)."""
    if f"{entry.stem}.py" not in (*RUNNER_NAMES, "__init__.py"):
        return package_name(entry.stem)
    return package_name(entry.parent.name if entry.parent != folder else folder.name)


def _within(path: Path, folder: Path) -> bool:
    return folder == path.parent or folder in path.parents


def _console_script(entry: Path, folder: Path, dotted: str) -> tuple[str, str, str] | None:
    """The console script (``[project.scripts]`` of the nearest pyproject.toml above ``entry``)
    that starts the package ``dotted`` belongs to: one naming ``dotted`` itself first, else its
    package, else any module of the same top-level package."""
    import tomllib

    for parent in [entry.parent, *entry.parent.parents]:
        pyproject = parent / "pyproject.toml"
        try:
            if pyproject.is_file() and pyproject.stat().st_size <= MAX_BYTES:
                scripts = tomllib.loads(pyproject.read_text("utf-8")).get("project", {}).get("scripts", {})
                break
        except (OSError, ValueError, AttributeError, RecursionError):  # (tomllib recurses on nesting)
            return None
        if parent == folder:
            return None
    else:
        return None
    candidates = []
    for name, value in scripts.items() if isinstance(scripts, dict) else ():
        module, _, function = str(value).partition(":")
        module, function = module.strip(), function.strip()
        if not (function.isidentifier() and all(part.isidentifier() for part in module.split("."))):
            continue  # (not a plain module:function; the value is written into a command line)
        if module.split(".")[0] != dotted.split(".")[0]:
            continue
        rank = 0 if module == dotted else 1 if dotted.startswith(module + ".") else 2
        candidates.append((rank, str(name), module, function))
    if not candidates:
        return None
    _, name, module, function = min(candidates)
    return name, module, function


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


# (the package's __init__.py last: motherduck's `main()` there runs the server its server.py builds)
RUNNER_NAMES = ("__main__.py", "main.py", "server.py", "cli.py", "app.py", "__init__.py")


def _runner(path: Path, texts: dict[Path, str]) -> Path | None:
    """The module of ``path``'s package (or of a package above it) that runs a server; ``texts``
    holds the repository's files, so the search never leaves it."""
    package = path.parent
    # a folder without __init__.py inside a package (memcached's common/) is part of it
    while (package / "__init__.py").is_file() or (package.parent / "__init__.py").is_file():
        for name in RUNNER_NAMES:
            candidate = package / name
            text = texts.get(candidate)
            # a package's __main__.py is what `python -m package` runs (the reference servers':
            # `from mcp_server_time import main; main()`), whatever it calls
            if candidate != path and text is not None and (name == "__main__.py" or _PY_RUNS.search(text)):
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
    if (package / "__main__.py").is_file() or path.name == "__init__.py":
        dotted = dotted.rsplit(".", 1)[0]
    cwd = top.parent.relative_to(folder).as_posix() if top.parent != folder else "."
    return ("-m", dotted), cwd


def _node(folder: Path) -> list[Detected]:
    found = []
    for path in walk_files(folder, "package.json"):
        try:
            package = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError, RecursionError):  # unreadable, not JSON, nested too deeply
            continue
        if not isinstance(package, dict):
            continue
        deps = {**_dict(package.get("dependencies")), **_dict(package.get("devDependencies"))}
        sdk = next((name for name in SDK_PACKAGES if name in deps), None)
        if sdk is None:
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
        how = f"{sdk} in {path.relative_to(folder).as_posix()}"
        if not (base / entry).is_file():  # a TypeScript server's dist/ before its first build
            build = "build" in _dict(package.get("scripts"))
            how += f"; build it first ({relative} does not exist{': npm run build' if build else ''})"
        from mcplint.servers.built import build_output

        env = _js_env([folder / source, base / entry, *build_output(("node", relative), folder, (folder.resolve(),))])
        found.append(Detected(package_name(name), (*runner, relative), (source,), how, env=env,
                              cli=cli_needs(texts_of([base / entry, *build_output(("node", relative), folder,
                                                                                    (folder.resolve(),))]))))
    return found


def _js_env(places: list[Path]) -> tuple[str, ...]:
    """The environment variables the JavaScript/TypeScript under `places` reads (`process.env.X`):
    its source folder, the file the command runs and the build output holding it (dist/, which
    the folder walk skips)."""
    names: set[str] = set()
    for place in places:
        paths = ([place] if place.suffix in _JS_SUFFIXES else []) if place.is_file() else _scripts(place)
        for path in paths:
            try:
                if path.stat().st_size <= MAX_BYTES:
                    text = path.read_text("utf-8", errors="replace")
                    names.update(a or b for a, b in _JS_ENV.findall(text))
            except OSError:
                continue
    return tuple(sorted(names - _NOT_SETTINGS))


def _scripts(folder: Path):
    """The JavaScript/TypeScript files below `folder`, skipped folders (node_modules...) not entered."""
    count = 0
    for top, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if name not in SKIP_DIRS and not name.startswith("."))
        for name in sorted(names):
            if name.endswith(_JS_SUFFIXES) and count < MAX_FILES:
                count += 1
                yield Path(top, name)


def _entry(package: dict) -> str | None:
    bin_ = package.get("bin")
    if isinstance(bin_, str):
        return bin_
    if isinstance(bin_, dict) and bin_ and all(isinstance(v, str) for v in bin_.values()):
        return next(iter(bin_.values()))
    main = package.get("main")
    return main if isinstance(main, str) else None


def walk_files(folder: Path, suffix: str):
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


def package_name(text: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.") or "server"
    return name[:64]


_SECRET = regex(r"_(?:API_KEY|KEY|TOKEN|SECRET|PASSWORD)$")


def _env_lines(names: tuple[str, ...]) -> list[str]:
    """Comments naming the environment variables a server's source reads; the secret-looking
    ones as an env: line to uncomment (a dummy value lets most servers list their tools)."""
    if not names:
        return []
    more = f" and {len(names) - SHOWN_ENV} more" if len(names) > SHOWN_ENV else ""
    lines = [f"    # its source reads {', '.join(names[:SHOWN_ENV])}{more}: set those it needs under env:"]
    secrets = [name for name in names if _SECRET.search(name)]
    if secrets:
        lines.append(f"    # env: {{{', '.join(f'{name}: dummy' for name in secrets)}}}")
    return lines


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
    from mcplint.commands.init import comment_text

    for entry in found[:MAX_SERVERS]:
        out += [f"  - name: {entry.name}                # {comment_text(entry.how)}",
                f"    command: [{', '.join(json.dumps(a) for a in entry.command)}]",
                *([f"    cwd: {json.dumps(entry.cwd)}"] if entry.cwd != "." else []),
                f"    source: [{', '.join(json.dumps(s) for s in entry.source)}]",
                *(f"    # {comment_text(line)}" for line in entry.cli),
                *_env_lines(entry.env),
                "    audit: false"]
    return out
