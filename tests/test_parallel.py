"""Many files: `check` of a folder lints in a process pool, and the report is byte for byte the
one a serial run (MCPLINT_JOBS=1) gives: findings order, summary, code frames, errors, skipped
files, per-file-ignores and their warnings, baselines. Few files, stdin and pipes stay serial."""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, run_mcplint
from mcplint import config, discovery, engine, parallel

sys.path.insert(0, str(ROOT / "benchmarks"))
import run as bench  # noqa: E402  the benchmark's generators: manifests with findings, transcripts
import transcript  # noqa: E402

CONFIG = """\
per-file-ignores:
  "m-01*.json": [MCP2]
  "m-02*.json#/tools/0": [ALL]
  "never-matches-*.json": [MCP301]
  "m-00*.json": [input-schema-missing]
"""


def _folder(root: Path) -> Path:
    """120 manifests and captures with findings, plus files that fail or are skipped."""
    rng = random.Random(13)
    folder = root / "servers"
    (folder / "nested" / "deeper").mkdir(parents=True)
    for i in range(70):
        tools = {"tools": [bench.make_tool(i * 10 + j, rng) for j in range(rng.randrange(1, 12))]}
        where = folder / ("nested" if i % 3 else "") / f"m-{i:03d}.json"
        where.write_text(json.dumps(tools, indent=1 + i % 3), "utf-8")
    for i in range(10):  # YAML, with suppression comments (one used, one unused: MCP001)
        tools = [{"name": f"getOrder{i}", "description": "Get one order by its id.",
                  "inputSchema": {"type": "object"}}]
        text = "tools:\n  - name: getOrder%d  # mcplint: disable=MCP202\n" % i
        text += "    description: Get one order by its id.\n    inputSchema: {type: object}\n"
        text += "  - name: list_items  # mcplint: disable=MCP311\n    description: List items\n"
        text += "    inputSchema: {type: object, properties: {q: {}}}\n"
        (folder / "nested" / "deeper" / f"y-{i}.yaml").write_text(text, "utf-8")
        del tools
    for i in range(30):  # the benchmark's session, with a few listing findings and a tool error's status
        path = transcript.write(folder / ("nested" if i % 2 else "") / f"t-{i:02d}.jsonl", 40 + 17 * i, seed=i)
        text = path.read_text("utf-8").replace(f"get_reading_{i % 20}", f"getReading{i % 20}")
        path.write_text(text.replace("Get the latest", "This tool gets the latest" if i % 4 else "Gets 🚀"), "utf-8")
    har = (FIXTURES / "captures" / "weather.har").read_text("utf-8")
    for i in range(10):
        (folder / "nested" / f"h-{i}.har").write_text(har.replace("weather.example.com", f"w{i}.example.com"), "utf-8")
    (folder / "broken.json").write_text('{"tools": [{"name": "x", ', "utf-8")  # an error: looks like a manifest
    (folder / "notes.json").write_text('{"title": "not a manifest"}', "utf-8")  # skipped
    (folder / "empty.jsonl").write_text("", "utf-8")  # skipped
    (folder / "nested" / "bad.yaml").write_text("tools: [\n", "utf-8")
    (root / ".mcplint.yaml").write_text(CONFIG, "utf-8")
    return folder


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("many")
    _folder(root)
    return root


def _check(root: Path, jobs: str, *args: str):
    done = run_mcplint("check", "servers", *args, cwd=root, env={"MCPLINT_JOBS": jobs})
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def test_the_folder_is_big_enough_for_a_pool(tree):
    targets = discovery.collect([str(tree / "servers")], config.load(tree / ".mcplint.yaml"))
    assert len(targets) >= 120
    os.environ["MCPLINT_JOBS"] = "2"
    try:
        pooled = parallel.plan_pool(targets)
    finally:
        del os.environ["MCPLINT_JOBS"]
    assert pooled is not None and pooled[0] == 2 and len(pooled[1]) > 2


@pytest.mark.parametrize("fmt", ["json", "sarif", "rich", "github", "junit"])
def test_report_identical_to_serial(tree, fmt):
    serial = _check(tree, "1", "--format", fmt)
    pooled = _check(tree, "2", "--format", fmt)
    assert serial[0] == 2  # broken.json and bad.yaml are errors; everything else is reported
    assert pooled == serial
    if fmt == "json":
        report = json.loads(serial[1])
        assert len(report["findings"]) > 500
        assert {f["path"].rsplit(".", 1)[-1] for f in report["findings"]} >= {"json", "yaml", "jsonl", "har"}


def test_verbose_says_it_used_the_pool_and_lists_the_same_skipped_files(tree):
    serial = _check(tree, "1", "-v", "--format", "json")
    pooled = _check(tree, "2", "-v", "--format", "json")
    assert "in 2 processes" in pooled[2] and "processes" not in serial[2]
    without = "\n".join(line for line in pooled[2].splitlines() if "processes" not in line) + "\n"
    assert (pooled[0], pooled[1], without) == serial
    assert "skipped servers/notes.json" in serial[2] and "servers/empty.jsonl" in serial[2]
    assert "broken.json" in serial[2] and "bad.yaml" in serial[2]


