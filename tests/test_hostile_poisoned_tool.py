"""A poisoned tool gives the same security findings whichever way it reaches mcplint.

One tool dict (fixtures/servers/poisoned_tools.py: zero-width spaces, a bidi override, tag
characters, an emoji, an <IMPORTANT> injection block, an <img onerror>) is linted as a manifest,
a JSONL transcript and a HAR file, each written from that dict in the test, with its characters
raw or as \\uXXXX escapes (in a HAR body: escapes inside the JSON string inside the JSON), as a
base64 and an SSE HAR body, and as the tools/list of a real server under `mcplint audit` (stdio
and HTTP). The findings of MCP220 and MCP401-MCP403 must be the same for every form: same rules,
same count, same messages, at the same place inside the tool.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import sys
from collections import Counter

from conftest import run_mcplint
from servers import SERVERS, TAG_VARIABLE, HttpServer, new_tag, server_command, wait_for_no_orphans

SECURITY = {"MCP220", "MCP401", "MCP402", "MCP403"}
VERSION = "2025-06-18"
URL = "https://poisoned.example.com/mcp"


def _poisoned_tool() -> dict:
    """POISONED_TOOL from the fixture server's own module: the tool the audit is served."""
    sys.path.insert(0, str(SERVERS))  # the module imports stdlib_base from its folder
    try:
        spec = importlib.util.spec_from_file_location("poisoned_tools", SERVERS / "poisoned_tools.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SERVERS))
    return module.POISONED_TOOL


TOOL = _poisoned_tool()


def _exchanges() -> list[tuple[dict, dict | None]]:
    """(client message, server answer) of a session that lists the tool."""
    return [
        ({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
         {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": VERSION, "capabilities": {"tools": {}},
                                                "serverInfo": {"name": "poisoned", "version": "1.0.0"}}}),
        ({"jsonrpc": "2.0", "method": "notifications/initialized"}, None),
        ({"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
         {"jsonrpc": "2.0", "id": 2, "result": {"tools": [TOOL]}}),
    ]


def _escaped(value) -> str:
    """``value`` as JSON with every character of every string value a \\uXXXX escape (UTF-16
    code units: astral characters as surrogate pairs), ASCII letters included. Keys stay plain:
    the capture readers recognise a message by its literal "jsonrpc" key."""
    if isinstance(value, str):
        units = value.encode("utf-16-be")
        return '"' + "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2)) + '"'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {_escaped(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(_escaped, value)) + "]"
    return json.dumps(value)


def _dumps(value, how: str) -> str:
    """JSON text: "raw" characters, "ascii" (non-ASCII escaped) or "all" (every character escaped)."""
    return _escaped(value) if how == "all" else json.dumps(value, ensure_ascii=how == "ascii")


def _transcript(how: str) -> str:
    lines = []
    for request, answer in _exchanges():
        lines.append({"from": "client", "message": request})
        if answer is not None:
            lines.append({"from": "server", "message": answer})
    return "".join(_dumps(line, how) + "\n" for line in lines)


def _har(inner: str, outer: str, body: str = "json") -> str:
    """A HAR file of the session, its bodies' JSON written ``inner`` and the HAR file's own JSON
    ``outer`` (see ``_dumps``). ``body``: json, base64 or sse."""
    entries = []
    for second, (request, answer) in enumerate(_exchanges()):
        text = _dumps(answer, inner) if answer is not None else ""
        content = {"size": len(text), "mimeType": "application/json", "text": text}
        if body == "base64" and text:
            content.update(text=base64.b64encode(text.encode()).decode(), encoding="base64")
        elif body == "sse" and text:
            content.update(text=f"event: message\ndata: {text}\n\n", mimeType="text/event-stream")
        entries.append({
            "startedDateTime": f"2026-11-20T09:00:0{second}Z", "time": 1,
            "request": {"method": "POST", "url": URL, "httpVersion": "HTTP/1.1", "cookies": [], "queryString": [],
                        "headers": [{"name": "Content-Type", "value": "application/json"},
                                    {"name": "Accept", "value": "application/json, text/event-stream"}],
                        "headersSize": -1, "bodySize": -1,
                        "postData": {"mimeType": "application/json",
                                     "text": _dumps(request, inner)}},
            "response": {"status": 200 if answer is not None else 202, "statusText": "", "httpVersion": "HTTP/1.1",
                         "cookies": [], "headers": [{"name": "Content-Type", "value": content["mimeType"]}],
                         "content": content, "redirectURL": "", "headersSize": -1, "bodySize": -1},
            "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0},
        })
    har = {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": entries}}
    return _dumps(har, outer)


def _security(findings: list[dict]) -> Counter:
    """The security findings as (rule, message, pointer inside the tool), counted."""
    found = Counter()
    for finding in findings:
        if finding["rule"] in SECURITY:
            pointer = finding["pointer"]
            found[finding["rule"], finding["message"], pointer[pointer.index("/tools/0"):]] += 1
    return found


def test_the_poisoned_tool_gets_the_same_findings_as_manifest_transcript_har_and_audit(tmp_path):
    forms = {
        "manifest.json": _dumps({"tools": [TOOL]}, "raw"),
        "manifest-escaped.json": _dumps({"tools": [TOOL]}, "ascii"),
        "manifest-all-escaped.json": _dumps({"tools": [TOOL]}, "all"),
        "transcript.jsonl": _transcript("raw"),
        "transcript-escaped.jsonl": _transcript("ascii"),
        "transcript-all-escaped.jsonl": _transcript("all"),
        "raw.har": _har("raw", "raw"),
        "escaped-body.har": _har("ascii", "raw"),
        "escaped-file.har": _har("raw", "ascii"),
        "escaped-twice.har": _har("ascii", "ascii"),
        "all-escaped-body.har": _har("all", "raw"),
        "all-escaped-twice.har": _har("all", "all"),
        "base64.har": _har("ascii", "ascii", body="base64"),
        "sse.har": _har("ascii", "raw", body="sse"),
    }
    assert "\\\\u200b" in forms["escaped-twice.har"] and "\u200b" not in forms["escaped-twice.har"]
    assert "IMPORTANT" not in forms["all-escaped-body.har"] and "\\\\u0049\\\\u004d" in forms["all-escaped-body.har"]
    for name, text in forms.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    proc = run_mcplint("check", *sorted(forms), "--format", "json", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr.decode()[-2000:]
    findings = json.loads(proc.stdout)["findings"]
    by_file = {name: _security([f for f in findings if f["path"] == name]) for name in forms}

    tag = new_tag()
    audits = {"audit-stdio": run_mcplint("audit", "--format", "json", f"--env={TAG_VARIABLE}={tag}", "--",
                                         *server_command("poisoned_tools"))}
    assert wait_for_no_orphans(tag) == []
    server = HttpServer("poisoned_tools").start()
    try:
        audits["audit-http"] = run_mcplint("audit", "--format", "json", server.url)
    finally:
        server.stop()
    for name, audited in audits.items():
        assert audited.returncode in (0, 1), f"{name}: {audited.stderr.decode()[-2000:]}"
        by_file[name] = _security(json.loads(audited.stdout)["findings"])

    expected = by_file["manifest.json"]
    assert {rule for rule, _, _ in expected} == SECURITY
    assert sum(expected.values()) == 6  # title; description (MCP401-403); parameters a and note
    for name, found in by_file.items():
        assert found == expected, f"{name}: {sorted(found)} != {sorted(expected)}"
    for name, audited in audits.items():
        assert audited.returncode == 1, f"{name}: a poisoned tool must fail the audit (MCP401, MCP402 are errors)"


def test_a_manifest_without_source_text_is_still_checked():
    """A Manifest built from data alone (a plugin, or a page from some other input) has no text
    for the rules' fast pre-check to read: the rules must walk its tools, not skip them."""
    from mcplint import registry
    from mcplint.document.loader import Document
    from mcplint.document.manifest import Manifest
    from mcplint.document.pointer import Pointer
    from mcplint.rule import RuleContext

    manifest = Manifest(Document("built.json", "", {"tools": [TOOL]}, "json", None), "result", Pointer(("tools",)))
    found = set()
    for code in sorted(SECURITY):
        rule = registry.get(code)()
        ctx = RuleContext(VERSION, rule.Options(), "built.json", manifest)
        if list(rule.check(manifest, ctx)):
            found.add(code)
    assert found == SECURITY
