"""The JSON-RPC loop the gate test servers share: initialize, tools/list, ping and tools/call
(answered by the server's own ``call``), over newline-delimited stdio."""

import json
import os
import sys


def obj(props=None, req=None) -> dict:
    """An object schema with these properties and required names (either may be left out)."""
    schema = {"type": "object"}
    if props is not None:
        schema["properties"] = props
    if req is not None:
        schema["required"] = req
    return schema


def log(variable: str, text: str) -> None:
    """Append a line to the file the environment variable names, if any."""
    path = os.environ.get(variable)
    if path:
        with open(path, "a") as f:
            f.write(text + "\n")


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(name: str, tools: list, call) -> None:
    """Answer stdin until it ends; ``call(params)`` gives a tools/call result, or None for an unknown tool."""
    for line in sys.stdin:
        try:
            m = json.loads(line)
        except ValueError:
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        if not isinstance(m, dict) or not isinstance(m.get("method"), str):
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}})
            continue
        mid, method, params = m.get("id"), m["method"], m.get("params") or {}
        if mid is None:
            continue
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                                                          "serverInfo": {"name": name, "version": "1"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": tools}})
        elif method == "tools/call":
            result = call(params)
            if result is None:
                send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32602, "message": "Unknown tool"}})
            else:
                send({"jsonrpc": "2.0", "id": mid, "result": result})
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": mid, "result": {}})
        else:
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "Method not found"}})
