from mcplint import versions
from mcplint.cache_fields import SCOPES
from mcplint.capture.envelope import is_stateless_request
from mcplint.capture.session import CLIENT
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

_LISTS = frozenset({"tools/list", "prompts/list", "resources/list", "resources/templates/list"})
_STATE = "_mcp644_pages"  # on the session: (method, next cursor) -> (first page's scope, its pointer)
_MAX_LISTINGS = 10_000  # the newest cursors are remembered: memory stays bounded on any capture


class CacheScopeInconsistent(TrafficRule):
    """The pages of one 2026-07-28 listing carry different `cacheScope` values.

    ## Why
    A paginated `tools/list`, `prompts/list`, `resources/list` or
    `resources/templates/list` is one listing fetched page by page, each page cached on
    its own. "Servers MUST apply the same `cacheScope` to all response pages for a given
    list request" (caching, 2026-07-28): when the first page is `"private"`, a later
    `"public"` page lets a shared cache hand that user's entries to other users, and the
    other way round a cache keeps only half a list. Pages are linked by the cursor: a
    request whose `cursor` is the `nextCursor` of an earlier page continues that listing.
    An invalid `cacheScope` is MCP641's (MCP109's for tools/list).

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "prompts/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "prompts": [{"name": "summarise"}], "nextCursor": "p2", "ttlMs": 60000, "cacheScope": "private"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "prompts/list", "params": {"cursor": "p2", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "prompts": [{"name": "translate"}], "ttlMs": 60000, "cacheScope": "public"}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "prompts/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "prompts": [{"name": "summarise"}], "nextCursor": "p2", "ttlMs": 60000, "cacheScope": "private"}}}
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 2, "method": "prompts/list", "params": {"cursor": "p2", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "prompts": [{"name": "translate"}], "ttlMs": 5000, "cacheScope": "private"}}}
    ```
    """

    code = "MCP644"
    name = "cache-scope-inconsistent"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2026_07_28)
    methods = _LISTS
    needs = "2026-07-28 list results of more than one page"

    def check_exchange(self, exchange, session, ctx):
        request, result, method = exchange.request, exchange.response.result, exchange.method
        if request.sender != CLIENT or method not in _LISTS or result is None:
            return
        if result.get("resultType", "complete") != "complete" or not is_stateless_request(request, session):
            return
        pages = session.__dict__.setdefault(_STATE, {})
        scope = result.get("cacheScope")
        ptr = exchange.response.ptr / "result" / "cacheScope"
        cursor = request.params.get("cursor")
        first = pages.get((method, cursor)) if isinstance(cursor, str) else None
        if first is not None and scope in SCOPES and first[0] in SCOPES and scope != first[0]:
            yield Violation(ptr, f"This page of {method} has cacheScope {scope!r}, but the listing's first page "
                                 f"had {first[0]!r}; give every page of one listing the same cacheScope",
                            related=((first[1], f"first page: cacheScope {first[0]!r}"),))
        following = result.get("nextCursor")
        if isinstance(following, str):
            pages.pop((method, following), None)  # re-inserted last: the oldest listings are forgotten first
            pages[(method, following)] = first if first is not None else (scope, ptr)
            if len(pages) > _MAX_LISTINGS:
                del pages[next(iter(pages))]
