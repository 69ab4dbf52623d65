"""mcplint writes its reports, lock files, baselines and recordings only as regular files: a
cloned repository's planted symlink (`mcplint.lock -> ~/.bashrc`) is refused, not followed, and
a named pipe nobody reads is refused at once (attack round 4: the write followed the link and
overwrote the file; `-o fifo` waited forever). Links to terminals and pipes still work."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT
from conftest import run_mcplint as run_bytes

MANIFEST = {"tools": [{"name": "get_weather", "description": "Get the weather for a city.",
                       "inputSchema": {"type": "object"}}]}


def run_mcplint(*args, cwd):
    proc = run_bytes(*args, cwd=cwd)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def _repo(tmp_path):
    (tmp_path / "m.json").write_text(json.dumps(MANIFEST))
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    return victim


def _refused(proc, name: str, what: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert f"{name}: is a symbolic link" in proc.stderr and f"writes its {what} only to a regular file" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_lock_file_link_is_refused(tmp_path):
    victim = _repo(tmp_path)
    (tmp_path / "mcplint.lock").symlink_to(victim)
    _refused(run_mcplint("lock", "m.json", cwd=tmp_path), "mcplint.lock", "lock file")
    assert victim.read_text() == "keep me\n"


def test_report_baseline_and_dangling_links_are_refused(tmp_path):
    victim = _repo(tmp_path)
    (tmp_path / "report.json").symlink_to(victim)
    _refused(run_mcplint("check", "m.json", "-f", "json", "-o", "report.json", cwd=tmp_path), "report.json", "report")
    (tmp_path / "base.json").symlink_to(victim)
    _refused(run_mcplint("check", "m.json", "--write-baseline", "base.json", cwd=tmp_path), "base.json", "baseline")
    (tmp_path / "out.sarif").symlink_to(tmp_path / "created-by-the-link")
    _refused(run_mcplint("check", "m.json", "--sarif-output", "out.sarif", cwd=tmp_path), "out.sarif", "report")
    assert victim.read_text() == "keep me\n" and not (tmp_path / "created-by-the-link").exists()


def test_a_named_pipe_nobody_reads_is_refused_at_once(tmp_path):
    _repo(tmp_path)
    os.mkfifo(tmp_path / "pipe")
    proc = run_mcplint("check", "m.json", "-o", "pipe", cwd=tmp_path)  # run_mcplint has a timeout
    assert proc.returncode == 2 and "pipe: cannot write report: a named pipe that nobody reads" in proc.stderr


def test_links_to_standard_output_and_pipes_are_written(tmp_path):
    _repo(tmp_path)
    proc = run_mcplint("check", "m.json", "-f", "json", "-o", "/dev/stdout", cwd=tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["findings"] == []
    reader, writer = os.pipe()  # what bash's `-o >(cat)` passes: /dev/fd/N, a link to a pipe
    done = subprocess.run([sys.executable, "-m", "mcplint", "check", "m.json", "-f", "json", "-o", f"/dev/fd/{writer}"],
                          cwd=tmp_path, pass_fds=(writer,), capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(writer)
    with os.fdopen(reader) as piped:
        assert json.loads(piped.read())["findings"] == [], done.stderr
    assert done.returncode == 0, done.stderr
    plain = tmp_path / "report.json"
    assert run_mcplint("check", "m.json", "-f", "json", "-o", str(plain), cwd=tmp_path).returncode == 0
    assert json.loads(plain.read_text())["findings"] == []
