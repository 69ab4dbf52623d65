from mcplint import versions
from mcplint.cache_fields import SCOPES, valid_ttl
from mcplint.capture.envelope import is_stateless_request
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation
from mcplint.tool_fields import show

# tools/list is MCP109's (a manifest rule run on every tools/list result)
_CACHEABLE = frozenset({"server/discover", "prompts/list", "resources/list", "resources/templates/list",
                        "resources/read"})


class CacheFieldsMissing(TrafficRule):
    """A 2026-07-28 discover, list or read result lacks a valid `ttlMs` or `cacheScope`.

    ## Why
    From protocol 2026-07-28 the complete results of `server/discover`,
    `prompts/list`, `resources/list`, `resources/templates/list` and `resources/read`
    say how long they may be cached (`ttlMs`, whole milliseconds, 0 or more) and by
    whom (`cacheScope`: `"public"` for anyone, `"private"` for this authorization
    context only). Without them a gateway cannot know whether a per-user result may
    be served to another user. `input_required` results carry neither.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "resources/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "result": {"resultType": "complete", "resources": []}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "resources/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "result": {"cacheScope": "private", "resources": [], "resultType": "complete", "ttlMs": 0}}}
    ```
    """

    code = "MCP641"
    name = "cache-fields-missing"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2026_07_28)
    needs = "2026-07-28 list, read or discover result"

    def check_exchange(self, exchange, session, ctx):
        result = exchange.response.result
        method = exchange.method
        if result is None or method not in _CACHEABLE or result.get("resultType") == "input_required":
            return
        if not is_stateless_request(exchange.request, session):
            return
        ptr = exchange.response.ptr / "result"
        missing = [key for key in ("ttlMs", "cacheScope") if key not in result]
        if missing:
            yield Violation(ptr, f"Result of {method} lacks {' and '.join(missing)}; protocol {ctx.version} "
                                 "requires ttlMs and cacheScope on it")
        if "ttlMs" in result and not valid_ttl(result["ttlMs"]):
            yield Violation(ptr / "ttlMs", f"ttlMs must be an integer of 0 or more milliseconds, not {show(result['ttlMs'])}")
        if "cacheScope" in result and result["cacheScope"] not in SCOPES:
            yield Violation(ptr / "cacheScope",
                            f"cacheScope must be \"public\" or \"private\", not {show(result['cacheScope'])}")
