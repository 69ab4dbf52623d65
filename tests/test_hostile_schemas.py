"""Hostile tool schemas: evaluating them never fetches, never hangs, never crashes.

A server controls the schemas mcplint validates recorded arguments and structured content
against. A `$ref` to `http://...` must not be fetched (a listener on 127.0.0.1 that records
every connection and never answers would hang mcplint), nor a `file://` one (a FIFO blocks,
/dev/zero never ends); a catastrophic `pattern` must not stall the check. Each case is run
as a user runs it (`mcplint check`, `mcplint audit` as subprocesses, bounded in time and
memory) and must end quickly with the finding that says what could not be checked.
"""

from __future__ import annotations

import json
import math
import os
import resource
import socket
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT
from mcplint import schema_safety
from mcplint.audit import arguments
from mcplint.schema_safety import COSTLY_PATTERN, EXTERNAL_REF, Uncheckable
from servers import TAG_VARIABLE, new_tag, orphans, server_command

RUN_TIMEOUT = 40  # hard bound on one mcplint run: a hang fails the test, it never hangs the suite
QUICK = 15  # what "finishes quickly" means here, with room for a loaded machine
MEMORY = 2 << 30  # address space of an mcplint run: /dev/zero read into memory fails fast, harms nobody


class Listener:
    """A TCP server on 127.0.0.1 that accepts and records every connection and never answers."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.1)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.connections: list = []
        self._open: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, peer = self.sock.accept()
            except (socket.timeout, OSError):
                continue
            self.connections.append(peer)
            self._open.append(conn)  # held open, never read or answered

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for conn in self._open:
            conn.close()
        self.sock.close()


@pytest.fixture
def listener():
    server = Listener()
    try:
        yield server
    finally:
        server.close()


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(*args: str) -> tuple[subprocess.CompletedProcess, float]:
    """`python -m mcplint ARGS` bounded in time and memory; (process, seconds)."""
    env = {**{k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}, "NO_COLOR": "1", "COLUMNS": "100"}
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "mcplint", *args], cwd=ROOT, capture_output=True, env=env,
                              timeout=RUN_TIMEOUT, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mcplint {' '.join(args[:2])} did not finish in {RUN_TIMEOUT} s")
    return proc, time.monotonic() - started


def findings(proc: subprocess.CompletedProcess) -> list[dict]:
    assert proc.returncode in (0, 1), f"exit {proc.returncode}: {proc.stderr.decode()[-2000:]}"
    return json.loads(proc.stdout)["findings"]


def messages_at(found: list[dict], code: str) -> dict[str, str]:
    return {f["pointer"]: f["message"] for f in found if f["rule"] == code}


# -- transcripts and HAR files with a hostile tool --------------------------------------------

def exchanges(input_schema: dict, output_schema: dict | None, args: dict, structured: dict | None) -> list:
    """(request, response) pairs: initialize, tools/list with tool 'probe', one successful call."""
    tool = {"name": "probe", "description": "Look up a record by its identifier.", "inputSchema": input_schema}
    if output_schema is not None:
        tool["outputSchema"] = output_schema
    result: dict = {"content": [{"type": "text", "text": json.dumps(structured if structured is not None else "ok")}]}
    if structured is not None:
        result["structuredContent"] = structured
    return [
        ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}},
         {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                                                "serverInfo": {"name": "s", "version": "1"}}}),
        ({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, {"jsonrpc": "2.0", "id": 2, "result": {"tools": [tool]}}),
        ({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "probe", "arguments": args}},
         {"jsonrpc": "2.0", "id": 3, "result": result}),
    ]


def write_jsonl(path, pairs) -> str:
    lines = []
    for request, response in pairs:
        lines.append(json.dumps({"from": "client", "message": request}))
        lines.append(json.dumps({"from": "server", "message": response}))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def write_har(path, pairs) -> str:
    def entry(request, response):
        return {"startedDateTime": "2026-11-20T09:00:00Z", "time": 1,
                "request": {"method": "POST", "url": "https://mcp.example.com/mcp", "httpVersion": "HTTP/1.1",
                            "cookies": [], "queryString": [], "headersSize": -1, "bodySize": -1,
                            "headers": [{"name": "Content-Type", "value": "application/json"},
                                        {"name": "Accept", "value": "application/json, text/event-stream"}],
                            "postData": {"mimeType": "application/json", "text": json.dumps(request)}},
                "response": {"status": 200, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [],
                             "headers": [{"name": "Content-Type", "value": "application/json"}],
                             "content": {"size": -1, "mimeType": "application/json", "text": json.dumps(response)},
                             "redirectURL": "", "headersSize": -1, "bodySize": -1},
                "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"},
                                        "entries": [entry(q, r) for q, r in pairs]}}))
    return str(path)


TOOLS = "/3/message/result/tools/0"  # the tools/list result in a transcript (line 4)


def ref_pairs(ref: str) -> list:
    return exchanges({"type": "object", "properties": {"id": {"$ref": ref}}, "required": ["id"]},
                     {"type": "object", "properties": {"place": {"$ref": ref}}}, {"id": 5}, {"place": "Oslo"})


def assert_external_ref_reported(found: list[dict], ref: str) -> None:
    inputs = {p: m for p, m in messages_at(found, "MCP713").items() if p.endswith("/inputSchema/properties/id/$ref")}
    outputs = {p: m for p, m in messages_at(found, "MCP721").items()
               if p.endswith("/outputSchema/properties/place/$ref")}
    assert len(inputs) == 1 and len(outputs) == 1, found
    for message in (*inputs.values(), *outputs.values()):
        assert message.startswith(EXTERNAL_REF) and json.dumps(ref)[:50] in message  # (long refs are shortened)


def test_http_ref_is_never_fetched(tmp_path, listener):
    ref = f"{listener.url}/x.json"
    proc, seconds = run("check", write_jsonl(tmp_path / "t.jsonl", ref_pairs(ref)), "--format", "json")
    assert_external_ref_reported(findings(proc), ref)
    assert listener.connections == []
    assert seconds < QUICK


def test_http_ref_in_a_har_file_is_never_fetched(tmp_path, listener):
    ref = f"{listener.url}/schemas/id.json"
    proc, seconds = run("check", write_har(tmp_path / "t.har", ref_pairs(ref)), "--format", "json")
    assert_external_ref_reported(findings(proc), ref)
    assert listener.connections == []
    assert seconds < QUICK


def test_file_ref_to_a_fifo_is_never_opened(tmp_path):
    fifo = tmp_path / "schema.fifo"
    os.mkfifo(fifo)
    ref = f"file://{fifo}"
    proc, seconds = run("check", write_jsonl(tmp_path / "t.jsonl", ref_pairs(ref)), "--format", "json")
    assert_external_ref_reported(findings(proc), ref)
    assert seconds < QUICK


def test_file_ref_to_dev_zero_is_never_read(tmp_path):
    ref = "file:///dev/zero"
    proc, seconds = run("check", write_jsonl(tmp_path / "t.jsonl", ref_pairs(ref)), "--format", "json")
    assert_external_ref_reported(findings(proc), ref)
    assert seconds < QUICK


def test_in_document_refs_are_still_followed(tmp_path, listener):
    """$defs, an embedded $id and a metaschema ref resolve without any fetch; a bad value is still caught."""
    schema = {"$id": f"{listener.url}/root.json", "type": "object",
              "properties": {"id": {"$ref": "#/$defs/id"}, "code": {"$ref": "code.json"}},
              "$defs": {"id": {"type": "integer"}, "code": {"$id": "code.json", "type": "string"}}}
    pairs = exchanges(schema, {"$ref": "http://json-schema.org/draft-07/schema#"}, {"id": "five", "code": 3},
                      {"type": "object"})
    found = findings(run("check", write_jsonl(tmp_path / "t.jsonl", pairs), "--format", "json")[0])
    (message,) = messages_at(found, "MCP713").values()
    assert "succeeded although its arguments violate its inputSchema" in message
    assert messages_at(found, "MCP721") == {}
    assert listener.connections == []


# -- patterns ---------------------------------------------------------------------------------

def test_classic_catastrophic_pattern_is_judged_at_once(tmp_path):
    """`^(a+)+$` takes 2^40 steps in Python's re on 40 a's and a '!'; the regex engine answers at once."""
    pairs = exchanges({"type": "object", "properties": {"tag": {"type": "string", "pattern": "^(a+)+$"}}},
                      None, {"tag": "a" * 40 + "!"}, None)
    proc, seconds = run("check", write_jsonl(tmp_path / "t.jsonl", pairs), "--format", "json")
    (message,) = messages_at(findings(proc), "MCP713").values()
    assert "does not match '^(a+)+$'" in message
    assert seconds < QUICK


def test_patterns_too_costly_are_reported_not_run_forever(tmp_path):
    """Backtracking that defeats the regex engine too: each match stops after 0.1 s."""
    pairs = exchanges({"type": "object", "properties": {"tag": {"type": "string", "pattern": "^(a|aa)+$"}}},
                      {"type": "object", "patternProperties": {"^(b|bb)+$": {"type": "integer"}},
                       "additionalProperties": False},
                      {"tag": "a" * 60 + "!"}, {"b" * 80 + "!": 1})
    proc, seconds = run("check", write_jsonl(tmp_path / "t.jsonl", pairs), "--format", "json")
    found = findings(proc)
    inputs = messages_at(found, "MCP713")
    outputs = messages_at(found, "MCP721")
    assert list(inputs) == [f"{TOOLS}/inputSchema/properties/tag/pattern"]
    assert list(outputs) == [f"{TOOLS}/outputSchema/patternProperties/^(b|bb)+$"]
    assert all(m.startswith(COSTLY_PATTERN) for m in (*inputs.values(), *outputs.values()))
    assert seconds < QUICK


def test_a_costly_pattern_costs_one_timeout_per_run(tmp_path):
    """Many calls with the same catastrophic pattern: one 0.1 s timeout, then known costly; one finding."""
    first = exchanges({"type": "object", "properties": {"tag": {"type": "string", "pattern": "^(c|cc)+$"}}},
                      None, {"tag": "c" * 60 + "!"}, None)
    calls = [({"jsonrpc": "2.0", "id": 100 + i, "method": "tools/call",
               "params": {"name": "probe", "arguments": {"tag": "c" * 60 + "!"}}},
              {"jsonrpc": "2.0", "id": 100 + i, "result": {"content": [{"type": "text", "text": "ok"}]}})
             for i in range(300)]
    proc, seconds = run("check", write_jsonl(tmp_path / "t.jsonl", first + calls), "--format", "json",
                        "--select", "MCP713")
    assert len(messages_at(findings(proc), "MCP713")) == 1
    assert seconds < QUICK


def test_manifest_pattern_properties_do_not_hang_required_check(tmp_path):
    manifest = {"tools": [{"name": "probe", "description": "Look up a record by its identifier.", "inputSchema": {
        "type": "object", "patternProperties": {"^(a|aa)+$": {"type": "string"}}, "additionalProperties": False,
        "required": ["a" * 60 + "!"]}}]}
    (tmp_path / "m.json").write_text(json.dumps(manifest))
    proc, seconds = run("check", str(tmp_path / "m.json"), "--format", "json")
    assert findings(proc) is not None and seconds < QUICK


def test_search_budgets():
    started = time.monotonic()
    with pytest.raises(Uncheckable, match="repetition counts"):
        schema_safety.search("^(?:(?:(?:a{100}){100}){100}){100}$", "a")  # the regex module would unroll 10^8
    with pytest.raises(Uncheckable, match="characters"):
        schema_safety.search("^[a-z]*$", "a" * (schema_safety.MAX_SUBJECT + 1))
    with pytest.raises(Uncheckable, match="took over"):
        schema_safety.search("^(d|dd)+$", "d" * 60 + "!")
    again = time.monotonic()
    with pytest.raises(Uncheckable):
        schema_safety.search("^(d|dd)+$", "d")  # known costly: not run again
    assert time.monotonic() - again < 0.05
    assert time.monotonic() - started < 5
    assert schema_safety.search(r"^\p{L}+$", "Zoë") and schema_safety.search("^(?<y>[0-9]{4})$", "2024")
    with pytest.raises(ValueError):
        schema_safety.search("(unclosed", "x")


def test_external_refs_are_found_without_resolving_anything():
    schema = {"$id": "https://example.com/root.json", "type": "object", "properties": {
        "a": {"$ref": "#/$defs/a"}, "b": {"$ref": "inner.json"}, "c": {"$ref": "other.json#/x"},
        "d": {"$ref": "http://127.0.0.1:9/d.json"}, "e": {"$ref": "file:///dev/zero"},
        "f": {"$ref": "http://json-schema.org/draft-07/schema#"}},
        "$defs": {"a": {"type": "string"}, "i": {"$id": "inner.json", "type": "string"}}}
    assert sorted(ref for _, ref in schema_safety.external_refs(schema)) == [
        "file:///dev/zero", "http://127.0.0.1:9/d.json", "other.json#/x"]


# -- the audit --------------------------------------------------------------------------------

def test_audit_never_fetches_schema_refs(listener):
    tag = new_tag()
    proc, seconds = run("audit", "--call-read-only", "--format", "json", f"--env={TAG_VARIABLE}={tag}", "--",
                        *server_command("hostile_schema_refs", "--ref-base", listener.url))
    report = json.loads(proc.stdout)
    assert proc.returncode in (0, 1), proc.stderr.decode()[-2000:]
    assert listener.connections == []
    assert seconds < QUICK + 10
    assert orphans(tag) == []
    found = report["findings"]
    assert any(m.startswith(EXTERNAL_REF) and "get_forecast" in m for m in messages_at(found, "MCP713").values())
    assert {p.rsplit("/tools/", 1)[1] for p, m in messages_at(found, "MCP721").items() if m.startswith(EXTERNAL_REF)} \
        == {"1/outputSchema/properties/place/$ref", "2/outputSchema/properties/data/$ref"}
    (called,) = [p["detail"] for p in report["summary"]["audit"]["probes"] if p["name"] == "call-read-only"]
    assert f"lookup_place: not called ({EXTERNAL_REF}" in called
    assert f"get_label: not called ({COSTLY_PATTERN}" in called


# -- the audit's argument builder: any JSON as a schema -----------------------------------------

HOSTILE_SHAPES = [
    {"type": ["string", "integer"]}, {"type": []}, {"type": 5}, {"type": ["nonsense"]},
    {"properties": [1, 2], "required": ["a"]}, {"properties": "x", "required": "a"}, {"required": [1, None, "a"]},
    {"enum": []}, {"enum": "abc"}, {"const": None}, {"minLength": 5, "maxLength": 2}, {"type": "string", "minLength": 10**12},
    {"type": "string", "minLength": 1.5}, {"type": "string", "maxLength": -3}, {"type": "array", "minItems": 10**9},
    {"type": "array", "minItems": True}, {"type": "array", "minItems": 3, "maxItems": 1},
    {"type": "array", "minItems": 16, "items": {"type": "array", "minItems": 16, "items": {"type": "array", "minItems": 16,
                                                "items": {"type": "array", "minItems": 16}}}},
    {"$ref": "#"}, {"$ref": "#/properties/p"}, {"$ref": 5}, {"$ref": "#/$defs/0"}, {"$defs": [], "$ref": "#/$defs/0"},
    {"allOf": [True, False, 1, {"required": 7}, {"required": "ab"}]}, {"anyOf": []}, {"oneOf": [True, 1, None]},
    {"not": True}, True, False, None, 0, [], "string",
    {"type": "string", "pattern": 5}, {"type": "string", "pattern": "(?:a{1000}){1000}"}, {"type": "string", "pattern": "["},
    {"type": "number", "minimum": math.nan}, {"type": "number", "exclusiveMinimum": math.inf},
    {"type": "integer", "maximum": -math.inf}, {"type": "integer", "multipleOf": 1e-300, "minimum": 1e300},
    {"type": "integer", "multipleOf": "x", "exclusiveMinimum": 3}, {"type": "integer", "minimum": 10**400},
    {"type": "number", "exclusiveMaximum": 10**400, "exclusiveMinimum": 10**400},
]


@pytest.mark.parametrize("shape", HOSTILE_SHAPES, ids=[json.dumps(s, default=str)[:60] for s in HOSTILE_SHAPES])
def test_argument_builder_survives(shape):
    for schema in (shape, {"type": "object", "properties": {"p": shape}, "required": ["p"]}):
        check_builder(schema)


def check_builder(schema) -> None:
    started = time.monotonic()
    built = arguments.valid_arguments(schema)
    cases = arguments.invalid_cases(schema)
    reason = arguments.unbuildable_reason(schema)
    assert built is None or isinstance(built, dict)
    assert isinstance(reason, str) and reason
    assert all(isinstance(label, str) and isinstance(args, dict) for label, args in cases)
    assert len(json.dumps([built, cases], default=repr)) < 1_000_000  # bounded, whatever the schema asks
    assert time.monotonic() - started < 2


_TYPES = ["object", "array", "string", "integer", "number", "boolean", "null"]
_SCALARS = (st.none() | st.booleans() | st.integers(-10**6, 10**20) | st.floats()
            | st.sampled_from([*_TYPES, "#", "#/$defs/p", "#/properties/p", "http://127.0.0.1:9/x", "^(a|a)+$", "[",
                               "date", "uri", "p"]))
_JUNK = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                          max_size=3), max_leaves=8)
_NUMBER = st.integers(-10**6, 10**20) | st.floats() | _JUNK
_COUNT = st.integers(-2, 40) | st.sampled_from([10**9, 10**12]) | st.floats() | _JUNK
_NAMES = st.lists(st.sampled_from(["p", "q", "r"]) | _SCALARS, max_size=4) | _JUNK


def _schemas(inner):
    """Schemas whose keywords mostly carry values of the right kind (so the builder goes deep), and
    sometimes anything at all."""
    children = st.dictionaries(st.sampled_from(["p", "q", "r"]), inner, max_size=3)
    return inner | st.lists(inner, max_size=3) | st.fixed_dictionaries({}, optional={
        "type": st.sampled_from(_TYPES) | st.lists(st.sampled_from(_TYPES), max_size=3) | _JUNK,
        "properties": children | _JUNK, "required": _NAMES, "$defs": children | _JUNK,
        "items": inner, "prefixItems": st.lists(inner, max_size=3) | _JUNK, "anyOf": st.lists(inner, max_size=3),
        "oneOf": st.lists(inner, max_size=3), "allOf": st.lists(inner, max_size=3), "not": inner,
        "$ref": st.sampled_from(["#", "#/$defs/p", "#/$defs/q", "#/properties/p", "#/items", "other.json"]) | _JUNK,
        "enum": st.lists(_SCALARS, max_size=2) | _JUNK, "const": _JUNK, "default": _JUNK,
        "minLength": _COUNT, "maxLength": _COUNT, "minItems": _COUNT, "maxItems": _COUNT,
        "uniqueItems": st.booleans() | _JUNK, "pattern": st.sampled_from(["^[a-z]+$", "^(a|aa)+$", "a{3}", "["]) | _JUNK,
        "format": st.sampled_from(["date", "uri", "email"]) | _JUNK,
        "minimum": _NUMBER, "maximum": _NUMBER, "exclusiveMinimum": _NUMBER, "exclusiveMaximum": _NUMBER,
        "multipleOf": _NUMBER,
    })


_SCHEMA = st.recursive(_SCALARS, _schemas, max_leaves=20)


@settings(max_examples=300, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(_SCHEMA)
def test_argument_builder_fuzz(schema):
    check_builder(schema)
    check_builder({"type": "object", "properties": {"p": schema}, "required": ["p"]})
