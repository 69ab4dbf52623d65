from mcplint import versions
from mcplint.capture.records import SERVER
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class BatchUnsupported(TrafficRule):
    """The server answers a JSON-RPC batch, or processes one, under a version without batches.

    ## Why
    Only protocol 2025-03-26 has JSON-RPC batches; 2024-11-05 never had them, and
    2025-06-18 removed them: from then on a POST body or a stdio line holds exactly
    one message. A server that accepts a batch anyway invites clients to depend on
    it, and a batch of responses is something a client of these versions cannot
    parse. The expected answer to a batch is a single `-32600` Invalid Request error.

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
    senders = frozenset({"server"})  # check_record judges responses only
    name = "batch-unsupported"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.ALL - {versions.V2025_03_26}
    needs = "JSON-RPC batch"

    def check_record(self, record, session, ctx):
        if record.sender == SERVER and isinstance(record.message, list):
            yield Violation(record.base, f"Server sent a JSON-RPC batch; protocol {ctx.version} has no batches, "
                                         "send one message per line or POST body")

    def check_exchange(self, exchange, session, ctx):
        if not exchange.request.in_batch or exchange.response.in_batch or exchange.response.result is None:
            return
        batch = exchange.request.record.base
        if session.__dict__.get("_mcp620_batch") == batch:
            return  # one finding per batch
        session.__dict__["_mcp620_batch"] = batch
        yield Violation(exchange.response.ptr, f"Server processed a request sent in a JSON-RPC batch; protocol "
                                               f"{ctx.version} has no batches, answer a batch with one -32600 error")
