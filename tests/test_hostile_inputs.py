"""Hostile files, paths, configs, baselines and lock files: every input ends in a report or
a one-line error (exit 2), never an internal error, a traceback or a hang.

One explicit test per case seen in the wild, then hypothesis fuzz tests of the loaders
and of the whole `check` path in-process (the property: a result, or the project's
one-line MCPLintError, never another exception). Cases that could hang run in a
subprocess under a timeout, so a regression fails instead of blocking the suite.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT
from mcplint import baseline, config, discovery, globs, pinning
from mcplint.commands.check import run_check
from mcplint.document.loader import load_document
from mcplint.errors import MCPLintError

GOOD = {"tools": [{"name": "get_forecast", "description": "Get the weather forecast for a city.",
                   "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}
BIG, HUGE_FLOAT = "<big-integer>", "<huge-float>"  # placeholders that dump() writes as numbers


# -- helpers ------------------------------------------------------------------------------

@pytest.fixture
def cli(monkeypatch, capsys, tmp_path):
    """Run the real entry point (`mcplint.entry.main`) in-process, in ``tmp_path``."""
    from mcplint import entry

    monkeypatch.chdir(tmp_path)

    def run(*args: str):
        monkeypatch.setattr(sys, "argv", ["mcplint", *args])
        with pytest.raises(SystemExit) as stopped:
            entry.main()
        out, err = capsys.readouterr()
        assert "Traceback" not in err and "internal error" not in err, err
        return stopped.value.code or 0, out, err

    return run


def one_line_error(result, *fragments: str) -> str:
    code, _, err = result
    lines = err.strip().splitlines()
    assert code == 2, (code, err)
    assert len(lines) == 1 and lines[0].startswith("mcplint: error: "), err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def error_lines(result) -> list[str]:
    return [line for line in result[2].splitlines() if line.startswith("mcplint: error: ")]


def subprocess_mcplint(*args: str, cwd: Path, timeout: float = 30):
    """For cases that used to hang: a subprocess, so a regression times out and fails."""
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "mcplint", *args], cwd=cwd, capture_output=True,
                          timeout=timeout, env=env)


def manifest_with(value_text: str) -> str:
    """GOOD with ``value_text`` (raw JSON) as the city parameter's maximum."""
    text = json.dumps(GOOD)
    return text.replace('{"type": "string"}', '{"type": "string", "maximum": ' + value_text + "}")


# -- numbers and strings JSON cannot carry ------------------------------------------------

def test_lone_surrogate_in_a_json_name_is_a_one_line_error(cli, tmp_path):
    (tmp_path / "tools.json").write_text('{"tools": [{"name": "get\\udfff", "inputSchema": {"type": "object"}}]}')
    one_line_error(cli("check", "tools.json"), "tools.json:1:25:", "lone UTF-16 surrogate (\\udfff)")


def test_lone_surrogate_in_a_yaml_name_is_a_one_line_error(cli, tmp_path):
    (tmp_path / "tools.yaml").write_text('tools:\n  - name: "get\\udfff"\n    inputSchema: {type: object}\n')
    one_line_error(cli("check", "tools.yaml"), "tools.yaml:2:11:", "lone UTF-16 surrogate")


def test_escaped_surrogate_pairs_are_characters(cli, tmp_path):
    (tmp_path / "a.json").write_text('{"tools": [{"name": "get\\ud83d\\ude00", "inputSchema": {"type": "object"}}]}')
    (tmp_path / "b.yaml").write_text('tools:\n  - name: "get\\ud83d\\ude00"\n    inputSchema: {type: object}\n')
    (tmp_path / "c.json").write_text('{"tools": [{"name": "get\\\\udfff", "inputSchema": {"type": "object"}}]}')
    code, out, err = cli("check", "a.json", "b.yaml", "c.json", "--format", "json")
    assert code in (0, 1) and not error_lines((code, out, err)), err
    assert json.loads(out)["summary"]["files"] == 3
    assert load_document(str(tmp_path / "b.yaml")).data["tools"][0]["name"] == "get\U0001F600"


def test_integer_over_4300_digits_is_not_called_invalid_json(cli, tmp_path):
    (tmp_path / "big.json").write_text(manifest_with("9" * 5000))
    line = one_line_error(cli("check", "big.json"), "big.json:1:", "integer with 5,000 digits is too long")
    assert "invalid JSON" not in line


@pytest.mark.parametrize("value", ["9" * 5000, "0x" + "f" * 4000])
def test_integer_over_4300_digits_in_yaml(cli, tmp_path, value):
    (tmp_path / "big.yaml").write_text(f"tools:\n  - name: a\n    inputSchema: {{type: object, maximum: {value}}}\n")
    one_line_error(cli("check", "big.yaml"), "big.yaml:3:42:", "too long")


