"""Speed benchmark for `mcplint check`, each figure beside its floor (run by hand: python benchmarks/run.py).

The floor of a case is what it costs to start the same Python and `json.loads` every line
of a transcript, or the whole of a manifest or HAR file. Each case and its floor are run
under /usr/bin/time, interleaved (floor, mcplint, floor, mcplint...) so the machine's load
affects both alike; the best of N runs counts, after a warm-up. Targets (issue 13, on a
2-core machine):

- a 5-tool manifest <= 0.2 s wall, interpreter start included;
- a 10,000-tool manifest <= 4x its floor;
- a 200,000-message transcript <= 3x its floor and <= 100 MB;
- HAR files: linear in size and findings (the time per MB of a 4x larger file <= 1.25x);
- a 1 GB transcript <= 40 s (--big only: it takes minutes to write and run);
- a folder of 2,000 manifests and captures: the process pool <= 0.75x the serial run
  (MCPLINT_JOBS=1), i.e. it uses both cores.
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
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import har  # noqa: E402
import transcript  # noqa: E402

VERBS = ["get", "list", "create", "update", "search", "fetch", "read", "convert", "summarize", "validate"]
NOUNS = ["issue", "user", "file", "invoice", "order", "ticket", "report", "page", "record", "event"]

# The floors: start Python, parse. A transcript line by line (blank lines skipped, as mcplint
# does), a manifest or a HAR file whole; a folder: every file as its kind.
FLOOR = """import json, sys
for name in sys.argv[1:]:
    with open(name, "rb") as f:
        if name.endswith((".jsonl", ".ndjson")):
            for line in f:
                if line.strip():
                    json.loads(line)
        else:
            json.loads(f.read())
"""


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


def generate(directory: Path, count: int, name: str, seed: int | None = None) -> Path:
    rng = random.Random(count if seed is None else seed)
    path = directory / name
    path.write_text(json.dumps({"tools": [make_tool(i, rng) for i in range(count)]}, indent=1), "utf-8")
    return path


def folder(directory: Path, count: int = 2000) -> Path:
    """``count`` files: manifests of 1-30 tools (one in ten with findings), one in five a
    transcript of 50-300 messages, one in fifty a HAR file."""
    rng = random.Random(count)
    directory.mkdir()
    for i in range(count):
        sub = directory / f"server-{i // 100:02d}"
        sub.mkdir(exist_ok=True)
        if i % 50 == 7:
            har.write(sub / f"session-{i}.har", rng.randrange(50, 600), seed=i)
        elif i % 5 == 3:
            transcript.write(sub / f"session-{i}.jsonl", rng.randrange(50, 300), seed=i)
        else:
            generate(sub, rng.randrange(1, 31), f"tools-{i}.json", seed=i)
    return directory


# As users run it: bytecode caches allowed (some sandboxes set PYTHONDONTWRITEBYTECODE,
# which makes every start compile every module) and no colour codes.
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "MCPLINT_JOBS")} | {"NO_COLOR": "1"}


def timed(args: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall seconds and peak RSS in MB of one run."""
    with tempfile.NamedTemporaryFile("r") as stats:
        subprocess.run(["/usr/bin/time", "-o", stats.name, "-f", "%e %M", *args],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**ENV, **(env or {})})
        wall, rss_kb = stats.read().split()[-2:]
    return float(wall), int(rss_kb) / 1024


def best_of(commands: dict[str, tuple[list[str], dict]], runs: int) -> dict[str, tuple[float, float]]:
    """Best (wall, its peak MB) of each command over ``runs`` rounds; each round runs every
    command once, in turn, so a busy moment of the machine falls on all of them."""
    best = {label: (float("inf"), 0.0) for label in commands}
    for args, env in commands.values():  # warm-up: the page cache, bytecode
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**ENV, **env})
    for _ in range(runs):
        for label, (args, env) in commands.items():
            best[label] = min(best[label], timed(args, env))
    return best


@dataclass
class Row:
    case: str
    mcplint: float
    floor: float | None
    target: str
    met: bool
    note: str = ""

    def cells(self) -> list[str]:
        floor = f"{self.floor:.2f} s" if self.floor is not None else "-"
        ratio = f"{self.mcplint / self.floor:.1f}x" if self.floor else "-"
        return [self.case, f"{self.mcplint:.2f} s", floor, ratio, self.target, "met" if self.met else "MISSED",
                self.note]


