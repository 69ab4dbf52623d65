"""mcplint.regex_cache: a pattern from the cache is the pattern re.compile gives, and a cache that
is missing, foreign or damaged only makes mcplint compile afresh."""

from __future__ import annotations

import marshal
import re

import pytest

from mcplint import regex_cache

SOURCES = [(r"(?P<word>\w+)\s+(\d+)", 0), (r"^\s*#.*$", re.M), ("caf\u00e9|na\u00efve", re.I), (rb"[\x80-\xff]", 0),
           (r"(?x) a  b  # spaced\n c", 0), (r"\bfoo(?=bar)|(?<!x)baz", re.I | re.S)]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The cache in a file of its own, empty, with saving allowed."""
    path = tmp_path / "__pycache__" / "mcplint-regex.test.marshal"
    monkeypatch.setattr(regex_cache, "_FILE", str(path))
    monkeypatch.setattr(regex_cache, "_table", None)
    monkeypatch.setattr(regex_cache, "_new", {})
    monkeypatch.setattr(regex_cache.sys, "dont_write_bytecode", False)
    monkeypatch.setattr(regex_cache.atexit, "register", lambda function: None)  # saved by hand below
    return path


def reload(monkeypatch) -> None:
    monkeypatch.setattr(regex_cache, "_table", None)
    monkeypatch.setattr(regex_cache, "_new", {})


def test_a_pattern_from_the_cache_is_the_one_re_compile_gives(cache, monkeypatch):
    fresh = [regex_cache.regex(source, flags) for source, flags in SOURCES]
    regex_cache._save()
    assert cache.is_file()
    reload(monkeypatch)
    monkeypatch.setattr(regex_cache, "_program", lambda *args: pytest.fail("compiled again"))
    for (source, flags), first in zip(SOURCES, fresh):
        cached = regex_cache.regex(source, flags)
        assert cached == first == re.compile(source, flags)
        assert (cached.groupindex, cached.groups, cached.flags) == (first.groupindex, first.groups, first.flags)
    assert regex_cache.regex(r"(?P<word>\w+)\s+(\d+)").match("abc 12").group("word", 2) == ("abc", "12")


def test_the_cache_is_read_in_one_piece(cache, monkeypatch):
    """marshal.load on a file object reads it object by object through Python calls: ~40 ms a run
    for mcplint's 170 patterns, a fifth of a small check. One read is 2 ms."""
    for source, flags in SOURCES:
        regex_cache.regex(source, flags)
    regex_cache._save()
    reload(monkeypatch)
    reads = []

    class Counted:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def read(self, *args):
            reads.append("read")
            return self.handle.read(*args)

        def readinto(self, buffer):
            reads.append("readinto")
            return self.handle.readinto(buffer)

    real_open = open
    monkeypatch.setattr(regex_cache, "open", lambda *args, **kwargs: Counted(real_open(*args, **kwargs)), raising=False)
    assert len(regex_cache._cached()) == len(SOURCES)
    assert reads == ["read"]


@pytest.mark.parametrize("content", [
    b"", b"not marshal at all", marshal.dumps([1, 2, 3]), marshal.dumps({("a+", 0): "oops"}),
    # a program _sre.compile refuses, under a real key
    marshal.dumps({(r"(?P<word>\w+)\s+(\d+)", 0): (32, [1, 2, 3], 2, {"word": 1}, (None, "word", None))}),
])
def test_a_damaged_cache_only_means_compiling_afresh(cache, monkeypatch, content):
    cache.parent.mkdir(parents=True)
    cache.write_bytes(content)
    for source, flags in SOURCES:
        assert regex_cache.regex(source, flags) == re.compile(source, flags)


def test_nothing_is_written_when_bytecode_writing_is_off(cache, monkeypatch):
    monkeypatch.setattr(regex_cache.sys, "dont_write_bytecode", True)
    regex_cache.regex(r"x+y", 0)
    regex_cache._save()
    assert not cache.exists()


def test_a_folder_that_cannot_be_written_is_no_error(cache, monkeypatch, tmp_path):
    (tmp_path / "a-file").write_text("")  # (tests may run as root, whom permissions do not stop)
    monkeypatch.setattr(regex_cache, "_FILE", str(tmp_path / "a-file" / "__pycache__" / "cache.marshal"))
    regex_cache.regex(r"x+y", 0)
    regex_cache._save()  # no exception, nothing left behind
    assert [p.name for p in tmp_path.iterdir()] == ["a-file"]


_RECORD = """
import json, sys
from mcplint import regex_cache
regex_cache._FILE = sys.argv[1]  # no cache: every pattern is compiled and recorded
sys.argv = ["mcplint", "check", "--format", "json", *sys.argv[2:]]
from mcplint.entry import main
try:
    main()
finally:
    print(json.dumps(sorted(repr(key) for key in regex_cache._new)), file=sys.stderr)
"""


def test_the_patterns_are_the_same_on_every_run(tmp_path):
    """A pattern joined from a set in hash order would be new on every run: compiled every time
    and added to the cache file until it overflows."""
    import json
    import subprocess
    import sys

    from conftest import FIXTURES

    inputs = [*map(str, sorted((FIXTURES / "manifests").glob("*.json"))),
              *map(str, sorted((FIXTURES / "captures").glob("*.jsonl"))[:6])]
    runs = []
    for seed in ("1", "2"):
        proc = subprocess.run([sys.executable, "-c", _RECORD, str(tmp_path / "none" / "cache"), *inputs],
                              capture_output=True, text=True, timeout=120,
                              env={**__import__("os").environ, "PYTHONHASHSEED": seed})
        runs.append(set(json.loads(proc.stderr.strip().splitlines()[-1])))
    assert len(runs[0]) > 50
    assert runs[0] == runs[1], sorted(runs[0] ^ runs[1])[:3]
