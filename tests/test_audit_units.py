"""The pure parts of `mcplint audit`: SSE parsing, header and environment handling,
redaction and the recorder, argument building, and the safety planner."""

from __future__ import annotations

import io
import json

import pytest

from mcplint.audit import arguments, options, safety
from mcplint.audit.recorder import REDACTED, Recorder, redact_headers
from mcplint.audit.session import _mcp_name
from mcplint.audit.sse import Event, SSEParser
from mcplint.errors import MCPLintError


# --- SSE -------------------------------------------------------------------------------------------
def parse(*chunks, close=True):
    parser = SSEParser()
    events = [e for chunk in chunks for e in parser.feed(chunk)]
    return events + (parser.close() if close else [])


def test_sse_several_events_lf():
    body = b'event: message\ndata: {"a": 1}\n\ndata: {"b": 2}\nid: 7\n\n'
    assert parse(body) == [Event('{"a": 1}'), Event('{"b": 2}', id="7")]


@pytest.mark.parametrize("newline", [b"\r\n", b"\r", b"\n"])
def test_sse_line_endings(newline):
    body = newline.join([b"data: one", b"", b"data: two", b"", b""])
    assert [e.data for e in parse(body)] == ["one", "two"]


def test_sse_split_at_every_byte():
    body = 'id: 1\r\ndata: {"x": "é"}\r\n\r\n: keep-alive\r\ndata: line1\r\ndata: line2\r\n\r\n'.encode()
    expected = [Event('{"x": "é"}', id="1"), Event("line1\nline2")]
    for cut in range(len(body) + 1):
        assert parse(body[:cut], body[cut:]) == expected, cut


def test_sse_byte_by_byte_crlf():
    body = b"data: a\r\n\r\ndata: b\r\n\r\n"
    assert [e.data for e in parse(*[body[i:i + 1] for i in range(len(body))])] == ["a", "b"]


def test_sse_priming_event_and_comments_produce_nothing():
    assert parse(b"id: abc\ndata: \n\n: comment\n\nretry: 100\n\n") == []


def test_sse_field_details():
    events = parse(b"event: custom\ndata:no-space\nretry: 50\nunknown: x\ndata\n\n")
    assert events == [Event("no-space\n", event="custom", retry=50)]


def test_sse_bom_only_at_start():
    assert parse("\ufeffdata: x\n\n".encode()) == [Event("x")]


def test_sse_partial_event_at_end_is_kept():
    assert parse(b"data: {\"done\": false}\n\ndata: {\"cut\"") == [Event('{"done": false}'), Event('{"cut"')]
    assert parse(b"data: x", close=False) == []


# --- headers, environment, URLs -------------------------------------------------------------------
def test_expand_variables():
    env = {"TOKEN": "s3cret", "A": "1"}
    assert options.expand("Bearer $TOKEN", env) == "Bearer s3cret"
    assert options.expand("Bearer ${TOKEN}-x", env) == "Bearer s3cret-x"
    assert options.expand("cost $$5 $A", env) == "cost $5 1"
    assert options.expand("no $ sign-$ here", env) == "no $ sign-$ here"


def test_expand_unset_variable_is_an_error():
    with pytest.raises(MCPLintError, match="environment variable MISSING is not set"):
        options.expand("Bearer $MISSING", {})


def test_parse_headers():
    parsed = options.parse_headers(["Authorization: Bearer ${T}", "X-Api-Key:k:with:colons"], {"T": "tok"})
    assert parsed == {"Authorization": "Bearer tok", "X-Api-Key": "k:with:colons"}


@pytest.mark.parametrize("value, message", [
    ("no colon", "expected 'Name: value'"),
    (": value", "expected 'Name: value'"),
    ("Bad Name: v", "not a valid header name"),
    ("Host: example.com", "set by the audit itself"),
    ("mcp-session-id: abc", "set by the audit itself"),
    ("X-A: $NL", "line break"),
])
def test_parse_headers_rejects(value, message):
    with pytest.raises(MCPLintError, match=message):
        options.parse_headers([value], {"NL": "a\r\nInjected: 1"})


def test_parse_headers_rejects_duplicates():
    with pytest.raises(MCPLintError, match="more than once"):
        options.parse_headers(["X-A: 1", "x-a: 2"], {})


def test_parse_env():
    assert options.parse_env(["A=1", "B=x=y", "C="]) == {"A": "1", "B": "x=y", "C": ""}
    for bad in ("A", "=1", "1A=2", "A B=1"):
        with pytest.raises(MCPLintError, match="KEY=VALUE"):
            options.parse_env([bad])


@pytest.mark.parametrize("url, message", [
    ("ftp://example.com/mcp", "http:// or https://"),
    ("http:///mcp", "http:// or https://"),
    ("https://user:pw@example.com/mcp", "credentials in --header"),
    ("http://example.com:99999/mcp", "not a valid URL"),
    ("http://example.com/mcp#x", "fragment"),
])
def test_check_url_rejects(url, message):
    with pytest.raises(MCPLintError, match=message):
        options.check_url(url)