@pytest.mark.parametrize("name,text,fragment", [
    ("e.json", manifest_with("1e999"), "1e999 is too large for a 64-bit float"),
    ("n.json", manifest_with("-Infinity"), "-Infinity is not valid JSON"),
    ("i.yaml", "tools:\n  - name: a\n    inputSchema: {type: object, maximum: .inf}\n", ".inf is not a JSON number"),
    ("n.yaml", "tools:\n  - name: a\n    inputSchema: {type: object, maximum: .NaN}\n", ".NaN is not a JSON number"),
])
def test_non_finite_numbers_name_their_position(cli, tmp_path, name, text, fragment):
    (tmp_path / name).write_text(text)
    line = one_line_error(cli("check", name), fragment)
    assert re.match(rf"mcplint: error: {re.escape(name)}:\d+:\d+: ", line), line


@pytest.mark.parametrize("config_file", [False, True])
def test_deep_yaml_block_nesting_is_a_one_line_error(cli, tmp_path, config_file):
    (tmp_path / "tools.json").write_text(json.dumps(GOOD))
    (tmp_path / ("c.yaml" if config_file else "deep.yaml")).write_text("- " * 100_000 + "1\n")
    args = ("tools.json", "--config", "c.yaml") if config_file else ("deep.yaml",)
    one_line_error(cli("check", *args), "c.yaml" if config_file else "deep.yaml", "nested too deeply")


# -- the lock file ------------------------------------------------------------------------

def test_lock_never_writes_infinity(cli, tmp_path):
    (tmp_path / "inf.yaml").write_text("tools:\n  - name: a\n    inputSchema: {type: object, maximum: .inf}\n")
    code, _, err = cli("lock", "inf.yaml", "-o", "tools.lock")
    assert code == 2 and "inf.yaml:3:42: .inf is not a JSON number" in err
    assert not (tmp_path / "tools.lock").exists()
    lock = pinning.Lock("x.lock", {"m.json": {"a": pinning.Pinned("0", {"maximum": float("inf")})}})
    with pytest.raises(MCPLintError, match="x.lock: lock not written"):
        pinning.dumps(lock)


@pytest.mark.parametrize("text,fragment", [
    ('{"lockfileVersion": 1, "manifests": {}, "x": NaN}', "tools.lock:1:46: invalid JSON: NaN is not valid JSON"),
    ('{"lockfileVersion": 1, "manifests": {}, "x": ' + "7" * 5000 + "}", "tools.lock:1:46: integer with 5,000 digits"),
    ('{"lockfileVersion": 1, "manifests": {"\\udfff": {}}}', "tools.lock:1:39: string holds a lone UTF-16 surrogate"),
    ("[" * 100_000 + "]" * 100_000, "tools.lock:1:501: document is nested too deeply (over 500 levels)"),
    ('{"lockfileVersion": true, "manifests": {}}', "lockfileVersion true is not 1"),
    ('{"lockfileVersion": "' + "v" * 10_000 + '", "manifests": {}}', 'lockfileVersion "vvvvvvvvv'),
    ('{"lockfileVersion": 1, "manifests": {"a\\nb": 5}}', 'manifests."a\\nb".tools is not an object'),
])
def test_a_hostile_lock_file_is_a_one_line_error(cli, tmp_path, text, fragment):
    (tmp_path / "tools.json").write_text(json.dumps(GOOD))
    (tmp_path / "tools.lock").write_text(text)
    line = one_line_error(cli("check", "tools.json", "--lock", "tools.lock"), fragment)
    assert len(line) < 300


# -- paths and walks ----------------------------------------------------------------------

def test_self_symlinks_and_loops_are_skipped_while_walking(cli, tmp_path):
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / "good.json").write_text(json.dumps(GOOD))
    (folder / "self.json").symlink_to("self.json")
    (folder / "a.yaml").symlink_to("b.yaml")
    (folder / "b.yaml").symlink_to("a.yaml")
    (folder / "up").symlink_to(".")
    code, out, err = cli("check", "repo", "-v", "--format", "json")
    assert code == 0 and json.loads(out)["summary"]["files"] == 1, err
    assert "skipped repo/self.json: symlink loop" in err and "skipped repo/a.yaml: symlink loop" in err


