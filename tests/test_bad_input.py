"""Bad input: a clear one-line error naming the file (and line/column), exit 2, no traceback."""

from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, run_mcplint


def lint_file(tmp_path, name: str, content: bytes, *extra: str):
    path = tmp_path / name
    path.write_bytes(content)
    return run_mcplint("check", str(path), "--format", "json", *extra), path


def assert_one_line_error(proc, *fragments: str):
    stderr = proc.stderr.decode("utf-8")
    assert proc.returncode == 2, (proc.returncode, stderr, proc.stdout[:500])
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("mcplint: error: ")
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def test_invalid_json_names_file_line_and_column(tmp_path):
    proc, path = lint_file(tmp_path, "tools.json", b'{"tools": [\n  {"name": "x",,}\n]}')
    assert_one_line_error(proc, f"{path}:2:16: invalid JSON: Expecting property name")


def test_invalid_yaml_names_file_line_and_column(tmp_path):
    proc, path = lint_file(tmp_path, "tools.yaml", b"tools:\n  - name: x\n   description: [unclosed\n")
    assert_one_line_error(proc, f"{path}:3:", "invalid YAML")


def test_yaml_with_two_documents(tmp_path):
    proc, path = lint_file(tmp_path, "tools.yaml", b"tools: []\n---\ntools: []\n")
    assert_one_line_error(proc, str(path), "invalid YAML", "single document")


