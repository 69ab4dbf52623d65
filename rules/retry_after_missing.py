
from mcplint.capture.http import first_of_response, header
from mcplint.findings import Severity
from mcplint.regex_cache import regex
from mcplint.rule import TrafficRule, Violation

# Retry-After: delay-seconds or an HTTP-date (RFC 9110 §10.2.3), e.g. "Wed, 21 Oct 2026 07:28:00 GMT".
_SECONDS = regex(r"\d+")
_HTTP_DATE = regex(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT")


class RetryAfterMissing(TrafficRule):
    """A 429 Too Many Requests response does not say when to retry.

    ## Why
    A rate-limited client needs to know how long to back off. Without `Retry-After` it
    either hammers the server again at once or guesses; MCP clients (and the agents behind
    them) retry tool calls automatically. Send `Retry-After: <seconds>` (or an HTTP date)
    with every 429. Info: no MCP version requires the header; it is HTTP good practice
    (RFC 6585 says a 429 MAY include it).

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "search", "arguments": {"q": "mcp"}}}, "http": {"method": "POST", "url": "https://mcp.example.com/mcp", "headers": {"Host": "mcp.example.com"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 7, "error": {"code": -32000, "message": "Rate limit exceeded: 60 requests per minute"}}, "http": {"status": 429, "headers": {"content-type": "application/json"}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "search", "arguments": {"q": "mcp"}}}, "http": {"method": "POST", "url": "https://mcp.example.com/mcp", "headers": {"Host": "mcp.example.com"}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 7, "error": {"code": -32000, "message": "Rate limit exceeded: 60 requests per minute"}}, "http": {"status": 429, "headers": {"content-type": "application/json", "Retry-After": "30"}}}
    ```
    """

    code = "MCP805"
    statuses = frozenset({429, 503})  # check_record looks at throttling answers only
    name = "retry-after-missing"
    checklist = (18,)
    category = "security"
    severity = Severity.INFO  # advice: no MCP version requires Retry-After
    needs = "429 or throttling response"

    def check_record(self, record, session, ctx):
        status = record.status
        if status not in (429, 503) or first_of_response(record, session) is None:
            return
        value = header(record, "retry-after")
        if status == 503 and value is None:
            return  # an outage, not throttling
        session.assess(self)
        if value is None:
            yield Violation(record.http_pointer / "status", "429 response without a Retry-After header; say how many seconds to wait")
        elif not (_SECONDS.fullmatch(value.strip()) or _HTTP_DATE.fullmatch(value.strip())):
            yield Violation(
                record.header_pointer("retry-after"),
                f"Retry-After {value!r} is neither a number of seconds nor an HTTP date",
            )
