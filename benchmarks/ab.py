"""A/B of the transcript shards: the working tree against a git revision, interleaved.

    python benchmarks/ab.py FILE.jsonl [--against HEAD] [--rounds 8]

On a shared 2-core VM a pure-Python loop varies by ±30 % from one minute to the next, so two
`shards.py` runs minutes apart cannot tell a 5 % change from noise. This script checks the
revision out into a temporary worktree and alternates the two trees round by round, each run a
fresh interpreter timing both shards (`lint._shard_found`, CPU seconds), and prints each tree's
best. An A/A run (`--against HEAD` with a clean tree) shows what the noise is at that moment:
differences below it mean nothing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run in a fresh interpreter whose sys.path starts with the tree to time (argv: file, tree).
_RUN = r'''
import gc, sys, time
from mcplint import engine
from mcplint.capture import lint, split
from mcplint.config import Config
assert engine.__file__.startswith(sys.argv[2]), engine.__file__
plan = engine.Plan.build(Config(select=["ALL"]))
gc.disable()  # as engine._run_capture lints
for codes in split.split_rules(plan.rules):
    start = time.process_time()
    lint._shard_found(sys.argv[1], sys.argv[1], plan, frozenset(codes))
    print(time.process_time() - start)
'''


def _tree(path: Path, scratch: str) -> Path:
    """A directory (in ``scratch``) to put first on sys.path: ``mcplint`` and ``mcplint_rules``
    (the rules/ folder under its package name) of the tree at ``path``."""
    staged = Path(tempfile.mkdtemp(dir=scratch))
    (staged / "mcplint").symlink_to(path / "mcplint")
    (staged / "mcplint_rules").symlink_to(path / "rules")
    return staged


def _shards(file: str, staged: Path) -> tuple[float, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(staged)
    done = subprocess.run([sys.executable, "-c", _RUN, file, str(staged)], env=env, cwd=staged,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(done.stderr.strip().splitlines()[-1])
    parent, child = map(float, done.stdout.split())
    return parent, child


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--against", default="HEAD", help="the git revision to compare with (default HEAD)")
    parser.add_argument("--rounds", type=int, default=8)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mcplint-ab-worktree-") as scratch:
        worktree = Path(scratch) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(worktree), options.against],
                       check=True)
        try:
            trees = {options.against: _tree(worktree, scratch), "working tree": _tree(ROOT, scratch)}
            best = {name: [float("inf"), float("inf")] for name in trees}
            for _ in range(options.rounds):
                for name, staged in trees.items():
                    best[name] = [min(pair) for pair in zip(best[name], _shards(options.path, staged))]
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], check=False)
    for name, (parent, child) in best.items():
        print(f"{name}: parent shard {parent:.3f} s, child shard {child:.3f} s CPU (best of {options.rounds})")


if __name__ == "__main__":
    main()
