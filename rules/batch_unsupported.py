from mcplint import versions
from mcplint.capture.records import CLIENT
from mcplint.capture.ordinary import PLAIN_CALL
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class BatchUnsupported(TrafficRule):
    """The server processes a client's JSON-RPC batch under a version that removed batches.

    ## Why
    Protocol 2025-03-26 added JSON-RPC batches and 2025-06-18 removed them: from then
    on a POST body or a stdio line holds exactly one message. 2024-11-05 said nothing
    against them (they are plain JSON-RPC 2.0), so it is not judged. A later server
    that still processes a batch invites clients to depend on something the version
    does not have; the expected answer is a single `-32600` Invalid Request error. A
    warning, once per batch: the spec removed the feature but names no required answer.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": [{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, {"jsonrpc": "2.0", "id": 3, "method": "prompts/list"}]}
    {"from": "server", "message": [{"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}, {"jsonrpc": "2.0", "id": 3, "result": {"prompts": []}}]}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": [{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, {"jsonrpc": "2.0", "id": 3, "method": "prompts/list"}]}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Batches are not supported"}}}
    ```
    """

    code = "MCP620"
    name = "batch-unsupported"
    category = "protocol"
    severity = Severity.WARNING
    versions = versions.since(versions.V2025_06_18)  # 2025-03-26 has batches; 2024-11-05 never forbade them
    needs = "JSON-RPC batch"
    quiet_on = frozenset({PLAIN_CALL})  # see mcplint.capture.ordinary

    def check_exchange(self, exchange, session, ctx):
        if not exchange.request.in_batch or exchange.request.sender != CLIENT or exchange.response.result is None:
            return
        batch = exchange.request.record.base
        if session.__dict__.get("_mcp620_batch") == batch:
            return  # one finding per batch
        session.__dict__["_mcp620_batch"] = batch
        yield Violation(exchange.response.ptr, f"Server processed a request sent in a JSON-RPC batch; protocol "
                                               f"{ctx.version} has no batches, answer a batch with one -32600 error")
