"""Fixes for what the hand review of 14 real servers found (fixtures/real-servers/REVIEW.md) that
the rule case files cannot show: the audit's own messages, and the misses found on the recordings."""

from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, run_mcplint
from test_audit_cli import http_server, send


def _turned_away(status: int, body: bytes, headers: dict) -> str:
    def respond(handler, _body):
        send(handler, status, body, {"Content-Type": "text/plain", **headers})

    with http_server(respond) as (url, _seen):
        proc = run_mcplint("audit", url, "--format", "json")
    # Turned away, nothing past initialize was audited: reported, then exit 2 (a green run had
    # audited nothing: round 10, playwright's Host check behind 127.0.0.1)
    assert proc.returncode == 2, proc.stderr.decode()
    assert json.loads(proc.stdout)["summary"]["audit"]["stopped"]
    return proc.stderr.decode()


def test_a_403_without_a_challenge_says_what_the_server_said_not_authentication():
    # playwright's Host check: "Access is only allowed at localhost:8814" is not a credentials problem.
    err = _turned_away(403, b"Access is only allowed at localhost:8814", {})
    assert "answered initialize with HTTP 403; it said 'Access is only allowed at localhost:8814'" in err
    assert "authentication" not in err and "--header" not in err


@pytest.mark.parametrize("status, headers", [(401, {}), (403, {"WWW-Authenticate": 'Bearer realm="mcp"'})])
def test_a_401_or_a_challenge_still_advises_a_token(status, headers):
    err = _turned_away(status, b"unauthorized\x1b[31m", headers)
    assert (f"answered initialize with HTTP {status}; it requires authentication: pass --header "
            "'Authorization: Bearer $TOKEN'; it said 'unauthorized\\x1b[31m'") in err


# Violations the review found mcplint missing (REVIEW.md, "Violations mcplint missed"), now reported
# on the real recordings: (file under fixtures/real-servers, rule, pointer).
MISSES = [
    ("kubernetes/kubernetes.jsonl", "MCP706", "/16/message/error/code"),  # unknown tool answered -32600
    ("notion/notion-http.jsonl", "MCP718", "/13/raw"),  # Express page, HTML-escaped Node stack
    ("sqlite/tools.json", "MCP411", "/tools/1"),  # write_query: "Execute an INSERT, UPDATE, or DELETE query"
]


@pytest.mark.parametrize("path, rule, pointer", MISSES, ids=[m[1] for m in MISSES])
def test_a_reviewed_miss_is_found(path, rule, pointer):
    proc = run_mcplint("check", path, "--select", rule, "--format", "json", cwd=FIXTURES / "real-servers")
    assert proc.returncode in (0, 1), proc.stderr.decode()
    assert [f["pointer"] for f in json.loads(proc.stdout)["findings"]] == [pointer]
