"""What reports call a server audited from the command line (``audit:<name>#message-<n>``):
the script, module or package the command starts, never an option's value or a bare `index`."""

from __future__ import annotations

import pytest

from mcplint.commands.audit import audit_name


@pytest.mark.parametrize("argv, name", [
    (["node", "/opt/node_modules/@modelcontextprotocol/server-memory/dist/index.js"], "server-memory"),
    (["python3", "server.py", "--tools", "3"], "server"),
    (["npx", "-y", "@modelcontextprotocol/server-memory"], "server-memory"),
    (["npx", "-y", "@upstash/context7-mcp@latest"], "context7-mcp"),
    (["uvx", "mcp-server-time"], "mcp-server-time"),
    (["python", "-m", "weather"], "weather"),
    (["/usr/bin/python3", "/x/fixtures/servers/wrong_error_codes.py"], "wrong_error_codes"),
    (["./bin/server"], "server"),
])
def test_audit_names_the_server_not_the_interpreter(argv, name):
    assert audit_name(None, argv) == name


def test_a_url_is_named_by_host_and_path():
    assert audit_name("http://127.0.0.1:8000/mcp/", []) == "127.0.0.1:8000/mcp"