def test_yaml_alias_bomb_is_refused_quickly(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    lines.append("tools: *a8")
    proc, path = lint_file(tmp_path, "bomb.yaml", "\n".join(lines).encode())
    assert_one_line_error(proc, str(path), "alias bomb")


def test_yaml_aliases_of_a_big_text_are_refused(tmp_path):
    """Few nodes, but each alias brings a 2 MiB description again (attack round 4: a 2.1 MB file
    made `lock` write 1 GB). Within the bound, aliases of a text work as before."""
    big = "x" * (2 << 20)
    tools = [f"  - {{name: t{i}, description: *d, inputSchema: {{type: object}}}}" for i in range(1, 50)]
    text = f"tools:\n  - {{name: t0, description: &d {big}, inputSchema: {{type: object}}}}\n" + "\n".join(tools)
    proc, path = lint_file(tmp_path, "big.yaml", text.encode())
    assert_one_line_error(proc, str(path), "aliases expand its text to more than", "alias bomb")
    few = "tools:\n  - {name: t0, description: &d Get the weather., inputSchema: {type: object}}\n" + "\n".join(
        f"  - {{name: t{i}, description: *d, inputSchema: {{type: object}}}}" for i in range(1, 50))
    proc, _ = lint_file(tmp_path, "few.yaml", few.encode())
    assert proc.returncode == 0, proc.stderr


def test_recursive_yaml_alias(tmp_path):
    proc, path = lint_file(tmp_path, "loop.yaml", b"tools: &t\n  - *t\n")
    assert_one_line_error(proc, str(path), "recursive YAML alias")


def test_non_utf8_names_the_byte_and_position(tmp_path):
    proc, path = lint_file(tmp_path, "latin1.json", '{"tools": [{"name": "caf\u00e9"}]}'.encode("latin-1"))
    assert_one_line_error(proc, f"{path}:1:", "not valid UTF-8 (byte 0xe9)")


def test_utf16_is_named(tmp_path):
    proc, path = lint_file(tmp_path, "u16.json", '{"tools": []}'.encode("utf-16"))
    assert_one_line_error(proc, str(path), "UTF-16")
    proc, path = lint_file(tmp_path, "u32.json", '{"tools": []}'.encode("utf-32"))
    assert_one_line_error(proc, str(path), "file is UTF-32 encoded; save it as UTF-8")


def test_binary_file(tmp_path):
    proc, path = lint_file(tmp_path, "image.json", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert_one_line_error(proc, str(path), "binary file")


@pytest.mark.parametrize("content", [b"", b"   \n\n"])
def test_empty_file(tmp_path, content):
    proc, path = lint_file(tmp_path, "empty.json", content)
    assert_one_line_error(proc, str(path), "empty file")


@pytest.mark.parametrize("name,content", [
    ("deep.json", b"[" * 50000 + b"]" * 50000),
    ("deep.yaml", b"tools:\n  - " + b"[" * 5000 + b"]" * 5000 + b"\n"),
])
def test_deeply_nested_document(tmp_path, name, content):
    proc, path = lint_file(tmp_path, name, content)
    assert_one_line_error(proc, str(path), "nested too deeply")


def test_deep_json_names_where_it_got_too_deep(tmp_path):
    content = b'{"tools": [\n  {"name": "a", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}]}"
    proc, path = lint_file(tmp_path, "deep.json", content)
    assert_one_line_error(proc, f"{path}:2:519: document is nested too deeply (over 500 levels)")


def test_huge_file_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.write(b'{"tools": [' + b" " * (50 * 1024 * 1024) + b"]}")
    proc = run_mcplint("check", str(path), "--format", "json")
    assert_one_line_error(proc, str(path), "file is 50.0 MiB, over the 20 MiB limit")  # its size, not what was read


def test_nonexistent_path():
    proc = run_mcplint("check", "no/such/manifest.json", "--format", "json")
    assert_one_line_error(proc, "no/such/manifest.json: no such file or directory")


def test_folder_without_manifests(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "x", "version": "1.0.0"}')
    (tmp_path / "notes.txt").write_text("hello")
    # found in servers' repositories (round 2 of repository mode): a table of named objects
    # (semgrep's lang.json) and an MCP Bundle manifest, whose tools carry no schema by design
    (tmp_path / "lang.json").write_text('[{"id": "bash", "name": "Bash", "exts": [".sh"]}, {"id": "c", "name": "C"}]')
    (tmp_path / "manifest.json").write_text(json.dumps({
        "manifest_version": "0.4", "name": "db", "server": {"type": "uv", "entry_point": "server.py"},
        "tools": [{"name": "query", "description": "Run a SQL query."}]}))
    proc = run_mcplint("check", str(tmp_path), "--format", "json")
    assert_one_line_error(proc, "no MCP tool manifests or captures found", "3 file(s) skipped")
    proc, path = lint_file(tmp_path, "manifest.json", (tmp_path / "manifest.json").read_bytes())
    assert "an MCP Bundle (Desktop Extension) manifest, not a listing" in assert_one_line_error(proc, str(path))


def test_an_array_of_tools_without_schemas_is_still_a_manifest(tmp_path):
    proc, _ = lint_file(tmp_path, "tools.json", b'[{"name": "get_weather", "description": "Get the weather."}]')
    assert proc.returncode == 1 and b"MCP301" in proc.stdout, proc.stderr


@pytest.mark.parametrize("content,found", [
    (b'{"name": "pkg", "version": "1.0.0"}', "an object with keys 'name', 'version'"),
    (b"42", "a int value"),
    (b"[1, 2]", "an array whose items are not tool objects"),
    (b"[]", "an empty array"),
])
def test_named_file_of_the_wrong_shape(tmp_path, content, found):
    proc, path = lint_file(tmp_path, "thing.json", content)
    line = assert_one_line_error(proc, str(path), "not an MCP tool manifest", "tools/list result")
    assert found in line


def test_nan_is_not_json(tmp_path):
    proc, path = lint_file(tmp_path, "nan.json", b'{"tools": [{"name": "x", "inputSchema": {"maximum": NaN}}]}')
    assert_one_line_error(proc, str(path), "NaN is not valid JSON")


def test_one_bad_file_among_good_ones_still_reports_the_good_ones(tmp_path):
    (tmp_path / "good.json").write_text('{"tools": [{"name": "a", "name": "b", "inputSchema": {"type": "object"}}]}')
    (tmp_path / "bad.json").write_text('{"tools": [')
    proc = run_mcplint("check", str(tmp_path / "good.json"), str(tmp_path / "bad.json"), "--format", "json", "--select", "MCP101")
    assert proc.returncode == 2
    assert b'"rule": "MCP101"' in proc.stdout
    assert b"bad.json:1:" in proc.stderr and b"Traceback" not in proc.stderr


def test_deep_block_yaml_names_the_line_where_it_got_too_deep(tmp_path):
    content = "tools:\n" + "".join("  " * i + "a:\n" for i in range(1, 3000))
    proc, path = lint_file(tmp_path, "deep.yaml", content.encode())
    assert_one_line_error(proc, f"{path}:257:513: document is nested too deeply (over 256 levels)")


def test_a_full_disk_on_standard_output_is_a_one_line_error():
    import subprocess
    import sys

    example = FIXTURES / "examples" / "weather-server.json"
    for fmt in ("rich", "json"):
        with open("/dev/full", "w") as full:
            proc = subprocess.run([sys.executable, "-m", "mcplint", "check", "-f", fmt, str(example)],
                                  stdout=full, stderr=subprocess.PIPE, timeout=60)
        assert proc.returncode == 2
        assert proc.stderr.decode().splitlines() == [
            "mcplint: error: standard output: cannot write report: No space left on device"]
