"""A realistic Streamable HTTP transcript of any length, for the capture benchmark.

One 2025-11-25 session: initialize, tools/list with 20 tools (some with an
outputSchema), then tools/call exchanges until the message count is reached: text
results, structured results mirrored as text, tool errors (isError), invalid-params
errors, unknown tools and progress notifications, so every traffic rule has work.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

URL = "http://127.0.0.1:8931/mcp"
SESSION = "7f3c2a9e4b1d4c6f8e0a2b3c4d5e6f70"
WORDS = ("forecast temperature humidity wind pressure station reading sensor hourly daily "
         "average report region city coast mountain valley river").split()


def tools() -> list[dict]:
    found = []
    for i in range(20):
        tool = {
            "name": f"get_reading_{i}",
            "title": f"Get reading {i}",
            "description": "Get the latest reading of a weather station by its id.",
            "inputSchema": {
                "type": "object",
                "properties": {"station_id": {"type": "string", "description": "Station id, e.g. KSFO."},
                               "hours": {"type": "integer", "minimum": 1, "maximum": 48,
                                         "description": "How many hours back."}},
                "required": ["station_id"],
                "additionalProperties": False,
            },
            "annotations": {"readOnlyHint": True, "openWorldHint": False},
        }
        if i % 2 == 0:
            tool["outputSchema"] = {"type": "object", "properties": {
                "station": {"type": "string"}, "celsius": {"type": "number"}}, "required": ["station", "celsius"]}
        found.append(tool)
    return found


def _client(message, rng=None) -> str:
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "Mcp-Session-Id": SESSION, "MCP-Protocol-Version": "2025-11-25"}
    return json.dumps({"from": "client", "message": message, "http": {"method": "POST", "url": URL, "headers": headers}})


def _server(message, status=200) -> str:
    headers = {"Content-Type": "application/json", "Mcp-Session-Id": SESSION}
    return json.dumps({"from": "server", "message": message, "http": {"status": status, "headers": headers}})


def write(path: Path, messages: int, seed: int = 7) -> Path:
    rng = random.Random(seed)
    listed = tools()
    lines = [
        _client({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}),
        _server({"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
            "serverInfo": {"name": "weather", "version": "1.0.0"}}}),
        _client({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        _server(None, 202),
        _client({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        _server({"jsonrpc": "2.0", "id": 1, "result": {"tools": listed}}),
    ]
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
        count, request_id = len(lines), 2
        while count < messages:
            tool = listed[rng.randrange(len(listed))]
            args = {"station_id": f"K{rng.randrange(1000):03d}", "hours": rng.randrange(1, 49)}
            kind = rng.random()
            if kind < 0.02:
                tool, args = {"name": "no_such_tool"}, {}
            elif kind < 0.04:
                args = {"station_id": 42}
            call = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                    "params": {"name": tool["name"], "arguments": args, "_meta": {"progressToken": request_id}}}
            out.write(_client(call) + "\n")
            text = " ".join(rng.choice(WORDS) for _ in range(52))
            if kind < 0.02:
                reply = {"jsonrpc": "2.0", "id": request_id, "error": {
                    "code": -32602, "message": "Unknown tool: no_such_tool"}}
            elif kind < 0.04:
                reply = {"jsonrpc": "2.0", "id": request_id, "result": {"isError": True, "content": [
                    {"type": "text", "text": "Invalid arguments: 'station_id' must be a string, got 42"}]}}
            elif "outputSchema" in tool:
                data = {"station": args["station_id"], "celsius": round(rng.uniform(-20, 40), 1)}
                reply = {"jsonrpc": "2.0", "id": request_id, "result": {
                    "content": [{"type": "text", "text": json.dumps(data)}], "structuredContent": data}}
            else:
                reply = {"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": text}]}}
            if kind > 0.9:
                progress = {"jsonrpc": "2.0", "method": "notifications/progress",
                            "params": {"progressToken": request_id, "progress": 0.5, "total": 1}}
                out.write(_server(progress) + "\n")
                count += 1
            out.write(_server(reply) + "\n")
            count += 2
            request_id += 1
    return path


if __name__ == "__main__":
    import sys

    target = write(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 200_000)
    print(f"{target}: {target.stat().st_size / 1e6:.1f} MB")
