"""Lint many files in a process pool; the result is the one a serial run gives.

`engine.run` stays the worker: each batch of consecutive targets is linted by it in a
forked process, and the batches' results are put back together in target order, which is
what a serial run would have produced (findings are re-sorted with the same stable sort,
so ties keep the serial order). Forked workers inherit the plan (rules loaded, config
resolved) instead of rebuilding it; only the results travel back, pickled.

The pool is used only when it can pay: more than MIN_FILES files or more than MIN_BYTES
in all, at least two CPUs, and only regular files (standard input, named pipes and
devices keep the serial path, where their reads are bounded as before). It needs the
fork start method and a single-threaded process (forking beside live threads can copy a
held lock); anything else runs serially. MCPLINT_JOBS=1 forces a serial run, and
MCPLINT_JOBS=N caps the workers at N.
"""

from __future__ import annotations

import os
import stat
import sys
import threading

from mcplint import engine
from mcplint.discovery import STDIN
from mcplint.findings import within_report_limit
from mcplint.rule import MANIFEST

MIN_FILES = 50  # more files than this...
MIN_BYTES = 20 * 1024 * 1024  # ...or more bytes than this in all, and a pool pays for its start
BATCH_FILES = 25  # files per task at most: small tasks balance the load, few keep IPC cheap
ENV = "MCPLINT_JOBS"

# What forked workers inherit: set just before the pool starts, read by _lint_batch.
_plan: engine.Plan | None = None
_targets: list = []


def jobs() -> int:
    """How many processes may lint: MCPLINT_JOBS if set (1 = serial), else the usable CPUs."""
    raw = os.environ.get(ENV, "").strip()
    if raw:
        try:
            return max(1, int(raw))
        except ValueError:
            print(f"mcplint: warning: {ENV}={raw!r} is not a number; linting with all CPUs", file=sys.stderr)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _sizes(targets) -> list[int] | None:
    """Each target's size in bytes, or None when one is not a regular file (stdin, a FIFO...)."""
    sizes = []
    for target in targets:
        if target.path == STDIN:
            return None
        try:
            info = os.stat(target.path)
        except (OSError, ValueError):  # missing, unreadable, a NUL in the path: the loader says so
            sizes.append(0)
            continue
        if not stat.S_ISREG(info.st_mode):
            return None
        sizes.append(info.st_size)
    return sizes


def _batches(sizes: list[int], workers: int) -> list[range]:
    """Consecutive target ranges of at most BATCH_FILES files and about a quarter of a
    worker's share of the bytes, so that one big file does not leave a CPU idle."""
    limit = max(1, sum(sizes) // (workers * 4))
    batches, start, held = [], 0, 0
    for index, size in enumerate(sizes):
        if index > start and (index - start >= BATCH_FILES or held + size > limit):
            batches.append(range(start, index))
            start, held = index, 0
        held += size
    if start < len(sizes):
        batches.append(range(start, len(sizes)))
    return batches


def plan_pool(targets) -> tuple[int, list[range]] | None:
    """(workers, batches: biggest first) when a pool pays for itself here, else None (lint serially)."""
    workers = jobs()
    if workers < 2 or len(targets) < 2:
        return None
    # fork: the workers inherit the loaded rules. Not on macOS, where system frameworks break in a forked child.
    if not hasattr(os, "fork") or sys.platform == "darwin" or threading.active_count() > 1:
        return None
    sizes = _sizes(targets)
    if sizes is None or (len(targets) <= MIN_FILES and sum(sizes) <= MIN_BYTES):
        return None
    batches = _batches(sizes, workers)
    # The biggest batches go first: a large file started last would run alone at the end.
    batches.sort(key=lambda batch: -sum(sizes[i] for i in batch))
    return min(workers, len(batches)), batches


def run(targets, plan: engine.Plan, verbose: bool = False) -> engine.Result:
    """engine.run(targets, plan), in a process pool when there is enough work."""
    pooled = plan_pool(targets)
    if pooled is None:
        return engine.run(targets, plan)
    workers, batches = pooled
    if verbose:
        print(f"mcplint: linting {len(targets)} file(s) in {workers} processes", file=sys.stderr)
    return _run_pool(list(targets), plan, workers, batches)


def _run_pool(targets: list, plan: engine.Plan, workers: int, batches: list[range]) -> engine.Result:
    global _plan, _targets
    import multiprocessing  # only here: a check of a few files never pays for these imports
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # What every run imports on first use, imported once here rather than once in each worker.
    import importlib

    captures = any(engine._capture_kind(t) for t in targets)
    for module in ("mcplint.checklist", "mcplint.document.jsonmap", *(("mcplint.capture.lint",) if captures else ())):
        importlib.import_module(module)
    plan.rules_for(None if captures else MANIFEST)  # the rule modules a worker will run

    _plan, _targets = plan, targets
    results: list[engine.Result | None] = [None] * len(batches)
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_start) as pool:
            futures = {i: pool.submit(_lint_batch, batch.start, batch.stop) for i, batch in enumerate(batches)}
            try:
                for i, future in futures.items():
                    try:
                        results[i], used = future.result()
                    except BrokenProcessPool:  # a worker died (killed, out of memory): go on serially
                        break
                    plan.used_ignores |= used
            except BaseException:  # Ctrl-C, or a rule's exception re-raised: stop the workers now
                for process in list((getattr(pool, "_processes", None) or {}).values()):
                    process.terminate()  # a worker deep in a 1 GB file would otherwise finish it first
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    finally:
        _plan, _targets = None, []
    for i, batch in enumerate(batches):
        if results[i] is None:  # what the broken pool left undone, here as a serial run would
            results[i] = engine.run(targets[batch.start:batch.stop], plan)
    return _merge(result for _, result in sorted(zip(batches, results), key=lambda pair: pair[0].start))


def _worker_start() -> None:
    import signal

    # Ctrl-C reaches the whole process group: the parent stops the pool; workers stay quiet.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from mcplint.capture import split

    split.in_pool_worker = True  # the pool already uses every core: one transcript is not split again


def _lint_batch(start: int, stop: int) -> tuple[engine.Result, set[int]]:
    result = engine.run(_targets[start:stop], _plan)
    return result, set(_plan.used_ignores)


def _merge(results) -> engine.Result:
    merged = engine.Result()
    for part in results:
        merged.findings.extend(part.findings)
        merged.files.extend(part.files)
        merged.skipped.extend(part.skipped)
        merged.errors.extend(part.errors)
        merged.sources.update(part.sources)
    # as engine.run sorts (stable, so ties keep target order), and keeps at most MAX_REPORTED
    merged.findings = within_report_limit(merged.findings)
    return merged
