"""`mcplint init`: write a commented starter `.mcplint.yaml` for the current folder.

It walks the folder like `mcplint check .`, lists the manifests it finds, sets `include`
when they live in a few folders and `protocol-version` when they all imply the same one,
and shows every rule option (commented out, with its default) from the registry.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path, PurePosixPath

from mcplint import config as config_module, discovery, registry
from mcplint.document.loader import load_document
from mcplint.document.manifest import classify
from mcplint.engine import _looks_like_manifest, infer_version
from mcplint.errors import InputError, MCPLintError
from mcplint.versions import VERSIONS

CONFIG_NAME = ".mcplint.yaml"
MAX_LISTED = 20  # manifests listed by name in the header comment
MAX_INCLUDE = 3  # more top folders than this: no include globs
COLUMN = 40  # where trailing comments start


def run_init(*, force: bool, folder: Path | None = None) -> int:
    folder = (folder or Path.cwd()).resolve()
    target = folder / CONFIG_NAME
    existing = config_module.discover(folder)
    if existing is not None and existing.parent == folder and not force:
        hint = "" if existing.name == CONFIG_NAME else f"; --force writes {CONFIG_NAME}, which takes precedence"
        raise MCPLintError(f"{existing.name} already configures mcplint here (use --force to overwrite{hint})")
    found, broken = scan(folder)
    from mcplint.servers.detect import detect

    servers = detect(folder)
    text = render(found, broken, servers)
    _write(target, text, force)
    versions_found = sorted(set(found.values()))
    version = f", protocol-version {versions_found[0]}" if len(versions_found) == 1 else ""
    named = f", {len(servers)} server(s): {', '.join(s.name for s in servers)}" if servers else ""
    print(f"mcplint: wrote {CONFIG_NAME} ({len(found)} manifest(s) found{version}{named}); "
          "review it, then run `mcplint check`")
    return 0


def _write(target: Path, text: str, force: bool) -> None:
    """Write the config as a regular file of the folder, never through a symlink: a cloned
    repository's `.mcplint.yaml -> ~/.ssh/authorized_keys` (dangling, so no config was found)
    must not make init write there. --force replaces the link itself."""
    if target.is_symlink():
        if not force:
            raise MCPLintError(f"{CONFIG_NAME} is a symbolic link; init writes only a regular file "
                               "(remove the link, or use --force to replace it)")
        target.unlink()
    from mcplint.safe_write import write_text

    write_text(target, text, "config")


def scan(folder: Path) -> tuple[dict[str, str], list[str]]:
    """{manifest path relative to ``folder``: the protocol version it implies}, and the files
    that seem meant as manifests but do not load (one line each)."""
    cfg = config_module.Config(root=folder)
    found: dict[str, str] = {}
    broken: list[str] = []
    for target in discovery.collect([str(folder)], cfg):
        shown = Path(target.path).relative_to(folder).as_posix()
        try:
            document = load_document(target.path)
        except (InputError, RecursionError) as err:
            if _looks_like_manifest(target.path):
                broken.append(f"{shown}: {str(err).split(': ', 1)[-1]}" if isinstance(err, InputError) else shown)
            continue
        manifest = classify(document)
        if manifest is not None:
            found[shown] = infer_version(manifest)
    return found, broken


def include_globs(paths) -> list[str]:
    """``folder/**`` for the top folders holding the manifests, when there are a few and
    none sits at the root; otherwise [] (walk everything)."""
    folders = sorted({PurePosixPath(p).parent for p in paths})
    if not folders or PurePosixPath(".") in folders:
        return []
    tops = [f for f in folders if not any(f != other and other in f.parents for other in folders)]
    return [f"{top}/**" for top in tops] if len(tops) <= MAX_INCLUDE else []


def _line(setting: str, comment: str) -> str:
    return f"{setting:<{COLUMN - 1}} # {comment}" if comment else setting


def _flow(value) -> str:
    """A default as YAML flow (JSON is valid YAML flow; ASCII, so no U+2028 breaks a line)."""
    return json.dumps(value)


def comment_text(text: str) -> str:
    """A file name or message from the scanned tree, for a `#` comment of the config: a newline
    in a folder's name must not end the comment and write a line of YAML (a `servers:` command)."""
    from mcplint.audit.server_text import printable

    return printable(text)


def render(found: dict[str, str], broken: list[str], servers=()) -> str:
    out = [
        "# mcplint configuration, written by `mcplint init`. Keys are kebab-case; globs are relative",
        "# to this file's folder. `mcplint explain RULE` documents a rule and its options.",
        "#",
    ]
    if found:
        width = max(len(p) for p in list(found)[:MAX_LISTED])
        out.append(f"# MCP manifests (tool, prompt or resource listings) found here ({len(found)}):")
        out += [f"#   {comment_text(path):<{width}}  protocol {version}" for path, version in list(found.items())[:MAX_LISTED]]
        if len(found) > MAX_LISTED:
            out.append(f"#   ... and {len(found) - MAX_LISTED} more")
    else:
        out.append("# No MCP manifests were found here yet. `mcplint check PATH` lints manifests (tool, prompt")
        out.append("# and resource listings in JSON or YAML) and captures (JSONL, HAR); `mcplint check` alone")
        out.append("# also starts and lints the servers listed under servers: below.")
    if broken:
        out.append("# Files that look like manifests but do not load (fix or exclude them):")
        out += [f"#   {comment_text(line)}" for line in broken[:MAX_LISTED]]
    out.append("")

    globs = include_globs(found)
    out.append("# Folders walked by `mcplint check .` lint only files matching include and not exclude")
    out.append("# (files named on the command line are always linted).")
    out.append(_line(f"include: [{', '.join(_flow(g) for g in globs)}]",
                     "the folders holding the manifests above" if globs else "[] = every JSON, YAML, JSONL and HAR file"))
    out.append(_line("exclude: []", 'e.g. ["examples/**"]'))
    out.append("")
    from mcplint.servers.detect import render as render_servers

    out += render_servers(list(servers))
    out.append("")

    versions_found = Counter(found.values())
    choices = " | ".join(VERSIONS)
    if len(versions_found) == 1:
        (version,) = versions_found
        out.append("# Protocol version to lint against; every manifest found implies this one.")
        out.append(_line(f"protocol-version: {version}", choices))
    else:
        if versions_found:
            counts = ", ".join(f"{v}: {n} file(s)" for v, n in sorted(versions_found.items()))
            out.append("# The manifests found imply different protocol versions, so each is linted at the")
            out.append(f"# version it implies ({counts}). Set one to lint them all against it:")
        else:
            out.append("# Protocol version to lint against (default: inferred per document):")
        common = versions_found.most_common(1)[0][0] if versions_found else VERSIONS[-1]
        out.append(_line(f"# protocol-version: {common}", choices))
    out.append("")

    out.append("# Lowest severity that makes `mcplint check` exit with status 1.")
    out.append(_line("fail-on: error", "error | warning | info | never"))
    out.append("")

    out += [
        "# Rules: codes (MCP204), code prefixes (MCP2), names (duplicate-tool-name) or ALL.",
        "select: [ALL]",
        _line("# extend-select: []", "added to select"),
        _line("# ignore: [format-hint-unconstrained]", "rules never to run"),
        _line("# severity:", "per rule: error | warning | info | off"),
        "#   description-too-long: info",
        '#   MCP331: "off"',
        _line("# per-file-ignores:", "glob, or glob#/json/pointer -> rules"),
        '#   "legacy/*.json": [MCP2]',
        '#   "tools.json#/tools/3": [destructive-tool-unannotated]',
        "",
    ]
    out += options_block()
    out += [
        "",
        "# Tool pinning: `mcplint lock .` writes mcplint.lock (commit it); then",
        "# `mcplint check . --lock mcplint.lock` reports tools added, removed or changed since.",
        "",
    ]
    return "\n".join(out)


def options_block() -> list[str]:
    """Every rule option with its default and meaning, commented out."""
    out = ["# Rule options, with their defaults (uncomment to change):", "# options:"]
    for rule in registry.all_rules():
        fields = rule.Options.fields()
        if not fields:
            continue
        out.append(_line(f"#   {rule.name}:", rule.code))
        for name, spec in fields.items():
            out.append(_line(f"#     {name.replace('_', '-')}: {_flow(spec.default)}", spec.description))
    return out