def test_per_file_ignores_warnings_and_baseline_identical(tree, tmp_path):
    serial = _check(tree, "1", "--format", "json")
    assert "m-00*.json" in serial[2]  # the entry that silenced nothing is named, once, as in a serial run
    root = tmp_path / "clean"  # a baseline is written only when every file could be linted
    shutil.copytree(tree, root)
    (root / "servers" / "broken.json").unlink()
    (root / "servers" / "nested" / "bad.yaml").unlink()
    for jobs in ("1", "2"):
        written = _check(root, jobs, "--write-baseline", f"baseline-{jobs}.json")
        assert written[0] == 0, written
    assert (root / "baseline-1.json").read_bytes() == (root / "baseline-2.json").read_bytes()
    with_baseline = [_check(root, jobs, "--baseline", "baseline-1.json", "--format", "json") for jobs in ("1", "2")]
    assert with_baseline[0] == with_baseline[1]
    assert with_baseline[0][0] == 0 and json.loads(with_baseline[0][1])["findings"] == []


def test_a_fifo_in_the_folder_is_skipped_and_does_not_hang(tree, tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(tree, root)
    os.mkfifo(root / "servers" / "pipe.json")
    os.mkfifo(root / "servers" / "pipe.jsonl")
    serial = _check(root, "1", "-v", "--format", "json")
    pooled = _check(root, "2", "--format", "json")
    assert "pipe.json: a named pipe" in serial[2]
    assert pooled[:2] == serial[:2]


# -- when the pool is (not) used ----------------------------------------------------------

def _targets(paths, explicit=True):
    return [discovery.Target(str(p), explicit) for p in paths]


@pytest.fixture
def two_jobs(monkeypatch):
    monkeypatch.setenv("MCPLINT_JOBS", "2")


def test_few_small_files_stay_serial(tmp_path, two_jobs):
    files = []
    for i in range(parallel.MIN_FILES):
        files.append(tmp_path / f"{i}.json")
        files[-1].write_text("{}")
    assert parallel.plan_pool(_targets(files)) is None
    files.append(tmp_path / "one-more.json")
    files[-1].write_text("{}")
    assert parallel.plan_pool(_targets(files)) is not None


def test_big_files_use_the_pool_even_when_few(tmp_path, two_jobs):
    files = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    for path in files:
        with open(path, "wb") as out:
            out.truncate(parallel.MIN_BYTES // 2 + 1)
    workers, batches = parallel.plan_pool(_targets(files))
    assert workers == 2 and sorted(b.start for b in batches) == [0, 1]


def test_stdin_and_pipes_stay_serial(tmp_path, two_jobs):
    files = [tmp_path / f"{i}.json" for i in range(80)]
    for path in files:
        path.write_text("{}")
    assert parallel.plan_pool(_targets(files) + [discovery.Target(discovery.STDIN, True)]) is None
    os.mkfifo(tmp_path / "pipe.json")
    assert parallel.plan_pool(_targets([*files, tmp_path / "pipe.json"])) is None
    # a missing file is no reason to stay serial: the loader reports it in the worker
    assert parallel.plan_pool(_targets([*files, tmp_path / "missing.json"])) is not None


def test_mcplint_jobs_1_forces_serial(tmp_path, monkeypatch):
    files = [tmp_path / f"{i}.json" for i in range(80)]
    for path in files:
        path.write_text("{}")
    monkeypatch.setenv("MCPLINT_JOBS", "1")
    assert parallel.plan_pool(_targets(files)) is None
    monkeypatch.setenv("MCPLINT_JOBS", "lots")
    assert parallel.jobs() >= 1


def test_batches_cover_every_target_once_biggest_first():
    sizes = [10] * 100 + [10_000] + [10] * 30
    batches = parallel._batches(sizes, 2)
    covered = sorted(i for batch in batches for i in batch)
    assert covered == list(range(len(sizes)))
    assert all(len(batch) <= parallel.BATCH_FILES for batch in batches)
    assert any(list(batch) == [100] for batch in batches)  # the big file alone


def _die_on_first_batch(start, stop):
    if start == 0:
        os._exit(1)  # a worker killed (out of memory, a signal)
    return _real_lint_batch(start, stop)


_real_lint_batch = parallel._lint_batch


def test_a_dead_worker_falls_back_to_serial(tree, monkeypatch):
    monkeypatch.chdir(tree)
    monkeypatch.setenv("MCPLINT_JOBS", "2")
    cfg = config.load(tree / ".mcplint.yaml")
    targets = discovery.collect(["servers"], cfg)
    serial = engine.run(targets, engine.Plan.build(cfg))
    monkeypatch.setattr(parallel, "_lint_batch", _die_on_first_batch)
    pooled = parallel.run(targets, engine.Plan.build(cfg))
    assert pooled.findings == serial.findings
    assert (pooled.files, pooled.skipped, pooled.errors, pooled.sources.keys()) == (
        serial.files, serial.skipped, serial.errors, serial.sources.keys())


def _raise_in_worker(start, stop):
    raise ValueError("a rule's bug")


def test_an_exception_in_a_worker_reaches_the_caller_and_stops_the_pool(tree, monkeypatch):
    monkeypatch.chdir(tree)
    monkeypatch.setenv("MCPLINT_JOBS", "2")
    cfg = config.load(tree / ".mcplint.yaml")
    targets = discovery.collect(["servers"], cfg)
    monkeypatch.setattr(parallel, "_lint_batch", _raise_in_worker)
    with pytest.raises(ValueError, match="a rule's bug"):
        parallel.run(targets, engine.Plan.build(cfg))