def test_a_walk_does_not_follow_symlinks_out_of_the_folder(cli, tmp_path):
    """A planted `leak.json -> ~/.aws/credentials` must not be read: only what the user named is."""
    outside = {"tools": [{**GOOD["tools"][0], "name": "GetForecast"}]}
    (tmp_path / "outside.json").write_text(json.dumps(outside))
    folder = tmp_path / "repo"
    (folder / "sub").mkdir(parents=True)
    (folder / "good.json").write_text(json.dumps(GOOD))
    (folder / "leak.json").symlink_to(tmp_path / "outside.json")
    (folder / "sub" / "up.json").symlink_to("../../outside.json")
    (folder / "sub" / "same.json").symlink_to("../good.json")  # inside: read
    code, out, err = cli("check", "repo", "-v", "--format", "json")
    assert code == 0 and json.loads(out)["summary"]["files"] == 2, err
    assert "skipped repo/leak.json: a symlink to a file outside the folder, not followed" in err
    assert "skipped repo/sub/up.json: a symlink to a file outside the folder" in err
    named = json.loads(cli("check", "repo/leak.json", "--format", "json")[1])  # named: read
    assert named["summary"]["files"] == 1 and named["findings"]


def test_a_named_symlink_loop_is_an_error_for_it_and_the_run_goes_on(cli, tmp_path):
    (tmp_path / "good.json").write_text(json.dumps(GOOD))
    (tmp_path / "self.json").symlink_to("self.json")
    result = cli("check", "self.json", "missing.json", "good.json", "--format", "json")
    assert result[0] == 2
    assert error_lines(result) == ["mcplint: error: self.json: cannot read: symlink loop",
                                   "mcplint: error: missing.json: no such file or directory"]
    assert json.loads(result[1])["summary"]["files"] == 1  # good.json is still reported
    assert cli("check", "--skip-non-manifests", "self.json", "good.json", "--format", "json")[0] == 0


def test_over_long_paths_do_not_abort_the_run(cli, tmp_path):
    (tmp_path / "good.json").write_text(json.dumps(GOOD))
    result = cli("check", "x" * 300 + ".json", "good.json", "--format", "json")
    assert error_lines(result) == [f"mcplint: error: {'x' * 300}.json: cannot read: path too long"]
    assert json.loads(result[1])["summary"]["files"] == 1
    # a tree deeper than PATH_MAX (4096): the walk skips what it cannot name
    deep = tmp_path / "deep"
    deep.mkdir()
    handle = os.open(deep, os.O_RDONLY)
    for _ in range(25):
        os.mkdir("d" * 200, dir_fd=handle)
        handle, old = os.open("d" * 200, os.O_RDONLY, dir_fd=handle), handle
        os.close(old)
    os.close(os.open("x.json", os.O_WRONLY | os.O_CREAT, dir_fd=handle))
    os.close(handle)
    (deep / "good.json").write_text(json.dumps(GOOD))
    code, out, err = cli("check", "deep", "-v", "--format", "json")
    assert code == 0 and json.loads(out)["summary"]["files"] == 1
    assert "cannot read folder: path too long" in err


def test_fifos_sockets_and_devices_named_json_are_skipped_without_opening(tmp_path):
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / "good.json").write_text(json.dumps(GOOD))
    os.mkfifo(folder / "pipe.json")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(folder / "sock.yaml"))
    (folder / "null.json").symlink_to("/dev/null")
    try:
        proc = subprocess_mcplint("check", "repo", "-v", "--format", "json", cwd=tmp_path, timeout=30)
    finally:
        server.close()
    err = proc.stderr.decode()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert json.loads(proc.stdout)["summary"]["files"] == 1
    assert "skipped repo/pipe.json: a named pipe (FIFO), not a regular file" in err
    assert "skipped repo/sock.yaml: a socket, not a regular file" in err
    assert "skipped repo/null.json: a character device, not a regular file" in err


