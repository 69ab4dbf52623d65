"""Speed benchmark for `mcplint check` (run by hand: python benchmarks/run.py).

Generates a 10,000-tool manifest (about 8 MB) and a 5-tool one, then measures
wall time and peak memory of the real command with /usr/bin/time, best of N runs.
Targets (issue #2, on a 2-core machine): 10,000 tools <= 1.5 s and <= 300 MB;
5 tools <= 0.25 s from a cold start; --help and --version faster still. Issue #3: a
200,000-message transcript (about 100 MB, benchmarks/transcript.py) <= 20 s and <= 300 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

VERBS = ["get", "list", "create", "update", "search", "fetch", "read", "convert", "summarize", "validate"]
NOUNS = ["issue", "user", "file", "invoice", "order", "ticket", "report", "page", "record", "event"]
TARGETS = {"version": 0.25, "help": 0.25, "check-5": 0.25, "check-10000": 1.5, "transcript-200k": 20.0}
MEMORY_LIMITED = ("check-10000", "transcript-200k")  # <= 300 MB peak


def make_tool(i: int, rng: random.Random) -> dict:
    verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
    tool = {
        "name": f"{verb}_{noun}_{i}",
        "title": f"{verb.title()} {noun} {i}",
        "description": (
            f"{verb.title()} the {noun} identified by the given id and return its fields, "
            f"owner and status. Use this before changing a {noun}."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                f"{noun}_id": {"type": "string", "description": f"Identifier of the {noun}."},
                "page": {"type": "integer", "minimum": 1, "description": "Page number, from 1."},
                "page_size": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Rows per page."},
                "include_history": {"type": "boolean", "description": "Whether to include the change history."},
            },
            "required": [f"{noun}_id"],
            "additionalProperties": False,
        },
        "annotations": {"readOnlyHint": verb in ("get", "list", "search", "fetch", "read"), "openWorldHint": False},
    }
    if i % 10 == 0:  # one tool in ten has problems, so positions are computed for real findings
        tool["name"] = f"{verb}{noun.title()}{i}"
        tool["description"] = f"This tool {verb}s {noun}s 🚀"
        tool["inputSchema"]["properties"]["query"] = {}
        tool["inputSchema"]["required"].append("missing_param")
    return tool


def generate(directory: Path, count: int, name: str) -> Path:
    rng = random.Random(count)
    path = directory / name
    path.write_text(json.dumps({"tools": [make_tool(i, rng) for i in range(count)]}, indent=1), "utf-8")
    return path


# As users run it: bytecode caches allowed (some sandboxes set PYTHONDONTWRITEBYTECODE,
# which makes every start compile every module) and no colour codes.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"NO_COLOR": "1"}


def measure(args: list[str], runs: int) -> tuple[float, float]:
    """Best wall seconds and its peak RSS in MB over ``runs`` runs, after one warm-up."""
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    best = (float("inf"), 0.0)
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("r") as stats:
            subprocess.run(
                ["/usr/bin/time", "-o", stats.name, "-f", "%e %M", *args],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV,
            )
            wall, rss_kb = stats.read().split()[-2:]
        best = min(best, (float(wall), int(rss_kb) / 1024))
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mcplint", default=shutil.which("mcplint") or "mcplint")
    options = parser.parse_args()
    if not Path("/usr/bin/time").exists():
        print("benchmarks/run.py needs /usr/bin/time (Debian package 'time')", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        big = generate(Path(tmp), 10_000, "tools-10000.json")
        small = generate(Path(tmp), 5, "tools-5.json")
        print(f"generated {big.stat().st_size / 1e6:.1f} MB manifest with 10,000 tools")
        sys.path.insert(0, str(Path(__file__).parent))
        import transcript

        session = transcript.write(Path(tmp) / "session-200k.jsonl", 200_000)
        print(f"generated {session.stat().st_size / 1e6:.1f} MB transcript with 200,000 messages")
        cases = {
            "version": [options.mcplint, "--version"],
            "help": [options.mcplint, "--help"],
            "check-5": [options.mcplint, "check", str(small)],
            "check-10000": [options.mcplint, "check", str(big), "--format", "json"],
            "transcript-200k": [options.mcplint, "check", str(session), "--format", "json"],
        }
        failed = False
        for label, args in cases.items():
            wall, rss = measure(args, options.runs)
            target = TARGETS[label]
            ok = wall <= target and (label not in MEMORY_LIMITED or rss <= 300)
            failed |= not ok
            print(f"{label:15} {wall:6.2f} s  {rss:6.0f} MB   target <= {target} s{'  (and <= 300 MB)' if label in MEMORY_LIMITED else ''}  {'ok' if ok else 'SLOW'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
