"""`mcplint lock`: pin every tool definition of the named manifests in a lock file."""

from __future__ import annotations

import sys
from pathlib import Path

from mcplint import config as config_module, discovery, pinning
from mcplint.document.loader import load_document
from mcplint.document.manifest import EXPECTED, classify, describe
from mcplint.engine import _looks_like_manifest
from mcplint.errors import InputError, MCPLintError
from mcplint.regex_cache import regex

_URL = regex(r"^[A-Za-z][A-Za-z0-9+.-]*://")
LIVE = "locking a live server needs `mcplint audit`, not available yet; lock manifest files instead"


def run_lock(*, paths: list[str], output: Path, config_path: Path | None, argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--" in argv or any(_URL.match(p) for p in paths):
        raise MCPLintError(LIVE)
    if discovery.STDIN in paths:
        raise MCPLintError("`mcplint lock` cannot read standard input: name the manifest files or folders")
    if config_path is not None and not Path(config_path).is_file():
        raise MCPLintError(f"{config_path}: config file not found")
    cfg = config_module.load(Path(config_path) if config_path else config_module.discover())
    max_bytes = cfg.max_file_size_mb * 1024 * 1024

    lock = pinning.Lock(str(output))
    errors: list[str] = []
    for target in discovery.collect(paths, cfg):
        shown = discovery.display_path(target.path)
        try:
            document = load_document(target.path, None, max_bytes)
        except InputError as err:
            if target.explicit or _looks_like_manifest(target.path):
                errors.append(str(err))
            continue
        except RecursionError:
            errors.append(f"{shown}: document is nested too deeply")
            continue
        document.path = shown
        manifest = classify(document)
        if manifest is None:
            if target.explicit:
                errors.append(f"{shown}: not an MCP tool manifest: {EXPECTED}; found {describe(document.data)}")
            continue
        tools, duplicates = pinning.pin(manifest)
        too_deep = [name for name, pinned in tools.items() if pinning.depth(pinned.definition) > pinning.MAX_DEPTH]
        if too_deep:
            errors.append(f"{shown}: tool '{pinning.label(too_deep[0])}' nests more than {pinning.MAX_DEPTH} levels "
                          "deep; a lock cannot pin it")
            continue
        lock.manifests[shown] = tools
        for name in sorted(set(duplicates)):
            print(f"mcplint: warning: {shown}: tool '{pinning.label(name)}' is defined more than once; "
                  "the first definition is pinned", file=sys.stderr)

    for message in errors:
        print(f"mcplint: error: {message}", file=sys.stderr)
    if errors:
        print(f"mcplint: {output} not written", file=sys.stderr)
        return 2
    if not lock.manifests:
        raise MCPLintError(f"no MCP tool manifests found in {', '.join(paths)}")
    from mcplint.safe_write import write_text

    write_text(output, pinning.dumps(lock), "lock file")
    count = sum(len(tools) for tools in lock.manifests.values())
    print(f"mcplint: pinned {count} tool(s) from {len(lock.manifests)} manifest(s) in {output}")
    return 0
