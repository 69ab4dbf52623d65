"""The error rules (MCP700-MCP713) beyond their case files: the code tables per version,
generic-message and leak detection, a HAR capture, and the whole corpus judged exactly."""

from __future__ import annotations

import json

import pytest

from conftest import shared_path
from mcplint import engine
from mcplint.capture.error_texts import is_generic, leak_in
from mcplint.capture.errors import (AD_HOC, LEGACY_RANGE, OK, OTHER_VERSION, RESERVED_UNDEFINED, RETIRED,
                                    code_verdict)
from mcplint.capture.lint import lint_capture
from mcplint.config import Config
from mcplint.testing import lint_text

CODES = [f"MCP7{n:02d}" for n in range(14)]
V1, V3, V4, V5 = "2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"


@pytest.mark.parametrize("code,version,verdict", [
    (-32700, V1, OK), (-32601, V5, OK), (-32603, V5, OK),
    (-32002, V4, OK), (-32002, V1, OK), (-32002, V5, RETIRED),
    (-32042, V4, OK), (-32042, V3, OTHER_VERSION), (-32042, V5, RETIRED),
    (-32020, V5, OK), (-32021, V5, OK), (-32022, V5, OK), (-32022, V4, OTHER_VERSION), (-32020, V1, OTHER_VERSION),
    (-32000, V4, OK), (-32099, V3, OK), (-32000, V5, LEGACY_RANGE), (-32019, V5, LEGACY_RANGE),
    (-32023, V5, RESERVED_UNDEFINED), (-32099, V5, RESERVED_UNDEFINED), (-32604, V4, RESERVED_UNDEFINED),
    (-32768, V3, RESERVED_UNDEFINED), (-32100, V5, RESERVED_UNDEFINED),
    (404, V4, AD_HOC), (500, V5, AD_HOC), (-500, V3, AD_HOC), (-1, V4, AD_HOC), (0, V4, AD_HOC),
    (1001, V4, OK), (-32769, V5, OK), (-31999, V5, OK), (42, V3, OK),
])
def test_code_verdicts(code, version, verdict):
    assert code_verdict(code, version)[0] == verdict


@pytest.mark.parametrize("text,generic", [
    ("Error", True), ("error.", True), ("Internal error", True), ("undefined", True), ("[object Object]", True),
    ("null", True), ("MCP error -32603: Internal error", True), ("Error: undefined", True),
    ("TypeError: undefined", True), ("Error executing tool add: Error", True), ("", True),
    ("Method not found", False), ("Internal error: database locked", False), ("Unknown tool: no_such_tool", False),
    ("Error executing tool divide: Cannot divide by zero: 'divisor' must be a non-zero number", False),
    ("Invalid params", False),  # MCP711's concern: names no parameter
])
def test_generic_messages(text, generic):
    assert is_generic(text) is generic


@pytest.mark.parametrize("text,sent,leak", [
    ("Traceback (most recent call last):\n  File \"x.py\", line 1", (), "a stack trace"),
    ("boom\n    at handler (/app/dist/index.js:10:5)", (), "a stack trace"),
    ("java.lang.NullPointerException\n\tat com.example.Tools.run(Tools.java:42)", (), "a stack trace"),
    ("goroutine 1 [running]:\nmain.main()", (), "a stack trace"),
    ("Config /etc/mcp/secrets.toml unreadable", (), "the internal path '/etc/mcp/secrets.toml'"),
    ("failed in /srv/app/lib/handlers.py", (), "the internal path '/srv/app/lib/handlers.py'"),
    ("cannot load /opt/x/plugins/a.so", (), "the internal path '/opt/x/plugins/a.so'"),
    ("ENOENT: no such file or directory, open '/srv/sample/fs-demo/missing.txt'",
     ("/srv/sample/fs-demo/missing.txt",), None),
    ("Access denied: /home/ann/notes/private is outside the allowed directories", ("/home/ann/notes",), None),
    ("see https://errors.pydantic.dev/2.14/v/string_type", (), None),
    ("GET /v1/users/list returned 502", (), None),
    ("Expected boolean or \"true\"/\"false\" string", (), None),
])
def test_leaks(text, sent, leak):
    assert leak_in(text, sent) == leak


HAR_UNKNOWN_TOOL = """{"log": {"version": "1.2", "creator": {"name": "mitmproxy", "version": "12.2.3"}, "entries": [
 {"startedDateTime": "2026-08-01T10:00:00.000Z", "time": 5,
  "request": {"method": "POST", "url": "http://127.0.0.1:3001/mcp", "httpVersion": "HTTP/1.1",
   "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "MCP-Protocol-Version", "value": "2025-11-25"}],
   "postData": {"mimeType": "application/json", "text": "{\\"jsonrpc\\": \\"2.0\\", \\"id\\": 2, \\"method\\": \\"tools/list\\"}"}},
  "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
   "headers": [{"name": "Content-Type", "value": "application/json"}],
   "content": {"mimeType": "application/json", "text": "{\\"jsonrpc\\": \\"2.0\\", \\"id\\": 2, \\"result\\": {\\"tools\\": [{\\"name\\": \\"echo\\", \\"inputSchema\\": {\\"type\\": \\"object\\"}}]}}"}}},
 {"startedDateTime": "2026-08-01T10:00:01.000Z", "time": 5,
  "request": {"method": "POST", "url": "http://127.0.0.1:3001/mcp", "httpVersion": "HTTP/1.1",
   "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "MCP-Protocol-Version", "value": "2025-11-25"}],
   "postData": {"mimeType": "application/json", "text": "{\\"jsonrpc\\": \\"2.0\\", \\"id\\": 3, \\"method\\": \\"tools/call\\", \\"params\\": {\\"name\\": \\"no_such_tool\\", \\"arguments\\": {}}}"}},
  "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
   "headers": [{"name": "Content-Type", "value": "text/event-stream"}],
   "content": {"mimeType": "text/event-stream", "text": "event: message\\ndata: {\\"jsonrpc\\": \\"2.0\\", \\"id\\": 3, \\"error\\": {\\"code\\": 404, \\"message\\": \\"Tool not found\\"}}\\n\\n"}}}
]}}"""