def test_looks_like_url():
    assert options.looks_like_url("https://x/mcp")
    assert not options.looks_like_url("python")
    assert not options.looks_like_url("./server.py")


# --- redaction and the recorder -------------------------------------------------------------------
def test_redact_headers():
    headers = {"Authorization": "Bearer x", "COOKIE": "a=b", "X-Api-Key": "k", "Accept": "*/*",
               "Proxy-Authorization": "Basic y", "Set-Cookie": "s=1"}
    assert redact_headers(headers, ["x-api-key"]) == {
        "Authorization": REDACTED, "COOKIE": REDACTED, "X-Api-Key": REDACTED, "Accept": "*/*",
        "Proxy-Authorization": REDACTED, "Set-Cookie": REDACTED}


def test_recorder_writes_the_transcript_format():
    out = io.StringIO()
    recorder = Recorder(out, ["X-Api-Key"])
    request = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    recorder.client(request)
    recorder.server({"jsonrpc": "2.0", "id": 1, "result": {}})
    recorder.client(None, {"method": "POST", "url": "http://h/mcp", "headers": {"x-api-key": "k", "Accept": "a"}},
                    raw="{oops", probe="malformed-json")
    recorder.server(None, {"status": 202, "headers": {"Set-Cookie": "id=1"}})
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines == [
        {"from": "client", "message": request},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {}}},
        {"from": "client", "message": None, "raw": "{oops", "probe": "malformed-json",
         "http": {"method": "POST", "url": "http://h/mcp", "headers": {"x-api-key": REDACTED, "Accept": "a"}}},
        {"from": "server", "message": None, "http": {"status": 202, "headers": {"Set-Cookie": REDACTED}}},
    ]
    assert list(lines[0]) == ["from", "message"]
    assert recorder.lines == 4


def test_mcp_name_header():
    call = {"method": "tools/call", "params": {"name": "get_weather"}}
    assert _mcp_name(call) == "get_weather"
    assert _mcp_name({"method": "resources/read", "params": {"uri": "file:///a b"}}) == "file:///a b"
    assert _mcp_name({"method": "tools/call", "params": {"name": "héllo"}}) == "=?base64?aMOpbGxv?="
    assert _mcp_name({"method": "tools/call", "params": {"name": " padded"}}).startswith("=?base64?")
    assert _mcp_name({"method": "tools/list", "params": {}}) is None


# --- arguments ---------------------------------------------------------------------------------------
def obj(properties, required=None, **extra):
    return {"type": "object", "properties": properties, "required": list(required or properties), **extra}


@pytest.mark.parametrize("prop, value", [
    ({"type": "string"}, "example"),
    ({"type": "string", "enum": ["celsius", "fahrenheit"]}, "celsius"),
    ({"const": 3}, 3),
    ({"type": "integer", "default": 7}, 7),
    ({"type": "string", "examples": ["Lisbon"]}, "Lisbon"),
    ({"type": "integer"}, 1),
    ({"type": "integer", "minimum": 5, "maximum": 9}, 5),
    ({"type": "integer", "maximum": 0}, 0),
    ({"type": "integer", "exclusiveMinimum": 1}, 2),
    ({"type": "number", "minimum": 0.5}, 1),
    ({"type": "integer", "minimum": 3, "multipleOf": 5}, 5),
    ({"type": "boolean"}, False),
    ({"type": "null"}, None),
    ({"type": ["string", "null"]}, "example"),
    ({"type": "string", "minLength": 10}, "examplexxx"),
    ({"type": "string", "maxLength": 3}, "exa"),
    ({"type": "string", "format": "date-time"}, "2024-01-01T00:00:00Z"),
    ({"type": "string", "format": "uri"}, "https://example.com"),
    ({"type": "string", "pattern": "^[0-9]+$"}, "1"),
    ({"type": "array", "items": {"type": "integer"}, "minItems": 2}, [1, 1]),
    ({"type": "array"}, []),
    ({"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}}, "required": ["x"]},
     {"x": "example"}),
    ({"anyOf": [{"type": "null"}, {"type": "integer"}]}, 1),
    ({"$ref": "#/$defs/unit"}, "kelvin"),
    ({}, "example"),
])
def test_valid_arguments_values(prop, value):
    schema = obj({"p": prop}, **{"$defs": {"unit": {"enum": ["kelvin"]}}})
    assert arguments.valid_arguments(schema) == {"p": value}


def test_valid_arguments_required_only():
    schema = obj({"a": {"type": "integer"}, "b": {"type": "string"}}, required=["a"])
    assert arguments.valid_arguments(schema) == {"a": 1}
    assert arguments.valid_arguments({"type": "object"}) == {}


@pytest.mark.parametrize("prop", [
    {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"},
    {"type": "string", "pattern": "(unclosed"},
    {"$ref": "https://example.com/schema.json"},
    {"$ref": "#/$defs/missing"},
    {"not": {"type": "string"}},
    {"type": "integer", "minimum": 5, "maximum": 4},
    {"type": "array", "minItems": 1000},
])
def test_valid_arguments_gives_up_rather_than_guess(prop):
    assert arguments.valid_arguments(obj({"p": prop})) is None


def test_valid_arguments_survives_recursive_refs():
    schema = obj({"node": {"$ref": "#/$defs/node"}},
                 **{"$defs": {"node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/node"}},
                                       "required": ["child"]}}})
    assert arguments.valid_arguments(schema) is None