def test_an_unreadable_file_among_good_ones(cli, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    (tmp_path / "good.json").write_text(json.dumps(GOOD))
    (tmp_path / "secret.json").write_text(json.dumps(GOOD))
    (tmp_path / "secret.json").chmod(0)
    result = cli("check", "secret.json", "good.json", "--format", "json")
    assert error_lines(result) == ["mcplint: error: secret.json: cannot read: Permission denied"]


def test_a_listing_of_more_values_than_the_limit_is_refused_before_linting(cli, tmp_path):
    """Three bytes a value: 1.5 MB of empty tools became 1.5 GB of facts and findings (6 million
    of them in a 20 MiB file: several gigabytes). Past MAX_VALUES the listing is refused."""
    from mcplint.document.value_count import MAX_VALUES

    (tmp_path / "empty-tools.json").write_text('{"tools": [' + ",".join(["{}"] * MAX_VALUES) + "]}")
    started = time.monotonic()
    one_line_error(cli("check", "empty-tools.json"), "empty-tools.json: holds more than 500,000 values")
    assert time.monotonic() - started < 20
    (tmp_path / "fewer.json").write_text('{"tools": [' + ",".join(["{}"] * 1000) + "]}")
    assert cli("check", "fewer.json", "--format", "json")[0] == 1  # linted: tools without names


# -- config ---------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["-1", "0", "100000000000", "true", "'20'", "1.5", ".inf", "[20]"])
def test_absurd_max_file_size_is_a_one_line_error(cli, tmp_path, value):
    (tmp_path / "tools.json").write_text(json.dumps(GOOD))
    (tmp_path / ".mcplint.yaml").write_text(f"max-file-size-mb: {value}\n")
    one_line_error(cli("check", "tools.json"), ".mcplint.yaml")


@pytest.mark.parametrize("setting,fragment", [
    ("exclude: ['']", "exclude: an empty pattern matches nothing"),
    ("include: ['" + "a" * 1001 + "']", "include: pattern 'aaaa"),
    ("include: [1]", "include.0: Input should be a valid string"),
    ("select: MCP1", "select: Input should be a valid list"),
    ("per-file-ignores: {'': [MCP101]}", "per-file-ignores: an empty pattern"),
    ('"' + "k\\n" * 100 + '": 1', "unknown setting"),
])
def test_wrong_config_values_are_one_line_errors(cli, tmp_path, setting, fragment):
    (tmp_path / "tools.json").write_text(json.dumps(GOOD))
    (tmp_path / ".mcplint.yaml").write_text(setting + "\n")
    assert len(one_line_error(cli("check", "tools.json"), fragment)) < 200


@pytest.mark.parametrize("toml,fragment", [
    ("tool = 1\n", None),
    ("[tool.mcplint]\nx = " + "[" * 5000 + "]" * 5000 + "\n", "invalid TOML: nested too deeply"),
    ("[tool.mcplint]\nmax-file-size-mb = " + "9" * 5000 + "\n", "invalid TOML: Exceeds the limit (4300 digits)"),
    ("[tool.mcplint]\nmax-file-size-mb = inf\n", "max-file-size-mb: inf is not a whole number"),
])
def test_hostile_pyproject(cli, tmp_path, toml, fragment):
    (tmp_path / "tools.json").write_text(json.dumps(GOOD))
    (tmp_path / "pyproject.toml").write_text(toml)
    result = cli("check", "tools.json", "--config", "pyproject.toml", "--format", "json")
    if fragment is None:
        assert result[0] == 0
    else:
        one_line_error(result, fragment)


def test_a_glob_of_twelve_double_stars_does_not_hang_the_walk(tmp_path):
    deep = tmp_path.joinpath(*["a"] * 40)
    deep.mkdir(parents=True)
    for depth in (5, 20, 40):
        tmp_path.joinpath(*["a"] * depth, f"m{depth}.json").write_text(json.dumps(GOOD))
    (tmp_path / ".mcplint.yaml").write_text("exclude: ['" + "**/" * 12 + "*.yaml']\ninclude: ['" + "**/a" * 12 + "/**']\n")
    started = time.monotonic()
    proc = subprocess_mcplint("check", ".", "--format", "json", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout)["summary"]["files"] == 2  # m20 and m40 are 12+ folders down
    assert time.monotonic() - started < 30


def _regex_glob(pattern: str) -> re.Pattern:
    """The earlier regex translation: the oracle for short inputs (it backtracks on long ones)."""
    if "/" not in pattern.rstrip("/"):
        pattern = "**/" + pattern
    out, i = [], 0
    while i < len(pattern):
        for token, regex in (("**/", "(?:.*/)?"), ("**", ".*"), ("*", "[^/]*"), ("?", "[^/]")):
            if pattern.startswith(token, i):
                out.append(regex)
                i += len(token)
                break
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + "(?:/.*)?$")


@settings(max_examples=400, deadline=None, database=None)
@given(st.text("ab*?/.", max_size=9), st.text("ab/.", max_size=10))
def test_globs_match_what_the_regex_translation_matched(pattern, path):
    assert bool(globs.glob_to_regex(pattern).match(path)) == bool(_regex_glob(pattern).match(path))


def test_glob_matching_is_linear_in_the_path():
    path = "/".join(["a"] * 5000) + "/x.json"
    for pattern in ("**/" * 12 + "*.yaml", "**" * 12 + "x" + "*a" * 30 + "b", "*a" * 50 + "/**/" * 20 + "z"):
        started = time.monotonic()
        assert not globs.glob_to_regex(pattern).match(path)
        assert time.monotonic() - started < 2, pattern


# -- baselines ------------------------------------------------------------------------------

