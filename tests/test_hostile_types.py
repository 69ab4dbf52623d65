"""A value of the wrong JSON type anywhere (an object where a method name, a role, a format or
an error code belongs) is judged, never an internal error.

The crashes found by a type-confusion sweep (every leaf of every rule case replaced with `{}`,
`[]` and a huge number in turn; 52,000 lints) are pinned below one by one, and a sample of the
sweep runs here so that a new rule meets it too."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from conftest import FIXTURES
from mcplint import config, engine
from mcplint.discovery import Target

PLAN = engine.Plan.build(config.load(None), None, ())
PLANS: dict[str | None, engine.Plan] = {None: PLAN}


def lint(tmp_path: Path, text: str, suffix: str, protocol: str | None = None) -> engine.Result:
    """Lint in-process; any exception but mcplint's own one-line errors fails the test."""
    if protocol not in PLANS:
        PLANS[protocol] = engine.Plan.build(config.load(None), None, (), protocol)
    path = tmp_path / f"doc{suffix}"
    path.write_text(text, encoding="utf-8")
    return engine.run([Target(str(path), True)], PLANS[protocol])


def jsonl(*records) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


CALL = {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                      "params": {"name": "a", "arguments": {}}}}
BIG = 10**400
V5_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}

CASES = {
    # a record without "from" whose method is an object: the sender is inferred from the method
    "sender inferred from an object method": (jsonl({"message": {"jsonrpc": "2.0", "method": {"x": 1}}}), None),
    # a tool's text that is a JSON array of would-be content blocks whose type is an object
    "double-encoded block with an object type": (jsonl(CALL, {"from": "server", "message": {
        "jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": '[{"type": {}, "text": "x"}]'}]}}}),
        None),
    "log level that is an object": (jsonl({"from": "server", "message": {
        "jsonrpc": "2.0", "method": "notifications/message", "params": {"level": {}, "data": "x"}}}), None),
    "input request whose method is an object": (jsonl(
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                       "params": {"name": "a", "arguments": {}, "_meta": V5_META}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {
            "resultType": "input_required", "inputRequests": {"r": {"method": {}, "params": {}}}}}}),
        "2026-07-28"),
    "header mismatch answered with an object code": (jsonl(
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": V5_META}},
         "http": {"method": "POST", "url": "http://127.0.0.1/mcp", "headers": {"MCP-Protocol-Version": "2026-07-28"}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {
            "resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "private"}},
         "http": {"status": 200, "headers": {"Content-Type": "application/json"}}},
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": V5_META}},
         "http": {"method": "POST", "url": "http://127.0.0.1/mcp", "headers": {"MCP-Protocol-Version": "2025-11-25"}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "error": {"code": {}, "message": "x"}},
         "http": {"status": 400, "headers": {"Content-Type": "application/json"}}}), None),
    # a ttlMs of 400 digits: float() of it overflows (MCP109 on tools/list, MCP641 on prompts/list)
    "ttlMs too big for a float": (jsonl(
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": V5_META}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {
            "resultType": "complete", "tools": [], "cacheScope": "public", "ttlMs": BIG}}},
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "prompts/list", "params": {"_meta": V5_META}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {
            "resultType": "complete", "prompts": [], "cacheScope": "public", "ttlMs": BIG}}}), "2026-07-28"),
}


@pytest.mark.parametrize("name", CASES)
def test_found_by_the_sweep(tmp_path, name):
    text, protocol = CASES[name]
    result = lint(tmp_path, text, ".jsonl", protocol)
    assert not result.errors, result.errors


@pytest.mark.parametrize("schema", [
    {"type": "string", "format": {"x": 1}, "x-mcp-header": "P"},  # a format that is an object
    {"type": [{}], "x-mcp-header": "P"},  # a type list holding an object
])
def test_header_parameters_of_the_wrong_type(tmp_path, schema):
    manifest = {"tools": [{"name": "a", "description": "Get a thing.",
                           "inputSchema": {"type": "object", "properties": {"p": schema}}}]}
    result = lint(tmp_path, json.dumps(manifest), ".json", "2026-07-28")
    assert not result.errors, result.errors
    assert result.files and result.files[0].path.endswith("doc.json")


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    else:
        yield path


def _replaced(value, path, new):
    value = copy.deepcopy(value)
    node = value
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    return value


def _sample_cases(every: int = 12):
    """Every ``every``-th JSON or JSONL rule case (by file and position), for the sampled sweep."""
    yaml = YAML(typ="safe")
    cases = []
    for path in sorted((FIXTURES / "rules").glob("*.yaml")):
        for index, case in enumerate(yaml.load(path.read_text(encoding="utf-8")).get("cases", [])):
            if case.get("format", "json") in ("json", "jsonl"):
                cases.append(pytest.param(case, id=f"{path.stem}-{index}"))
    return cases[::every]


@pytest.mark.parametrize("case", _sample_cases())
def test_sampled_sweep_every_leaf_as_an_object(tmp_path, case):
    protocol = case.get("protocol")
    if case.get("format") == "jsonl":
        lines = [line for line in case["doc"].splitlines() if line.strip()]
        for row, line in enumerate(lines):
            try:
                record = json.loads(line)
            except ValueError:
                continue
            for path in _leaves(record):
                if path:
                    changed = [*lines[:row], json.dumps(_replaced(record, path, {})), *lines[row + 1:]]
                    result = lint(tmp_path, "\n".join(changed) + "\n", ".jsonl", protocol)
                    assert len(result.files) + len(result.errors) == 1, (row, path)
    else:
        document = json.loads(case["doc"])
        for path in _leaves(document):
            if path:
                result = lint(tmp_path, json.dumps(_replaced(document, path, {})), ".json", protocol)
                assert len(result.files) + len(result.errors) == 1, path


def _har(content) -> str:
    request = {"method": "POST", "url": "http://127.0.0.1/mcp", "headers": [{"name": "Content-Type", "value": "application/json"}],
               "postData": {"mimeType": "application/json",
                            "text": json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})}}
    response = {"status": 200, "headers": [{"name": "Content-Type", "value": "text/event-stream"}], "content": content}
    return json.dumps({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"},
                               "entries": [{"request": request, "response": response}]}})


@pytest.mark.parametrize("content", [
    True,  # content that is not an object
    {"mimeType": 10**29, "text": 'data: {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}\n\n'},  # a number mimeType
    {"mimeType": {}, "text": 'data: {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}\n\n'},
])
def test_har_response_content_of_the_wrong_type(tmp_path, content):
    result = lint(tmp_path, _har(content), ".har")
    assert not result.errors, result.errors
    assert result.files and result.files[0].shape == "har"
