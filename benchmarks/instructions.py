"""Machine instructions each transcript shard executes, counted by valgrind's callgrind: the
same on every run, whatever else the machine is doing, and C code (msgspec, regexes, dicts)
included, where `opcodes.py` counts Python bytecodes only.

    python benchmarks/instructions.py FILE.jsonl [--lines 12000] [--tree PATH]

Each shard (split.py's parent and child) is counted twice, on the first `--lines` / 3 lines of
FILE and on the first `--lines`, and the difference is printed per 1,000 lines: the fixed costs
(imports, the tools/list page's manifest lint, jsonschema's first compile) cancel out. The floor
is counted the same way (`json.loads` of each line), so the ratio says what the timing ratio says
on an idle machine, without the machine's mood. Each count takes 10-60 s (callgrind runs the
program ~50x slower). `--tree` counts another checkout (a `git worktree add`) for an A/B.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_SHARD = r'''
import gc, sys
from mcplint import engine
from mcplint.capture import lint, split
from mcplint.config import Config
assert engine.__file__.startswith(sys.argv[3]), engine.__file__
plan = engine.Plan.build(Config(select=["ALL"]))
parent, child = split.split_rules(plan.rules)
gc.disable()  # as engine._run_capture lints
lint._shard_found(sys.argv[1], sys.argv[1], plan, frozenset(parent if sys.argv[2] == "parent" else child))
'''
_FLOOR = r'''
import json, sys
with open(sys.argv[1], "rb") as lines:
    for line in lines:
        if line.strip():
            json.loads(line)
'''


def _count(code: str, args: list[str], staged: Path) -> int:
    """Instructions callgrind counts for ``python -c code args``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(staged), PYTHONHASHSEED="0")  # the same dict layouts on every run
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/out", sys.executable, "-c", code, *args],
            env=env, cwd=staged, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or not found:
        sys.exit(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "valgrind failed")
    return int(found.group(1))


def _head(path: str, lines: int, scratch: str) -> str:
    out = Path(scratch) / f"head-{lines}.jsonl"
    with open(path, "rb") as source, open(out, "wb") as target:
        for number, line in enumerate(source):
            if number >= lines:
                break
            target.write(line)
    return str(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--lines", type=int, default=12_000)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to count (default: this one)")
    options = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="mcplint-instructions-") as scratch:
        staged = Path(scratch) / "tree"
        staged.mkdir()
        (staged / "mcplint").symlink_to(options.tree.resolve() / "mcplint")
        (staged / "mcplint_rules").symlink_to(options.tree.resolve() / "rules")
        small, large = _head(options.path, options.lines // 3, scratch), _head(options.path, options.lines, scratch)
        per = 1000 / (options.lines - options.lines // 3)
        counts = {}
        for name, code, extra in (("parent", _SHARD, ["parent"]), ("child", _SHARD, ["child"]), ("floor", _FLOOR, [])):
            args = lambda path: [path, *extra, str(staged)] if extra else [path]  # noqa: E731
            _count(code, args(small), staged)  # compiles the tree's .pyc files: not counted
            counts[name] = (_count(code, args(large), staged) - _count(code, args(small), staged)) * per
    # run.py's floor is one process parsing every line; mcplint's wall time is its slower shard.
    floor = counts["floor"]
    for name in ("parent", "child"):
        print(f"{name} shard: {counts[name] / 1e6:.1f} M instructions per 1,000 lines ({counts[name] / floor:.2f}x the floor)")
    print(f"floor (json.loads of each line): {floor / 1e6:.1f} M per 1,000 lines")


if __name__ == "__main__":
    main()