@pytest.mark.parametrize("text,fragment", [
    ("[" * 100_000 + "]" * 100_000, "b.json:1:501: document is nested too deeply (over 500 levels)"),
    ('{"version": 1, "findings": [], "x": ' + "1" * 5000 + "}", "b.json:1:37: integer with 5,000 digits"),
    ('{"version": NaN, "findings": []}', "b.json:1:13: invalid JSON: NaN is not valid JSON"),
    ('{"version": 1, "findings": [{"rule": "\\udfff", "path": "a", "fingerprint": "f"}]}', "lone UTF-16 surrogate"),
    ('{"version": 1.0, "findings": []}', "baseline version 1.0 is not supported"),
    ('{"version": "' + "9" * 1000 + '", "findings": []}', 'baseline version "999'),
])
def test_a_hostile_baseline_is_a_one_line_error(cli, tmp_path, text, fragment):
    (tmp_path / "tools.json").write_text(json.dumps(GOOD))
    (tmp_path / "b.json").write_text(text)
    assert len(one_line_error(cli("check", "tools.json", "--baseline", "b.json"), fragment)) < 200


def test_baseline_entries_with_impossible_paths_are_stale_not_a_crash(cli, tmp_path):
    (tmp_path / "tools.json").write_text(json.dumps(GOOD))
    entries = [{"rule": "MCP1", "path": path, "fingerprint": "f"} for path in ("a\u0000b", "x" * 5000)]
    (tmp_path / "b.json").write_text(json.dumps({"version": 1, "findings": entries}))
    code, _, err = cli("check", "tools.json", "--baseline", "b.json", "--format", "json")
    assert code == 0 and "2 baseline entries no longer match" in err


# -- fuzzing ----------------------------------------------------------------------------------

FUZZ = settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))

json_scalars = (
    st.none() | st.booleans() | st.floats(allow_nan=True, allow_infinity=True)
    | st.integers() | st.text(max_size=20)
    | st.sampled_from(["\ud800", "\udfff", "a\ud83dz", "\ud83d\ude00", "x" * 5000, BIG, HUGE_FLOAT])
)
json_values = st.recursive(
    json_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=25,
)
# for documents that should load, so the rules get to run: no values a loader must refuse
plain_scalars = st.none() | st.booleans() | st.floats(allow_nan=False, allow_infinity=False) | st.integers() \
    | st.text(max_size=20) | st.sampled_from(["string", "object", "array", "integer", "#/x", "x" * 5000])
plain_values = st.recursive(
    plain_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "properties", "items", "$ref", "enum", "required", "pattern", "name", "x"])
        | st.text(max_size=6), inner, max_size=4),
    max_leaves=25,
)


def nested(depth: int, leaf: str = "1") -> str:
    return "[" * depth + leaf + "]" * depth


def dump(value) -> str:
    """JSON text, with lone surrogates as \\udxxx escapes and the BIG and HUGE_FLOAT
    placeholders as numbers (hypothesis cannot print integers over 4,300 digits itself)."""
    text = json.dumps(value, ensure_ascii=True)
    return text.replace(f'"{BIG}"', "-" + "9" * 4400).replace(f'"{HUGE_FLOAT}"', "1e999")


def loads_or_input_error(load, *args):
    try:
        return load(*args)
    except MCPLintError as err:
        assert "\n" not in str(err) and str(err).strip(), repr(err)
        return None


@FUZZ
@given(st.binary(max_size=300), st.sampled_from(["x.json", "x.yaml", "x.yml", "x"]))
def test_fuzz_random_bytes_load_or_fail_in_one_line(raw, name):
    loads_or_input_error(load_document, name, raw)


@FUZZ
@given(json_values | st.integers(1, 3000).map(lambda d: json.loads(nested(min(d, 900)))),
       st.sampled_from(["x.json", "x.yaml"]))
def test_fuzz_random_json_values_load_or_fail_in_one_line(value, name):
    text = dump(value)
    loads_or_input_error(load_document, name, text.encode("utf-8", "surrogatepass"))


@FUZZ
@given(st.integers(990, 200_000), st.sampled_from(["[", "{\"a\":", "- ", "{a: "]), st.sampled_from(["x.json", "x.yaml"]))
def test_fuzz_deep_nesting_never_escapes_as_recursion_error(depth, opener, name):
    closer = {"[": "]", "{\"a\":": "}", "- ": "", "{a: ": "}"}[opener]
    text = opener * depth + "1" + closer * depth
    loads_or_input_error(load_document, name, text.encode())


yamlish = st.lists(st.sampled_from(list("ab:-[]{}&*!|>'\"#%@`?,.\\ \n\t0123456789eE+") + ["\\u", "<<", "~", "---"]),
                   max_size=80).map("".join)


@FUZZ
@given(yamlish)
def test_fuzz_yamlish_text_loads_or_fails_in_one_line(text):
    loads_or_input_error(load_document, "x.yaml", text.encode())