def test_har_capture_error_codes_located_inside_the_sse_body():
    findings = lint_text(HAR_UNKNOWN_TOOL, "har", select=CODES, version=V4)
    got = sorted((f.code, f.pointer) for f in findings)
    assert [code for code, _ in got] == ["MCP704", "MCP706"], got
    assert all("/log/entries/1/response/content/text" in pointer for _, pointer in got)


# Corpus README "What is on the wire" item 1: these servers answer the unknown tool with a result.
UNKNOWN_TOOL_AS_RESULT = ("everything", "memory", "filesystem", "sequential-thinking", "python-sdk-demo")


def test_corpus_is_judged_exactly():
    corpus = shared_path("corpus")
    plan = engine.Plan.build(Config(select=CODES))
    captures = sorted((corpus / "transcripts").glob("*.jsonl")) + sorted((corpus / "har").glob("*.har"))
    assert len(captures) >= 30
    for path in captures:
        kind = "har" if path.suffix == ".har" else "transcript"
        linted = lint_capture(str(path), path.name, plan, kind=kind)
        got = sorted(f.code for f in linted.findings)
        probes = "probes" in path.name
        expected = ["MCP705"] if path.name.startswith(UNKNOWN_TOOL_AS_RESULT) and not probes else []
        assert got == expected, (path.name, [(f.code, f.pointer, f.message) for f in linted.findings])
        assert {8, 10}.isdisjoint(linted.unassessed), path.name  # every capture has error responses
        if not probes and path.stem.split("-")[0] != "fetch":
            assert {9, 11, 16}.isdisjoint(linted.unassessed), (path.name, linted.unassessed)


SCHEMAS = [
    {"type": "object", "properties": {"station_id": {"type": "string", "minLength": 3, "pattern": "^K"},
                                      "hours": {"type": "integer", "minimum": 1, "maximum": 48}},
     "required": ["station_id"], "additionalProperties": False},
    {"type": "object", "properties": {"tags": {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 2},
                                      "n": {"type": ["number", "null"], "exclusiveMinimum": 0}},
     "additionalProperties": {"type": "boolean"}},
    {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
     "properties": {"mode": {"const": "fast"}, "ratio": {"type": "number", "exclusiveMaximum": 1}}},
    {"type": "object", "properties": {"x": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}},  # jsonschema path
]
INSTANCES = [
    {}, {"station_id": "KSFO"}, {"station_id": "KS"}, {"station_id": "XSFO"}, {"station_id": 42},
    {"station_id": "KSFO", "hours": 0}, {"station_id": "KSFO", "hours": 48}, {"station_id": "KSFO", "hours": 2.0},
    {"station_id": "KSFO", "hours": 2.5}, {"station_id": "KSFO", "hours": True}, {"station_id": "KSFO", "extra": 1},
    {"tags": ["a"]}, {"tags": ["a", "c"]}, {"tags": ["a", "b", "a"]}, {"n": None}, {"n": 0}, {"n": 0.1},
    {"flag": True}, {"flag": 1}, {"mode": "fast"}, {"mode": "slow"}, {"ratio": 1}, {"ratio": 0.99},
    {"x": "s"}, {"x": 1}, {"x": 1.5}, [], "text", None,
]


@pytest.mark.parametrize("index", range(len(SCHEMAS)))
def test_fast_argument_check_agrees_with_jsonschema(index):
    import jsonschema

    from mcplint.capture.argument_check import validator_for

    schema = SCHEMAS[index]
    validator = validator_for(schema, V4)
    cls = jsonschema.Draft7Validator if "$schema" in schema else jsonschema.Draft202012Validator
    reference = cls(schema)
    for instance in INSTANCES:
        assert validator.valid(instance) is reference.is_valid(instance), (schema, instance)
    assert (validator._fast is None) is (index == 3)


@pytest.mark.parametrize("message,named", [
    ("STATION_ID must be a string", True),  # another case of the parameter's name
    ("GET_READING: bad input", True),  # the tool asked for, in another case
    ("Unknown tool: get_reading", True),
    ("station_idx is not allowed", False),  # a longer word is not the parameter
    ("Invalid params", False),
    ("Ungültiger Wert für station_id", True),  # non-ASCII text: the whole pattern, as before
])
def test_invalid_params_message_names_a_parameter_in_any_case(message, named):
    request = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"name": "get_reading", "arguments": {"station_id": "K042"}}}
    reply = {"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": message}}
    text = "\n".join(json.dumps({"from": sender, "message": m}) for sender, m in (("client", request), ("server", reply)))
    codes = [f.code for f in lint_text(text, "jsonl", select=["MCP711"], version=V4)]
    assert codes == ([] if named else ["MCP711"]), codes