def test_invalid_cases():
    schema = obj({"city": {"type": "string"}, "days": {"type": "integer"}}, required=["city"])
    assert arguments.invalid_cases(schema) == [
        ("missing-required:city", {}),
        ("wrong-type:city", {"city": None}),
    ]


def test_invalid_cases_picks_a_falsy_type_the_property_rejects():
    """null, "" or 0: falsy everywhere, so a server that validates nothing reads "no" (the attack
    round's F1: "not-a-boolean" made a lax server apply a Terraform plan)."""
    assert arguments.invalid_cases(obj({"v": {"type": ["string", "null"]}}))[1] == ("wrong-type:v", {"v": 0})
    assert arguments.invalid_cases(obj({"v": {"type": ["null", "integer"]}}))[1] == ("wrong-type:v", {"v": ""})
    assert arguments.invalid_cases(obj({"v": {"type": ["string", "null", "integer"]}})) == [("missing-required:v", {})]
    assert arguments.invalid_cases(obj({"v": {"type": "boolean"}})) == [("missing-required:v", {})]


def test_invalid_cases_without_anything_to_violate():
    assert arguments.invalid_cases({"type": "object"}) == []
    assert arguments.invalid_cases({"type": "object", "properties": {"x": {}}}) == []
    assert arguments.invalid_cases(None) == []


# --- the safety planner ----------------------------------------------------------------------------
READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False}


def tool(name, annotations=None, description="Look something up."):
    found = {"name": name, "description": description, "inputSchema": {"type": "object"}}
    if annotations is not None:
        found["annotations"] = annotations
    return found


def decisions(plan):
    return {d.name: d.callable for d in plan.decisions}


def test_only_read_only_closed_world_tools_without_side_effects_are_cleared():
    plan = safety.plan_calls([
        tool("get_weather", READ_ONLY),
        tool("search_docs", {"readOnlyHint": True}),  # open world by default
        tool("list_items"),  # no annotations
        tool("update_record", {"readOnlyHint": False}),
        tool("delete_cache", READ_ONLY),  # the annotation lies
        tool("get_report", READ_ONLY, description="Sends the weekly report to every subscriber."),
        tool("run_command", READ_ONLY),
    ])
    assert decisions(plan) == {"get_weather": True, "search_docs": False, "list_items": False,
                               "update_record": False, "delete_cache": False, "get_report": False,
                               "run_command": False}
    assert "side effect" in plan.skipped()["delete_cache"]
    assert "readOnlyHint" in plan.skipped()["list_items"]
    assert "outside systems" in plan.skipped()["search_docs"]


def test_calls_need_call_read_only_or_allow_calls():
    tools = [tool("get_weather", READ_ONLY), tool("delete_note")]
    plan = safety.plan_calls(tools)
    assert [d.name for d in plan.validate] == ["get_weather"]
    assert plan.call == []
    plan = safety.plan_calls(tools, call_read_only=True)
    assert [d.name for d in plan.call] == ["get_weather"]
    plan = safety.plan_calls(tools, allow_calls=["delete_note"])
    assert [d.name for d in plan.call] == ["delete_note"]
    assert [d.name for d in plan.validate] == ["delete_note", "get_weather"]


def test_a_name_shared_with_an_unsafe_tool_is_unsafe():
    plan = safety.plan_calls([tool("lookup", READ_ONLY), tool("lookup", {"readOnlyHint": False})])
    assert decisions(plan) == {"lookup": False}
    assert "same name" in plan.skipped()["lookup"]


def test_unknown_allowed_names_are_reported():
    assert safety.plan_calls([tool("a", READ_ONLY)], allow_calls=["nope"]).unknown_allowed == ["nope"]


def test_counts_are_bounded():
    tools = [tool(f"get_item_{i}", READ_ONLY) for i in range(100)]
    plan = safety.plan_calls(tools, call_read_only=True)
    assert len(plan.validate) == safety.MAX_VALIDATION_TOOLS
    assert len(plan.call) == safety.MAX_CALLED_TOOLS


def test_malformed_tools_are_ignored():
    plan = safety.plan_calls([None, "x", {"name": 3}, tool("get_a", READ_ONLY)])
    assert decisions(plan) == {"get_a": True}