def python_of(mcplint: str) -> str:
    """The interpreter the mcplint script runs on (its #! line), for a fair floor."""
    try:
        with open(shutil.which(mcplint) or mcplint, "rb") as script:
            first = script.readline().decode("utf-8", "replace").strip()
    except OSError:
        return sys.executable
    if first.startswith("#!") and "python" in first:
        return first[2:].split()[0]
    return sys.executable


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="best of this many runs (default 5)")
    parser.add_argument("--mcplint", default=shutil.which("mcplint") or "mcplint", help="the mcplint command")
    parser.add_argument("--big", action="store_true", help="also a 1 GB transcript (<= 40 s; minutes to run)")
    parser.add_argument("--only", nargs="*", help="only these cases: small, manifest, transcript, har, big, folder")
    options = parser.parse_args()
    if not Path("/usr/bin/time").exists():
        print("benchmarks/run.py needs /usr/bin/time (Debian package 'time')", file=sys.stderr)
        return 2
    mcplint, python, runs = [options.mcplint], python_of(options.mcplint), options.runs
    wanted = set(options.only or ["small", "manifest", "transcript", "har", "folder"]) | ({"big"} if options.big else set())
    floor = lambda *paths: ([python, "-c", FLOOR, *map(str, paths)], {})  # noqa: E731
    check = lambda *args, **env: ([*mcplint, "check", *map(str, args)], env)  # noqa: E731
    rows: list[Row] = []

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if "small" in wanted:
            small = generate(tmp, 5, "tools-5.json")
            got = best_of({"start": ([python, "-c", "pass"], {}), "version": ([*mcplint, "--version"], {}),
                           "help": ([*mcplint, "--help"], {}), "floor": floor(small), "check": check(small)}, runs)
            for label in ("version", "help"):
                rows.append(Row(f"mcplint --{label}", got[label][0], got["start"][0], "<= 0.25 s",
                                got[label][0] <= 0.25, "floor: python -c pass"))
            rows.append(Row("5-tool manifest (rich)", got["check"][0], got["floor"][0], "<= 0.2 s",
                            got["check"][0] <= 0.2))
        if "manifest" in wanted:
            big = generate(tmp, 10_000, "tools-10000.json")
            say(f"generated {big.stat().st_size / 1e6:.1f} MB manifest with 10,000 tools")
            got = best_of({"floor": floor(big), "check": check(big, "--format", "json")}, runs)
            (wall, mb), base = got["check"], got["floor"][0]
            rows.append(Row("10,000-tool manifest", wall, base, "<= 4x floor", wall <= 4 * base, f"{mb:.0f} MB"))
        if "transcript" in wanted:
            session = transcript.write(tmp / "session-200k.jsonl", 200_000)
            say(f"generated {session.stat().st_size / 1e6:.1f} MB transcript with 200,000 messages")
            got = best_of({"floor": floor(session), "check": check(session, "--format", "json")}, runs)
            (wall, mb), base = got["check"], got["floor"][0]
            rows.append(Row("200,000-message transcript", wall, base, "<= 3x floor, <= 100 MB",
                            wall <= 3 * base and mb <= 100, f"{mb:.0f} MB"))
        if "har" in wanted:
            sizes = {}
            for label, messages in (("small", 4_000), ("large", 16_000)):
                path = har.write(tmp / f"session-{messages}.har", messages)
                sizes[label] = path.stat().st_size / 1e6
                got = best_of({"floor": floor(path), "check": check(path, "--format", "json")}, runs)
                sizes[label + " time"] = got["check"][0]
                rows.append(Row(f"HAR, {messages:,} messages ({sizes[label]:.1f} MB)", got["check"][0],
                                got["floor"][0], "-", True, f"{got['check'][0] / sizes[label]:.3f} s/MB"))
            per_mb = (sizes["large time"] / sizes["large"]) / (sizes["small time"] / sizes["small"])
            rows[-1].target, rows[-1].met = "s/MB <= 1.25x the smaller's", per_mb <= 1.25
            rows[-1].note += f", {per_mb:.2f}x the smaller's"
        if "big" in wanted:
            session = transcript.write(tmp / "session-1gb.jsonl", 2_160_000)
            say(f"generated {session.stat().st_size / 1e9:.2f} GB transcript")
            got = best_of({"floor": floor(session), "check": check(session, "--format", "json")}, max(1, runs // 5))
            (wall, mb), base = got["check"], got["floor"][0]
            rows.append(Row("1 GB transcript", wall, base, "<= 40 s", wall <= 40, f"{mb:.0f} MB"))
        if "folder" in wanted:
            many = folder(tmp / "many")
            files = sorted(p for p in many.rglob("*") if p.is_file())
            say(f"generated {len(files):,} files, {sum(p.stat().st_size for p in files) / 1e6:.1f} MB")
            got = best_of({"floor": floor(*files), "serial": check(many, "--format", "json", MCPLINT_JOBS="1"),
                           "pool": check(many, "--format", "json")}, runs)
            serial, pool, base = got["serial"][0], got["pool"][0], got["floor"][0]
            rows.append(Row("2,000 files, serial (MCPLINT_JOBS=1)", serial, base, "-", True))
            rows.append(Row("2,000 files, process pool", pool, base, "<= 0.75x serial", pool <= 0.75 * serial,
                            f"{pool / serial:.2f}x serial"))
    header = ["case", "mcplint", "floor", "ratio", "target", "", "note"]
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join("---" for _ in header) + " |")
    for row in rows:
        print("| " + " | ".join(row.cells()) + " |")
    return 0 if all(row.met for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