config_values = st.sampled_from([
    -1, 0, 1, 20, 1024, 1025, 10 ** 30, 1.5, float("inf"), True, None, "", "x", "**/" * 12, "[", [], ["**/*.json"],
    [""], [1], {}, {"MCP101": "off"}, {"MCP101": "nope"}, {"x": {"y": 1}}, {"**/*.json": ["MCP101"]},
    {"a#/tools": ["ALL"]}, "2025-06-18", "1999-01-01",
]) | json_values
config_keys = st.sampled_from([
    "select", "extend-select", "ignore", "severity", "per-file-ignores", "options", "protocol-version",
    "fail-on", "include", "exclude", "max-file-size-mb", "unknown",
])


@FUZZ
@given(st.dictionaries(config_keys, config_values, max_size=4) | json_values)
def test_fuzz_random_configs_load_or_fail_in_one_line(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("cfg") / ".mcplint.yaml"
    path.write_bytes(dump(raw).encode("utf-8", "surrogatepass"))
    cfg = loads_or_input_error(config.load, path)
    if cfg is not None:
        from mcplint import engine

        loads_or_input_error(engine.Plan.build, cfg)
        for pattern in cfg.include + cfg.exclude:
            globs.glob_to_regex(pattern).match("a/b/c.json")


entry = st.fixed_dictionaries({"rule": st.text(max_size=6), "path": st.text(max_size=6), "fingerprint": st.text(max_size=6)})
baselines = st.fixed_dictionaries({"version": st.sampled_from([1, 1.0, True, "1", None]),
                                   "findings": st.lists(entry | json_values, max_size=3)}) | json_values


@FUZZ
@given(baselines)
def test_fuzz_random_baselines_load_or_fail_in_one_line(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("base") / "b.json"
    path.write_bytes(dump(value).encode())
    loads_or_input_error(baseline.load, path)


locks = st.fixed_dictionaries({
    "lockfileVersion": st.sampled_from([1, True, 1.0, "1"]),
    "manifests": st.dictionaries(st.text(max_size=5), st.fixed_dictionaries({
        "tools": st.dictionaries(st.text(max_size=5), st.fixed_dictionaries(
            {"definition": json_values, "sha256": st.text(max_size=4)}) | json_values)}) | json_values),
}) | json_values


@FUZZ
@given(locks)
def test_fuzz_random_lock_files_load_or_fail_in_one_line(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("lock") / "x.lock"
    path.write_bytes(dump(value).encode())
    loads_or_input_error(pinning.load, path)


tool_fields = st.fixed_dictionaries({}, optional={
    "name": st.sampled_from(["get_x", "Get X", "", "x" * 300, "a\ud800"]) | plain_scalars,
    "description": st.text(max_size=30) | plain_scalars,
    "title": plain_scalars,
    "inputSchema": plain_values | st.fixed_dictionaries({"type": st.just("object")}, optional={
        "properties": st.dictionaries(st.text(max_size=5), plain_values, max_size=3),
        "required": plain_values}),
    "annotations": plain_values,
    "outputSchema": plain_values,
})
manifests = (st.fixed_dictionaries({"tools": st.lists(tool_fields | plain_values, max_size=3)})
             | st.lists(tool_fields, min_size=1, max_size=3) | tool_fields)


SEED = json.dumps({"tools": [
    {"name": "get_forecast", "name": "Get Forecast!", "description": "🌤 forecast <b>now</b>",
     "inputSchema": {"type": "object", "properties": {"city": {"type": "strin", "maximum": 1e308},
                     "days": {"type": "integer", "minimum": 10, "maximum": 1}}, "required": ["zip"]},
     "annotations": {"readOnlyHint": "yes", "destructiveHint": True}},
    {"name": "get_forecast", "inputSchema": {"$ref": "#/nowhere", "pattern": "(a+)+$"}}]}, indent=1)
mutations = st.lists(st.tuples(st.integers(0, len(SEED)), st.integers(0, 3), st.sampled_from(
    ["", "{", "}", "[", "]", ",", ":", '"', "\\", "\\udfff", "1e999", "-0", "null", "[[[[", '"a":', "#", "\n",
     '"\\u0000"', "9" * 50, '{"$ref": "#"}', '"tools"', '"inputSchema"', "true"])), max_size=6)


def mutate(edits) -> str:
    text = SEED
    for position, deleted, inserted in edits:
        position = min(position, len(text))
        text = text[:position] + inserted + text[position + deleted:]
    return text


def check_in_process(folder: Path, name: str, text: str, capsys, *extra_paths: str) -> None:
    (folder / name).write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        code = run_check(paths=[str(folder / name), *extra_paths], fmt="json", output=folder / "report.json",
                         select=[], ignore=[], protocol_version=None, config_path=None, fail_on=None, verbose=False)
    except MCPLintError as err:
        assert "\n" not in str(err)
    else:
        errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("mcplint: error:")]
        assert code in (0, 1) or (code == 2 and len(errors) == 1), (code, errors)
        json.loads((folder / "report.json").read_text("utf-8"))


@settings(max_examples=50, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(manifests, st.sampled_from(["m.json", "m.yaml"]))
def test_fuzz_the_whole_check_path_in_process(tmp_path_factory, capsys, value, name):
    check_in_process(tmp_path_factory.mktemp("check"), name, dump(value), capsys)


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(mutations, st.sampled_from(["m.json", "m.yaml"]))
def test_fuzz_mutated_manifests_through_the_whole_check_path(tmp_path_factory, capsys, edits, name):
    check_in_process(tmp_path_factory.mktemp("mutated"), name, mutate(edits), capsys)


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(mutations, json_values)
def test_fuzz_check_against_a_lock_of_the_seed(tmp_path_factory, capsys, edits, extra):
    folder = tmp_path_factory.mktemp("locked")
    (folder / "m.json").write_text(SEED)
    lock = pinning.Lock("m.lock", {str(folder / "m.json"): pinning.pin(load_manifest(folder / "m.json"))[0]})
    (folder / "m.lock").write_text(pinning.dumps(lock))
    text = mutate(edits).replace('"pattern"', '"x": ' + dump(extra) + ', "pattern"', 1)
    (folder / "m.json").write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        code = run_check(paths=[str(folder / "m.json")], fmt="json", output=folder / "r.json", select=["MCP5"],
                         ignore=[], protocol_version=None, config_path=None, fail_on=None, verbose=False,
                         lock=folder / "m.lock")
    except MCPLintError as err:
        assert "\n" not in str(err)
    else:
        assert code in (0, 1, 2)
        json.loads((folder / "r.json").read_text("utf-8"))


def load_manifest(path: Path):
    from mcplint.document.manifest import classify

    return classify(load_document(str(path)))


def test_discovery_targets_keep_the_list_interface(tmp_path):
    (tmp_path / "a.json").write_text("{}")
    found = discovery.collect([str(tmp_path)], config.Config(root=tmp_path))
    assert [Path(t.path).name for t in found] == ["a.json"] and found.skipped == []


def test_a_line_of_many_quoted_hashes_is_not_quadratic_for_suppressions():
    from mcplint import suppressions

    text = "tools: [" + ", ".join(['"a # x"'] * 5000) + "]  # mcplint: disable=MCP101\n"
    document = load_document("many.yaml", text.encode())
    started = time.monotonic()
    directives = suppressions.parse(document)
    assert time.monotonic() - started < 1.0  # was 3 s here, 50 s at 20,000 (each '#' against every scalar)
    assert [(d.line, d.column, d.scope) for d in directives] == [(1, text.index("# mcplint") + 1, "line")]


@pytest.mark.parametrize("text", ['\\"' * 100_000, ' "a' * 100_000 + "\\"])
def test_yaml_quote_scan_is_linear(cli, tmp_path, text):
    (tmp_path / "q.yaml").write_text("tools: " + text + "\n")
    started = time.monotonic()
    code, _, err = cli("check", "q.yaml")  # a report (a string of tools) or an error: both fine
    assert code in (1, 2)  # was ~130 s: each unclosed quote was scanned to the end of the file
    assert time.monotonic() - started < 5


def test_many_suppression_comments_above_one_line_stay_linear():
    from mcplint import suppressions

    text = "tools:\n" + "# mcplint: disable=MCP101\n" * 8000 + "  - name: a\n"
    document = load_document("many.yaml", text.encode())
    started = time.monotonic()
    directives = suppressions.parse(document)
    assert time.monotonic() - started < 2  # was 7 s (38 s at 20,000): each comment scanned all below it
    assert len(directives) == 8000 and {d.target_line for d in directives} == {8002}


def test_source_map_ignores_pointer_tokens_that_only_look_numeric():
    from mcplint.document.jsonmap import JsonSourceMap
    from mcplint.document.pointer import Pointer

    source_map = JsonSourceMap('{"a": [1, 2, {"b": 3}]}')
    assert source_map.span(Pointer(("a", "²")))[1] == Pointer(("a",))  # "²".isdigit(), int("²") fails
    assert source_map.span(Pointer(("a", "2", "b")))[1] == Pointer(("a", "2", "b"))


def test_lock_refuses_a_definition_it_could_not_read_back(cli, tmp_path):
    for depth in (250, 600):
        (tmp_path / f"d{depth}.json").write_text('{"tools": [{"name": "a", "inputSchema": ' + nested(depth, "") + "}]}")
    code, _, err = cli("lock", "d600.json", "-o", "deep.lock")
    assert code == 2 and "d600.json: tool 'a' nests more than 256 levels deep; a lock cannot pin it" in err
    assert not (tmp_path / "deep.lock").exists()  # 975 levels: written, then refused by check --lock
    assert cli("lock", "d250.json", "-o", "ok.lock")[0] == 0
    assert cli("check", "d250.json", "--lock", "ok.lock", "--select", "MCP5", "--format", "json")[0] == 0


def test_a_named_fifo_is_read_when_written_and_an_error_when_not(cli, tmp_path, monkeypatch):
    import threading

    from mcplint.document import loader

    monkeypatch.setattr(loader, "PIPE_WAIT_SECONDS", 1)
    os.mkfifo(tmp_path / "pipe.json")

    def write_later(delay: float, data: bytes) -> threading.Thread:
        def write() -> None:
            time.sleep(delay)
            with open(tmp_path / "pipe.json", "wb") as pipe:  # blocks until a reader opens
                pipe.write(data)
        thread = threading.Thread(target=write, daemon=True)
        thread.start()
        return thread

    writer = write_later(0.3, json.dumps(GOOD).encode())  # like `mcplint check <(curl ...)`
    code, out, err = cli("check", "pipe.json", "--format", "json")
    assert code == 0 and json.loads(out)["summary"]["files"] == 1, err
    writer.join(5)
    threading.Timer(4, rescue, [tmp_path / "pipe.json"]).start()  # ends a reader that waits forever (the bug)
    started = time.monotonic()
    one_line_error(cli("check", "pipe.json"), "pipe.json: nothing was written to this pipe or device within 1 s")
    assert time.monotonic() - started < 3


def test_a_named_transcript_fifo_or_device_is_read_when_written_and_an_error_when_not(cli, tmp_path, monkeypatch):
    import threading

    from mcplint.document import loader

    monkeypatch.setattr(loader, "PIPE_WAIT_SECONDS", 1)
    os.mkfifo(tmp_path / "pipe.jsonl")
    transcript = (Path(__file__).parent.parent / "fixtures" / "captures" / "weather-http.jsonl").read_bytes()
    (tmp_path / "same.jsonl").write_bytes(transcript)

    def write() -> None:
        time.sleep(0.3)
        with open(tmp_path / "pipe.jsonl", "wb") as pipe:
            pipe.write(transcript)
    threading.Thread(target=write, daemon=True).start()
    code, out, err = cli("check", "pipe.jsonl", "--format", "json")  # like `mcplint check <(zcat s.jsonl.gz)`
    as_file = json.loads(cli("check", str(tmp_path / "same.jsonl"), "--format", "json")[1])["summary"]
    assert code == 1 and json.loads(out)["summary"]["captures"] == 1, err
    assert json.loads(out)["summary"]["findings"] == as_file["findings"] > 0
    threading.Timer(4, rescue, [tmp_path / "pipe.jsonl"]).start()  # ends a reader stuck in open() (the bug)
    started = time.monotonic()
    one_line_error(cli("check", "pipe.jsonl"), "pipe.jsonl: nothing was written to this pipe or device within 1 s")
    assert time.monotonic() - started < 3
    (tmp_path / "zero.jsonl").symlink_to("/dev/zero")  # endless NUL bytes: refused, never spooled
    one_line_error(cli("check", "zero.jsonl"), "zero.jsonl: binary file (contains NUL bytes)")


def rescue(fifo: Path) -> None:
    try:  # succeeds only while a reader is stuck in open(); closing gives it end-of-file
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass


@pytest.mark.parametrize("option", ["--lock", "--baseline"])
def test_a_fifo_as_lock_or_baseline_is_a_one_line_error(cli, tmp_path, monkeypatch, option):
    import threading

    from mcplint.document import loader

    monkeypatch.setattr(loader, "PIPE_WAIT_SECONDS", 1)
    (tmp_path / "tools.json").write_text(json.dumps(GOOD))
    os.mkfifo(tmp_path / "pipe")
    threading.Timer(4, rescue, [tmp_path / "pipe"]).start()
    one_line_error(cli("check", "tools.json", option, "pipe"), "pipe: nothing was written to this pipe")


def test_comment_lines_inside_a_yaml_mapping_cost_linear_time(cli, tmp_path):
    """The round-trip composer kept every comment, at a cost quadratic in comment lines inside a
    mapping: 1 MB of "#" lines took 43 s (attack round 3, F5). The safe composer skips them."""
    text = "tools:\n  - name: get_x\n    description: Get x.\n" + "#\n" * 300_000 + "    inputSchema: {type: object}\n"
    (tmp_path / "tools.yaml").write_text(text)
    started = time.process_time()
    code, out, err = cli("check", "tools.yaml", "--format", "json")
    assert code == 0 and json.loads(out)["summary"]["files"] == 1, err
    assert time.process_time() - started < 20  # about 1 s; 15 s before
