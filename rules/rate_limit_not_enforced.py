from mcplint.capture.http import request_of
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

MIN_BURST = 20  # fewer requests prove nothing: any sane limit allows a handful


class RateLimitNotEnforced(TrafficRule):
    """A burst of requests from a live audit's rate-limit probe was never throttled.

    ## Why
    Servers must rate-limit tool invocations: an agent in a loop, or an attacker with a
    token, can otherwise exhaust the server and every backend it calls. The requirement
    is about tool invocations, so only the `tools/call` requests of a burst recorded with
    `"probe": "rate-limit"` count: when at least 20 were sent and none was answered with
    `429` (with `Retry-After`) or a JSON-RPC error, the server showed no sign of a limit.
    A burst of pings or lists says nothing about tool calls (a server may well limit only
    those) and is not judged, though a throttled one shows a limit exists. Ordinary
    traffic never triggers this rule.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 101, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 101, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 102, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 102, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 103, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 103, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 104, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 104, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 105, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 105, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 106, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 106, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 107, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 107, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 108, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 108, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 109, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 109, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 110, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 110, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 111, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 111, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 112, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 112, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 113, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 113, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 114, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 114, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 115, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 115, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 116, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 116, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 117, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 117, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 118, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 118, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 119, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 119, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 120, "method": "tools/call", "params": {"name": "get_time", "arguments": {}}}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 120, "result": {"content": [{"type": "text", "text": "12:00"}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 101, "method": "ping"}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 101, "result": {}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 102, "method": "ping"}, "probe": "rate-limit"}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 102, "error": {"code": -32000, "message": "Rate limit exceeded: 2 requests per second; retry in 1 s"}}}
    ```
    """

    code = "MCP806"
    name = "rate-limit-not-enforced"
    checklist = (18,)
    category = "security"
    severity = Severity.WARNING
    needs = "429 or throttling response"
    methods = frozenset({"ping", "server/discover", "tools/list", "tools/call"})  # what a burst may send
    statuses = frozenset({429})  # a 429 may carry no JSON-RPC body, so no exchange

    def check_record(self, record, session, ctx):
        request = request_of(record, session)
        if request is not None and request.probe == "rate-limit":
            session.__dict__.setdefault("_mcp806", {"sent": 0, "throttled": False, "last": None})["throttled"] = True
        return iter(())

    def check_exchange(self, exchange, session, ctx):
        if exchange.request.record.probe != "rate-limit":
            return iter(())
        burst = session.__dict__.setdefault("_mcp806", {"sent": 0, "throttled": False, "last": None})
        if exchange.method == "tools/call":  # the MUST is about tool invocations: pings prove nothing
            burst["sent"] += 1
            burst["last"] = exchange.request.ptr
        response = exchange.response
        if response.error is not None or response.record.status == 429:
            burst["throttled"] = True
        return iter(())

    def check_session(self, session, ctx):
        burst = getattr(session, "_mcp806", None)
        if burst is None or (burst["sent"] < MIN_BURST and not burst["throttled"]):
            return
        session.assess(self)
        if not burst["throttled"]:
            yield Violation(
                burst["last"],
                f"{burst['sent']} tool calls of the rate-limit probe were all answered without throttling; "
                "limit requests per client and answer the excess with 429 and Retry-After (or a JSON-RPC error)",
            )
