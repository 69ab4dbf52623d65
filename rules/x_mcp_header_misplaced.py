from mcplint import versions
from mcplint.findings import Severity
from mcplint.mcp_headers import KEY, PRIMITIVE, at, tool_annotations, where
from mcplint.rule import Rule, Violation
from mcplint.tool_fields import show


class XMcpHeaderMisplaced(Rule):
    """An `x-mcp-header` sits on a schema that cannot be mirrored into a header.

    ## Why
    In protocol 2026-07-28 an `x-mcp-header` annotation "MUST only be applied to
    parameters with primitive types (integer, string, boolean). Parameters with type
    `number` are not permitted", and only to properties "statically reachable from the
    schema root: reachable via a chain consisting solely of `properties` keys", never
    through `items`, `anyOf`/`oneOf`/`allOf`/`not`, `if`/`then`/`else` or `$ref`
    (server/tools, "x-mcp-header"; Streamable HTTP, "Custom Headers from Tool
    Parameters"). Clients on Streamable HTTP must drop such a tool. A property without a
    `type` is not declared primitive either (the official Python SDK drops it too).

    ## Bad
    ```json protocol=2026-07-28
    {"resultType": "complete", "ttlMs": 60000, "cacheScope": "public", "tools": [
      {"name": "get_quote", "description": "Get a price quote.", "inputSchema": {"type": "object", "properties": {
        "amount": {"type": "number", "description": "Amount to quote", "x-mcp-header": "Amount"},
        "items": {"type": "array", "description": "Line items", "items": {"type": "object", "properties": {
          "sku": {"type": "string", "description": "Stock keeping unit", "x-mcp-header": "Sku"}}}}}}}
    ]}
    ```

    ## Good
    ```json protocol=2026-07-28
    {"resultType": "complete", "ttlMs": 60000, "cacheScope": "public", "tools": [
      {"name": "get_quote", "description": "Get a price quote.", "inputSchema": {"type": "object", "properties": {
        "currency": {"type": "string", "description": "ISO 4217 code", "x-mcp-header": "Currency"},
        "account": {"type": "object", "description": "Billing account", "properties": {
          "tier": {"type": "integer", "description": "Pricing tier", "x-mcp-header": "Tier"}}}}}}
    ]}
    ```
    """

    code = "MCP333"
    name = "x-mcp-header-misplaced"
    category = "schema"
    severity = Severity.ERROR
    versions = versions.since(versions.V2026_07_28)

    def check(self, doc, ctx):
        for schema_ptr, found in tool_annotations(doc):
            for annotation in found:
                ptr = at(schema_ptr, annotation, KEY)
                if not annotation.reachable:
                    yield Violation(ptr, f"{KEY} on {where(annotation)}; only properties reached from the root "
                                         "through 'properties' alone can be mirrored into a header: move or remove it, "
                                         "or clients drop the tool")
                    continue
                kind = annotation.schema.get("type")
                if kind is None:
                    yield Violation(ptr, f"{KEY} on {where(annotation)}, which declares no type; declare "
                                         "\"type\": \"string\", \"integer\" or \"boolean\", or clients drop the tool")
                    continue
                kinds = kind if isinstance(kind, list) else [kind]
                wrong = [k for k in kinds if not isinstance(k, str) or k not in PRIMITIVE]
                if wrong or not kinds:
                    yield Violation(at(schema_ptr, annotation, "type"),
                                    f"{KEY} on {where(annotation)} of type {show(kind)}; only string, integer and "
                                    "boolean parameters may be mirrored into a header (never number), or clients "
                                    "drop the tool")
