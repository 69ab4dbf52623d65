from mcplint import versions
from mcplint.capture.session import REQUEST, SERVER
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation


class ServerRequestInStatelessProtocol(TrafficRule):
    """The server sends a JSON-RPC request to the client under protocol 2026-07-28.

    ## Why
    Protocol 2026-07-28 is stateless: servers never send JSON-RPC requests to the
    client (base protocol; stdio: "the server MUST NOT write JSON-RPC requests";
    Streamable HTTP: a response stream carries notifications only). A server that needs
    `sampling/createMessage`, `roots/list` or `elicitation/create` answers the client's
    `tools/call`, `prompts/get` or `resources/read` with an `input_required` result
    listing them in `inputRequests` ("Servers MUST send server-to-client requests using
    the MRTR pattern"), and the client retries with the answers. A 2026-07-28 client has
    nowhere to send a response, so the server waits for an answer that never comes.
    Judged in captures without an `initialize` handshake.

    ## Bad
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "create_issue", "arguments": {"title": "Crash"}, "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 0, "method": "elicitation/create", "params": {"mode": "form", "message": "Which repository?", "requestedSchema": {"type": "object", "properties": {"repo": {"type": "string"}}}}}}
    ```

    ## Good
    ```jsonl
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "create_issue", "arguments": {"title": "Crash"}, "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required", "inputRequests": {"repo": {"method": "elicitation/create", "params": {"mode": "form", "message": "Which repository?", "requestedSchema": {"type": "object", "properties": {"repo": {"type": "string"}}}}}}, "requestState": "c2lnbmVk"}}}
    ```
    """

    code = "MCP639"
    name = "server-request-in-stateless-protocol"
    category = "protocol"
    severity = Severity.ERROR
    versions = versions.since(versions.V2026_07_28)
    senders = frozenset({"server"})
    kinds = frozenset({"request"})
    needs = "2026-07-28 traffic"

    def check_message(self, message, session, ctx):
        if message.sender != SERVER or message.kind != REQUEST or session.initialize is not None:
            return  # after an initialize the capture is a handshake session (a dual-era server)
        method = message.method if message.method is not None else "a request"
        yield Violation(message.ptr / "method" if message.method is not None else message.ptr,
                        f"Server sent {method} as a JSON-RPC request, but protocol {ctx.version} has no "
                        "server-to-client requests; return an input_required result with inputRequests instead")
