"""`mcplint init` on Go: a main package serving stdio, in a module that requires an MCP SDK, is
started with `go run ./path/to/package` from the module's folder."""

from __future__ import annotations

from pathlib import Path

from mcplint.regex_cache import regex
from mcplint.servers.cli_hints import cli_needs, texts_of
from mcplint.servers.detect import MAX_BYTES, Detected, package_name, walk_files

# Go: a main package of a module that requires an MCP SDK and serves over stdio.
GO_SDKS = ("github.com/mark3labs/mcp-go", "github.com/modelcontextprotocol/go-sdk", "github.com/metoro-io/mcp-golang")
_GO_MAIN = regex(r"(?m)^package\s+main\b")
_GO_STDIO = regex(r"\bServeStdio\s*\(|\bStdioTransport\b|\bNewStdioServer\s*\(|\bstdio\.New")


def detect_go(folder: Path) -> list[Detected]:
    found = []
    for mod in walk_files(folder, "go.mod"):
        try:
            text = mod.read_text("utf-8", errors="replace")
        except OSError:
            continue
        sdk = next((name for name in GO_SDKS if name in text), None)
        if sdk is None:
            continue
        base = mod.parent
        mains = sorted({path.parent for path in walk_files(base, ".go") if _go_serves(path)})
        for package in mains:
            relative = package.relative_to(base).as_posix()
            target = "." if relative == "." else f"./{relative}"
            cwd = base.relative_to(folder).as_posix() if base != folder else "."
            name = package_name(package.name if relative != "." else base.name)
            found.append(Detected(name, ("go", "run", target), (cwd if cwd != "." else ".",),
                                  f"{sdk} server in {package.relative_to(folder).as_posix() or '.'}", cwd,
                                  cli=cli_needs(texts_of(sorted(package.glob("*.go"))[:50]))))
    return found


def _go_serves(path: Path) -> bool:
    if path.name.endswith("_test.go"):
        return False
    try:
        text = path.read_text("utf-8", errors="replace")[:MAX_BYTES]
    except OSError:
        return False
    return _GO_MAIN.search(text) is not None and _GO_STDIO.search(text) is not None
