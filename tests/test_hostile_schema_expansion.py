"""Hostile tool schemas whose `$ref`s repeat one another: checking a value stays bounded.

A chain of definitions, each `{"allOf": [{"$ref": "#/$defs/dN+1"}, {"$ref": "#/$defs/dN+1"}]}`,
makes jsonschema check one value against 2**N subschemas (N=18: 26 s; N=40: hours). A server
(or a transcript) declaring one as an outputSchema or inputSchema must not stall `mcplint
check` of its capture: the value is reported as not checked, once per tool. Recursive schemas
used legitimately (a tree node referring to itself) are still checked.
"""

from __future__ import annotations

import json
import time

import pytest

from conftest import run_mcplint
from mcplint import schema_safety
from mcplint.schema_dialects import DRAFT2020
from mcplint import schema_expansion
from mcplint.schema_safety import EXPANDS, Uncheckable

DEPTH = 40  # 2**40 subschemas for the unbounded check
QUICK = 20  # seconds: generous on a loaded machine; the unbounded check takes hours


def chain(depth: int, keyword: str = "allOf") -> dict:
    defs = {f"d{i}": {keyword: [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]} for i in range(depth)}
    defs[f"d{depth}"] = {"type": "string"}
    return {"type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "$defs": defs}


TREE = {"type": "object", "$ref": "#/$defs/node", "$defs": {"node": {
    "type": "object", "required": ["value"],
    "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}}
BAD_TREE = {"value": 1, "children": [{"value": 2, "children": [{"value": "three"}]}]}


def transcript(tmp_path, tool: dict, calls: list[tuple[dict, dict]]):
    """A capture: initialize, tools/list with ``tool``, then each (arguments, result) as a tools/call."""
    lines = [
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {
            "protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}},
        {"from": "client", "message": {"jsonrpc": "2.0", "method": "notifications/initialized"}},
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [tool]}}},
    ]
    for number, (arguments, result) in enumerate(calls, start=3):
        lines.append({"from": "client", "message": {"jsonrpc": "2.0", "id": number, "method": "tools/call",
                                                    "params": {"name": tool["name"], "arguments": arguments}}})
        lines.append({"from": "server", "message": {"jsonrpc": "2.0", "id": number, "result": result}})
    path = tmp_path / "capture.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def lint(path) -> tuple[list[dict], float]:
    """The findings of `mcplint check` on ``path``, and how long it took."""
    start = time.monotonic()
    done = run_mcplint("check", "-q", "-f", "json", str(path))
    elapsed = time.monotonic() - start
    assert done.returncode in (0, 1), done.stderr.decode()
    return json.loads(done.stdout)["findings"], elapsed


def result(value: dict) -> dict:
    return {"content": [{"type": "text", "text": json.dumps(value)}], "structuredContent": value}


def tool(name: str = "get_x", **schemas) -> dict:
    return {"name": name, "description": "Returns the x value of the thing.",
            "inputSchema": {"type": "object"}, **schemas}


@pytest.mark.parametrize("keyword", ["allOf", "anyOf", "oneOf"])
def test_structured_content_against_a_doubling_chain_is_reported_unchecked(tmp_path, keyword):
    calls = [({}, result({"a": "aaa"})), ({}, result({"a": 5}))]  # a valid value and an invalid one
    findings, elapsed = lint(transcript(tmp_path, tool(outputSchema=chain(DEPTH, keyword)), calls))
    assert elapsed < QUICK
    unchecked = [f for f in findings if f["rule"] == "MCP721"]
    assert len(unchecked) == 1, findings  # once per tool, not per call; no verdict on either value
    assert unchecked[0]["message"].startswith(f"{EXPANDS}: the structuredContent of tool 'get_x' was not checked")
    assert "$refs repeat one another" in unchecked[0]["message"]
    assert "/outputSchema/$defs/" in unchecked[0]["pointer"] and unchecked[0]["pointer"].endswith("/$ref")


def test_arguments_against_a_doubling_chain_are_reported_unchecked(tmp_path):
    plain = {"content": [{"type": "text", "text": "ok"}]}
    calls = [({"a": "aaa"}, plain), ({"a": 5}, plain)]
    findings, elapsed = lint(transcript(tmp_path, tool(inputSchema=chain(DEPTH)), calls))
    assert elapsed < QUICK
    unchecked = [f for f in findings if f["rule"] == "MCP713"]
    assert len(unchecked) == 1, findings
    assert unchecked[0]["message"].startswith(f"{EXPANDS}: the arguments of tool 'get_x' were not checked")
    assert "/inputSchema/$defs/" in unchecked[0]["pointer"]


def test_a_recursive_schema_is_still_checked(tmp_path):
    """A tree node that refers to itself: its values are checked as deep as they go."""
    calls = [({"value": 1, "children": [{"value": 2}]}, result(BAD_TREE)), (BAD_TREE, {"content": [{"type": "text", "text": "ok"}]})]
    findings, elapsed = lint(transcript(tmp_path, tool(inputSchema=TREE, outputSchema=TREE), calls))
    assert elapsed < QUICK
    assert not [f for f in findings if EXPANDS in f["message"]], findings
    output = [f for f in findings if f["rule"] == "MCP721"]
    assert len(output) == 1 and "\"three\" is not of type 'integer'" in output[0]["message"], findings
    assert output[0]["pointer"].endswith("/structuredContent/children/0/children/0/value")
    arguments = [f for f in findings if f["rule"] == "MCP713"]
    assert len(arguments) == 1 and "children/0/children/0/value" in arguments[0]["message"], findings


def test_a_recursive_schema_whose_refs_repeat_is_stopped_by_the_step_limit(tmp_path):
    """Each level applies the schema twice to the same member: 2**depth steps for a value nested
    `depth` deep. Counting subschemas cannot see it (the cycle counts once); the steps can."""
    schema = {"type": "object", "$ref": "#/$defs/t", "$defs": {"t": {"allOf": [
        {"properties": {"a": {"$ref": "#/$defs/t"}}}, {"properties": {"a": {"$ref": "#/$defs/t"}}}]}}}
    deep: object = "leaf"
    for _ in range(DEPTH):
        deep = {"a": deep}
    calls = [({}, result(deep)), ({}, result(deep))]
    findings, elapsed = lint(transcript(tmp_path, tool(outputSchema=schema), calls))
    assert elapsed < QUICK
    unchecked = [f for f in findings if f["rule"] == "MCP721"]
    assert len(unchecked) == 1, findings
    assert unchecked[0]["message"].startswith(f"{EXPANDS}: the structuredContent of tool 'get_x' was not checked")
    assert "applied over" in unchecked[0]["message"]


# -- the bound itself ---------------------------------------------------------------------------------

def expansion(schema: dict) -> Uncheckable | None:
    return schema_expansion.expansion(schema_safety.validator(schema, DRAFT2020))


def test_the_bound_separates_doubling_from_ordinary_reuse():
    why = expansion(chain(DEPTH))
    assert why is not None and why.reason == EXPANDS and why.keyword == "$ref" and why.value.startswith("#/$defs/d")
    assert expansion(chain(10)) is None  # ~3,000 subschemas: checked (in well under 0.1 s)
    assert expansion(chain(13)) is not None
    assert expansion(TREE) is None
    # Members of `properties` go to different places of the value: a value must itself be 2**N
    # large to meet 2**N subschemas, so this is linear in the value and stays checkable.
    defs = {f"d{i}": {"properties": {"a": {"$ref": f"#/$defs/d{i + 1}"}, "b": {"$ref": f"#/$defs/d{i + 1}"}}}
            for i in range(DEPTH)}
    assert expansion({"$ref": "#/$defs/d0", "$defs": {**defs, f"d{DEPTH}": {}}}) is None
    # but the same refs applied in place to one member double again
    defs = {f"d{i}": {"properties": {"a": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]}}}
            for i in range(DEPTH)}
    assert expansion({"$ref": "#/$defs/d0", "$defs": {**defs, f"d{DEPTH}": {}}}) is not None
    # a large schema without $refs, or with each definition referenced once, is never over the bound
    assert expansion({"anyOf": [{"const": i} for i in range(30_000)]}) is None
    defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"type": "object"}]} for i in range(20_000)}
    assert expansion({"$ref": "#/$defs/d0", "$defs": {**defs, "d20000": {}}}) is None


def test_the_bound_is_linear_in_the_schema():
    # 100,000 subschemas, each definition referenced by the next twice: counted once each
    defs = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]} for i in range(33_000)}
    schema = {"$ref": "#/$defs/d0", "$defs": {**defs, "d33000": {"type": "string"}}}
    start = time.monotonic()
    assert expansion(schema) is not None
    wide = {"type": "object", "properties": {f"p{i}": {"type": "object", "properties": {
        f"q{j}": {"$ref": "#/$defs/leaf"} for j in range(10)}} for i in range(10_000)}, "$defs": {"leaf": {"type": "string"}}}
    assert expansion(wide) is None  # 110,000 subschemas and 100,000 $refs to one definition
    assert time.monotonic() - start < QUICK


def test_the_step_limit_raises_uncheckable():
    validator = schema_safety.validator(chain(12), DRAFT2020)
    with pytest.raises(Uncheckable) as raised:
        schema_safety.errors(validator, {"a": "x"}, steps=1_000)
    assert raised.value.reason == EXPANDS
    assert schema_safety.errors(validator, {"a": "x"}) == []  # within the default limit: checked
    assert schema_safety._STEPS[1] is None  # no limit left behind for later callers
