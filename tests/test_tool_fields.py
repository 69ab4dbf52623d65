"""mcplint.tool_fields against the official schemas (read from ../shared, never copied here)."""

from __future__ import annotations

import json

import pytest

from conftest import shared_path
from mcplint.tool_fields import (ANNOTATION_KEYS, ICON_KEYS, ICON_THEMES, TASK_SUPPORT, TOOL_FIELDS, field_range,
                                 json_type, meta_key_problem)
from mcplint.versions import VERSIONS


def _defs(version):
    schema = json.loads(shared_path("spec", version, "schema.json").read_text(encoding="utf-8"))
    return schema.get("definitions") or schema["$defs"]


@pytest.mark.parametrize("version", VERSIONS)
def test_tool_fields_match_the_schema(version):
    defs = _defs(version)
    assert set(defs["Tool"]["properties"]) == {f for f, where in TOOL_FIELDS.items() if version in where}
    if "ToolAnnotations" in defs:
        assert set(defs["ToolAnnotations"]["properties"]) == set(ANNOTATION_KEYS)
    if "Icon" in defs:
        assert set(defs["Icon"]["properties"]) == set(ICON_KEYS)
        assert set(defs["Icon"]["properties"]["theme"]["enum"]) == set(ICON_THEMES)
    if "ToolExecution" in defs:
        assert set(defs["ToolExecution"]["properties"]["taskSupport"]["enum"]) == set(TASK_SUPPORT)


def test_field_range():
    assert field_range("name") == "from 2024-11-05 on"
    assert field_range("title") == "from 2025-06-18 on"
    assert field_range("execution") == "only in 2025-11-25"


@pytest.mark.parametrize("key", [
    "", "a", "progressToken", "x.y-z_1", "com.example/x", "com.example/", "com.example.mcp/x", "a-b.c1/d",
    "openai/outputTemplate", "ui", "ui/resourceUri", "mcp.dev/x", "io.modelcontextprotocol/related-task",
])
def test_valid_meta_keys(key):
    assert meta_key_problem(key, "2025-11-25") is None


@pytest.mark.parametrize("key,words", [
    ("-x", "name part"), ("x-", "name part"), ("a b", "name part"), ("com.example/a b", "name part"),
    ("1com/x", "prefix"), ("com-/x", "prefix"), ("com..x/y", "prefix"), ("a/b/c", "prefix"), ("/x", "prefix"),
    ("io.modelcontextprotocol/x", "reserved"), ("dev.mcp/x", "reserved"), ("com.mcp.tools/x", "reserved"),
    ("org.modelcontextprotocol.api/x", "reserved"), ("IO.MCP/x", "reserved"),
])
def test_invalid_meta_keys(key, words):
    problem = meta_key_problem(key, "2026-07-28")
    assert problem and words in problem


def test_reserved_prefixes_in_2025_06_18():
    assert "reserved" in meta_key_problem("mcp.dev/x", "2025-06-18")
    assert "reserved" in meta_key_problem("api.modelcontextprotocol.org/x", "2025-06-18")
    assert "reserved" in meta_key_problem("tools.mcp.com/x", "2025-06-18")
    assert meta_key_problem("com.example.mcp/x", "2025-06-18") is None
    assert meta_key_problem("dev.mcp/x", "2025-06-18") is None  # mcp is the last label


def test_json_type():
    assert [json_type(v) for v in (None, True, 1, 1.5, "s", [], {})] == [
        "null", "boolean", "integer", "number", "string", "array", "object"]
