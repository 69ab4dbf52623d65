"""What `mcplint init` says about a server's command line: the arguments its source requires and a
`--stdio` switch, as comments above the entry (init never guesses their values)."""

from __future__ import annotations

from pathlib import Path

from mcplint.regex_cache import regex

MAX_TEXT = 1 << 20  # characters of a file read for them (detect.MAX_BYTES)

# What a server's command line needs that init cannot fill in: a required option or argument
# (argparse's required=True, click's required option or argument, a positional; yargs' and
# commander's `<name>`, process.argv[2]), and a --stdio switch (figma serves HTTP without it).
_CLI_REQUIRED = (
    regex(r"""add_argument\(\s*["'](--[\w-]+)["'][^()]*?\brequired\s*=\s*True"""),
    regex(r"""click\.option\(\s*["'](--[\w-]+)["'][^()]*?\brequired\s*=\s*True"""),
    regex(r"""add_argument\(\s*["']([A-Za-z][\w-]*)["']\s*(?:,\s*(?:help|type|metavar|choices)\b[^()]*?)?\)"""),
    regex(r"""click\.argument\(\s*["']([A-Za-z][\w-]*)["']\s*\)"""),
    regex(r"""\.(?:command|usage|arguments|argument)\(\s*["'`][^"'`\n]*?(<[\w-]+>)"""),
    regex(r"""(process\.argv\[[2-9]\])"""),
)
_CLI_STDIO = regex(r"""["'`]--stdio\b|\bstdio\s*:\s*\{\s*type\s*:\s*Boolean|\.option\(\s*["']stdio["']""")
MAX_CLI_HINTS = 4


def cli_needs(texts: list[str]) -> tuple[str, ...]:
    """Comments for the command: what its source says the command line requires, and a --stdio switch."""
    required: list[str] = []
    stdio = False
    for text in texts:
        for pattern in _CLI_REQUIRED:
            required.extend(m for m in pattern.findall(text[:MAX_TEXT]) if m not in required)
        stdio = stdio or _CLI_STDIO.search(text[:MAX_TEXT]) is not None
    lines = []
    if required:
        more = f" and {len(required) - MAX_CLI_HINTS} more" if len(required) > MAX_CLI_HINTS else ""
        lines.append(f"its source reads required command-line arguments ({', '.join(required[:MAX_CLI_HINTS])}{more}): "
                     "add them to command")
    if stdio:
        lines.append("its command line has a --stdio switch: add it if the server serves HTTP without it")
    return tuple(lines)


def texts_of(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        try:
            if path.is_file() and path.stat().st_size <= MAX_TEXT:
                found.append(path.read_text("utf-8", errors="replace"))
        except OSError:
            continue
    return found
