"""Accuracy of the manifest rules (issue 10, section 2): severities that match the spec's word,
version gates, and lenient judgement when a manifest's protocol version is only inferred."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mcplint.findings import Severity
from mcplint.testing import lint_text


def _one(doc, code, version=None):
    findings = lint_text(json.dumps(doc), select=[code], version=version)
    assert len(findings) == 1, [f.message for f in findings]
    return findings[0]


def _tool(**fields):
    return {"name": "get_thing", "description": "Get a thing.", "inputSchema": {"type": "object"}, **fields}


def test_mcp109_missing_cache_fields_is_an_error_because_the_schema_requires_them():
    doc = {"resultType": "complete", "tools": [_tool()]}
    assert _one(doc, "MCP109").severity is Severity.ERROR


def test_mcp312_undefined_required_name_is_a_warning():
    schema = {"type": "object", "properties": {"issue_id": {"type": "string"}}, "required": ["issueId"]}
    assert _one({"tools": [_tool(inputSchema=schema)]}, "MCP312", "2025-11-25").severity is Severity.WARNING


def test_mcp320_is_a_warning_from_2025_11_25_and_silent_before():
    schema = {"type": "object", "properties": {"x": {"type": "strng"}}}
    doc = {"tools": [_tool(inputSchema=schema)]}
    assert _one(doc, "MCP320", "2025-11-25").severity is Severity.WARNING
    assert lint_text(json.dumps(doc), select=["MCP320"], version="2025-06-18") == []


def test_mcp321_definitions_is_info_other_idioms_stay_warnings():
    schema = {"type": "object", "properties": {"to": {"$ref": "#/definitions/A"}},
              "definitions": {"A": {"type": "string"}}, "dependencies": {"to": ["x"]}}
    findings = lint_text(json.dumps({"tools": [_tool(inputSchema=schema)]}), select=["MCP321"], version="2025-11-25")
    levels = {f.pointer.rsplit("/", 1)[-1]: f.severity for f in findings}
    assert levels == {"definitions": Severity.INFO, "dependencies": Severity.WARNING}


def test_mcp411_unannotated_destructive_tool_is_only_info():
    tool = {"name": "delete_repository", "description": "Delete a repository.", "inputSchema": {"type": "object"}}
    assert _one({"tools": [tool]}, "MCP411").severity is Severity.INFO


_DRAFT07 = {"type": "object", "properties": {"xy": {"type": "array", "items": [{"type": "number"}],
                                                  "additionalItems": False}}}


def test_inferred_version_judges_draft07_idioms_leniently():
    findings = lint_text(json.dumps({"tools": [_tool(inputSchema=_DRAFT07)]}), select=["MCP320", "MCP321"])
    assert {f.code for f in findings} == {"MCP320", "MCP321"}
    for finding in findings:
        assert finding.severity is Severity.INFO
        assert "protocol version 2025-11-25 was inferred and 2025-06-18 allows this" in finding.message


def test_a_given_version_is_judged_strictly():
    findings = lint_text(json.dumps({"tools": [_tool(inputSchema=_DRAFT07)]}), select=["MCP320", "MCP321"],
                         version="2025-11-25")
    assert {f.severity for f in findings} == {Severity.WARNING}
    assert not any("leniently" in f.message for f in findings)


def test_fields_that_date_the_manifest_keep_it_strict():
    # icons exist only from 2025-11-25, so no older version is plausible
    tool = _tool(inputSchema=_DRAFT07, icons=[{"src": "javascript:alert(1)"}])
    findings = lint_text(json.dumps({"tools": [tool]}), select=["MCP105", "MCP320"])
    assert {(f.code, f.severity) for f in findings} == {("MCP105", Severity.ERROR), ("MCP320", Severity.WARNING)}


def test_the_cli_says_the_version_was_inferred(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [_tool(inputSchema=_DRAFT07)]}), "utf-8")
    lenient = subprocess.run([sys.executable, "-m", "mcplint", "check", "--select", "MCP320", str(path)],
                             capture_output=True, text=True, timeout=60)
    assert lenient.returncode == 0, lenient.stdout + lenient.stderr
    assert "info[MCP320" in lenient.stdout and "pass --protocol-version to judge strictly" in lenient.stdout
    strict = subprocess.run([sys.executable, "-m", "mcplint", "check", "--select", "MCP320",
                             "--protocol-version", "2025-11-25", str(path)], capture_output=True, text=True, timeout=60)
    assert "warning[MCP320" in strict.stdout and "leniently" not in strict.stdout


@pytest.mark.parametrize("name", ["send_email", "slack_post_message", "upload_file"])
def test_mcp410_sending_is_additive(name):
    tool = {"name": name, "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": True}}
    assert lint_text(json.dumps({"tools": [tool]}), select=["MCP410"]) == []


@pytest.mark.parametrize("name,credential,traces", [
    ("create_api_key", True, False), ("getGithubAccessToken", True, False), ("vault_read_secret", True, False),
    ("get_token_status", False, False), ("list_key_scopes", False, False), ("get_weather", False, False),
    ("run_tests", False, True), ("get_workflow_run_logs", False, True), ("get_job_logs", False, True),
    ("query", False, False), (None, False, False),
])
def test_output_purpose_from_the_tool_name(name, credential, traces):
    from mcplint.output_purpose import returns_credential, returns_traces

    assert (returns_credential(name), returns_traces(name)) == (credential, traces)


def test_mcp311_a_parameter_documented_in_the_tool_description_is_a_hint_not_a_warning():
    doc = json.dumps({"tools": [_tool(
        description="Register a project directory.\n\n    Args:\n        path: Path to the project directory\n",
        inputSchema={"type": "object", "properties": {"path": {"type": "string", "title": "Path"},
                                                      "name": {"type": "string"}}})]})
    found = {f.pointer.rsplit("/", 1)[-1]: f.severity for f in lint_text(doc, select=["MCP311"])}
    assert found == {"path": Severity.INFO, "name": Severity.WARNING}


def test_mcp311_a_parameter_the_tool_description_explains_in_prose_is_a_hint_not_a_warning():
    """google-workspace's list_document_comments: "(optional max_comments to limit results)"."""
    doc = json.dumps({"tools": [_tool(
        description="List all comments from a Google Document (optional max_comments to limit results).",
        inputSchema={"type": "object", "properties": {"max_comments": {"type": "integer"},
                                                      "page_token": {"type": "string"},
                                                      "limit": {"type": "integer"}}})]})
    found = {f.pointer.rsplit("/", 1)[-1]: f.severity for f in lint_text(doc, select=["MCP311"])}
    assert found == {"max_comments": Severity.INFO, "page_token": Severity.WARNING, "limit": Severity.WARNING}
