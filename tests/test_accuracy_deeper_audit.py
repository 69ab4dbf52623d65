"""Deeper audits with --call-read-only: the user's consent reaches read-only open-world tools,
and the valid-argument call sends values real servers accept.

- For real: `mcplint audit` against fixtures/servers/strict_arguments.py, whose read-only tools
  check a timezone, a UUID, an RFC 3339 date-time, country and language codes and a currency as
  strictly as real servers do, and write a marker per accepted call. One tool is open-world: it is
  called with --call-read-only and not without; it never receives the input-validation probes.
- A call refused for its placeholder arguments is reported as such in the probe's note.
- The gate and the plan: open-world read-only tools pass only the open-world check, and only for
  the valid-argument call; every other check still refuses; without the flag nothing changes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
from servers import TAG_VARIABLE, new_tag, server_command, wait_for_no_orphans

from conftest import ROOT
from mcplint.audit import call_gate, probes, safety
from mcplint.audit.arguments import valid_arguments
from mcplint.audit.session import Reply

AUDIT_TIMEOUT = 60
CLOSED_WORLD = {"get_time_in_zone", "get_record", "list_events", "get_holidays", "find_city"}
OPEN_WORLD = "get_exchange_rate"
ACCEPTABLE = {"get_time_in_zone", "get_record", "list_events", "get_holidays", OPEN_WORLD}
OPEN_REASON = "it may reach outside systems (openWorldHint is not false)"


def _audit(tmp_path, *options: str) -> tuple[set, set, dict]:
    """Audit the strict server for real: (tools called, tools whose arguments it accepted, the report)."""
    markers, tag = tmp_path / "markers", new_tag()
    markers.mkdir()
    env = {**{k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}, "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mcplint", "audit", "--format", "json", *options,
         f"--env=MCPLINT_ACCEPTED_MARKERS={markers}", f"--env={TAG_VARIABLE}={tag}",
         "--", *server_command("strict_arguments")],
        cwd=ROOT, capture_output=True, env=env, timeout=AUDIT_TIMEOUT)
    assert proc.returncode in (0, 1), proc.stderr.decode()[-3000:]
    assert wait_for_no_orphans(tag) == []
    names = [path.name for path in markers.iterdir()]
    called = {n.removesuffix(".called") for n in names if n.endswith(".called")}
    accepted = {n.removesuffix(".accepted") for n in names if n.endswith(".accepted")}
    report = json.loads(proc.stdout)
    return called, accepted, {**report["summary"]["audit"], "findings": report["findings"]}


def _probes(audit: dict) -> dict:
    return {probe["name"]: probe for probe in audit["probes"]}


# --- for real -------------------------------------------------------------------------------------
def test_open_world_tool_is_not_called_without_the_flag(tmp_path):
    called, accepted, audit = _audit(tmp_path)
    assert OPEN_WORLD not in called
    assert audit["tools_not_called"] == {OPEN_WORLD: OPEN_REASON}
    assert OPEN_WORLD not in _probes(audit)["input-validation"]["detail"]
    assert _probes(audit)["call-read-only"]["status"] == "skipped"


def test_call_read_only_calls_the_open_world_tool_and_sends_accepted_values(tmp_path):
    called, accepted, audit = _audit(tmp_path, "--call-read-only")
    assert called == CLOSED_WORLD | {OPEN_WORLD}
    assert accepted == ACCEPTABLE, f"rejected: {sorted(ACCEPTABLE - accepted)}"
    assert audit["tools_not_called"] == {}
    found = _probes(audit)
    assert OPEN_WORLD not in found["input-validation"]["detail"]  # its probes keep today's rule
    notes = dict(note.split(": ", 1) for note in found["call-read-only"]["detail"].split("; "))
    assert notes == {**{name: "result" for name in ACCEPTABLE},
                     "find_city": "isError result (rejected its placeholder arguments)"}


def test_rejected_placeholder_is_no_server_fault(tmp_path):
    """find_city refuses the placeholder with a clear isError result: the server is compliant,
    so the audit, whose transcript has that call, finds nothing at all."""
    _, _, audit = _audit(tmp_path, "--call-read-only")
    assert "find_city: isError result" in _probes(audit)["call-read-only"]["detail"]
    assert audit["findings"] == []


# --- the gate and the plan ------------------------------------------------------------------------
def _tool(name, annotations, description="Get the rate of a currency."):
    return {"name": name, "description": description, "annotations": annotations,
            "inputSchema": {"type": "object", "properties": {"currency": {"type": "string"}}, "required": ["currency"]}}


OPEN = [_tool("get_rate", {"readOnlyHint": True, "openWorldHint": True}), _tool("get_quote", {"readOnlyHint": True})]


def test_open_world_passes_the_gate_only_when_consented():
    for found in OPEN:
        assert call_gate.call_refusal(found) == OPEN_REASON
        assert call_gate.call_refusal(found, open_world_ok=True) is None


@pytest.mark.parametrize("found,reason", [
    (_tool("wipe_rates", {"readOnlyHint": True}), "name part 'wipe' implies a side effect"),
    (_tool("get_rate", {"openWorldHint": True}), "it does not claim readOnlyHint: true"),
    (_tool("get_rate", {"readOnlyHint": True}, "Get the rate, then permanently remove it."),
     "description says 'permanently remove'"),
], ids=["effect-name", "not-read-only", "effect-description"])
def test_every_other_check_still_refuses(found, reason):
    assert call_gate.call_refusal(found, open_world_ok=True) == reason
    plan = safety.plan_calls([found], call_read_only=True)
    assert plan.call == [] and plan.skipped() == {found["name"]: reason}


def test_plan_without_the_flag_is_unchanged():
    plan = safety.plan_calls(OPEN)
    assert plan.call == [] and plan.validate == []
    assert plan.skipped() == {"get_rate": OPEN_REASON, "get_quote": OPEN_REASON}


def test_plan_with_the_flag_calls_but_does_not_probe_open_world_tools():
    closed = _tool("get_price", {"readOnlyHint": True, "openWorldHint": False})
    plan = safety.plan_calls([*OPEN, closed], call_read_only=True)
    assert [d.name for d in plan.call] == ["get_rate", "get_quote", "get_price"]
    assert [d.name for d in plan.validate] == ["get_price"]
    assert plan.skipped() == {}
    assert [d.name for d in plan.call if d.open_world] == ["get_rate", "get_quote"]


def test_the_rate_limit_burst_never_targets_an_open_world_tool():
    """A burst of N calls to a tool that reaches outside systems is not what the user consented to."""
    sent = []

    def request(method, params=None, **options):
        sent.append(method)
        return Reply(message={"jsonrpc": "2.0", "id": 1, "result": {}})

    plan = safety.plan_calls(OPEN, call_read_only=True)
    audit = SimpleNamespace(plan=plan, settings=SimpleNamespace(allow_calls=[]), timeout=1.0,
                            session=SimpleNamespace(era="handshake"), request=request)
    note = probes.rate_limit(audit, 3)
    assert sent == ["ping"] * 3 and "pings are not tool calls" in note


# --- arguments ------------------------------------------------------------------------------------
def _schema(**properties):
    return {"type": "object", "properties": properties, "required": list(properties)}


@pytest.mark.parametrize("name,schema,value", [
    ("timezone", {"type": "string"}, "UTC"),
    ("timeZone", {"type": "string"}, "UTC"),
    ("tz", {}, "UTC"),
    ("language", {"type": "string"}, "en"),
    ("locale", {"type": "string"}, "en"),
    ("currency_code", {"type": "string"}, "USD"),
    ("country", {"type": ["string", "null"]}, "US"),
    ("country_code", {"type": "string", "pattern": "^[A-Z]{2}$"}, "US"),
    ("when", {"type": "string", "format": "date-time"}, "2024-01-01T00:00:00Z"),
    ("day", {"type": "string", "format": "date"}, "2024-01-01"),
    ("at", {"type": "string", "format": "time"}, "00:00:00Z"),
    ("ref", {"format": "uuid"}, "00000000-0000-4000-8000-000000000000"),
    ("home", {"type": "string", "format": "uri"}, "https://example.com"),
    ("contact", {"type": "string", "format": "email"}, "user@example.com"),
    ("addr", {"type": "string", "format": "ipv4"}, "192.0.2.1"),
    # what the schema says comes first; a well-known value that does not fit gives way
    ("timezone", {"type": "string", "enum": ["Europe/Lisbon"]}, "Europe/Lisbon"),
    ("language", {"type": "string", "default": "pt"}, "pt"),
    ("currency", {"type": "string", "examples": ["EUR"]}, "EUR"),
    ("timezone", {"type": "string", "format": "uuid"}, "00000000-0000-4000-8000-000000000000"),
    ("language", {"type": "string", "minLength": 3}, "example"),
    ("lang", {"type": "string", "maxLength": 1}, "e"),
    ("timezone", {"type": "integer"}, 1),
    ("query", {"type": "string"}, "example"),
])
def test_valid_arguments_use_values_servers_accept(name, schema, value):
    assert valid_arguments(_schema(**{name: schema})) == {name: value}


@pytest.mark.parametrize("schema", [
    _schema(timezone={"format": ["uuid"]}), _schema(**{"x" * 10_000: {"type": "string"}}),
    _schema(timezone={"type": "string", "maxLength": -1}),
    {"type": "object", "properties": {"tz": None}, "required": ["tz"]},
])
def test_valid_arguments_never_raise(schema):
    found = valid_arguments(schema)
    assert found is None or isinstance(found, dict)


# --- a call refused for its arguments -------------------------------------------------------------
def _is_error(text):
    result = {"content": [{"type": "text", "text": text}], "isError": True}
    return Reply(message={"jsonrpc": "2.0", "id": 1, "result": result})


@pytest.mark.parametrize("reply,rejected", [
    (Reply(message={"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Invalid params"}}), True),
    (Reply(message={"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "Unknown timezone 'x'"}}), True),
    (_is_error("Invalid arguments for tool get_time: timezone must be an IANA name"), True),
    (_is_error("Validation error: since: not a valid date-time"), True),
    (_is_error("No such city: example"), True),
    (_is_error("The rates service timed out; try again later"), False),
    (Reply(message={"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "Internal error"}}), False),
    (Reply(message={"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "invalid"}]}}), False),
    (Reply(message=None, timed_out=True), False),
    (Reply(message={"jsonrpc": "2.0", "id": 1, "result": {"isError": True, "content": "invalid"}}), False),
], ids=lambda v: None if isinstance(v, bool) else "")
def test_rejected_arguments(reply, rejected):
    assert probes.rejected_arguments(reply) is rejected
