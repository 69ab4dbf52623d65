import re
from html import unescape

from mcplint.capture.errors import ERROR_STATUSES, error_page, page_kind, page_pointer
from mcplint.capture.error_texts import SCAN_LIMIT, leak_in
from mcplint.findings import Severity
from mcplint.regex_cache import regex
from mcplint.rule import TrafficRule, Violation

_BREAK = regex(r"<br\s*/?>", re.IGNORECASE)


class ErrorPageLeaksInternals(TrafficRule):
    r"""An HTTP error page (not JSON-RPC) shows a stack trace or a server-internal file path.

    ## Why
    A server that answers a request it cannot handle with its web framework's debug
    page sends the client a Python or Node traceback, library versions and the
    server's file layout. That text reaches logs, proxies and whoever probes the
    endpoint, and it tells an attacker where to look; it tells the user nothing they
    can act on. Turn off debug pages and answer with a short JSON-RPC error (MCP717).
    An HTML page is read as it is shown: entities unescaped, `<br>` a line break
    (Express's default page escapes a Node stack and joins its frames with `<br>`).
    Errors inside JSON-RPC messages are judged by MCP710.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": null, "probe": "malformed-json", "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Content-Type": "application/json"}}}
    {"from": "server", "message": null, "raw": "<html><body><h1>400 Bad Request</h1><pre>Traceback (most recent call last):\n  File \"/srv/notes/app/server.py\", line 88, in do_POST\njson.decoder.JSONDecodeError: Expecting value</pre></body></html>", "http": {"status": 400, "headers": {"Content-Type": "text/html"}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": null, "probe": "malformed-json", "http": {"method": "POST", "url": "http://127.0.0.1:8000/mcp", "headers": {"Content-Type": "application/json"}}}
    {"from": "server", "message": null, "raw": "<html><body><h1>400 Bad Request</h1><p>The request body is not valid JSON.</p></body></html>", "http": {"status": 400, "headers": {"Content-Type": "text/html"}}}
    ```
    """

    code = "MCP718"
    name = "error-page-leaks-internals"
    checklist = (10, 19)
    category = "security"
    severity = Severity.WARNING
    senders = frozenset({"server"})
    statuses = ERROR_STATUSES
    needs = "an HTTP error page"

    def check_record(self, record, session, ctx):
        body = error_page(record)
        if body is None:
            return
        session.assess(self)
        kind = page_kind(record, body)
        leak = leak_in(_as_text(body) if kind == "an HTML page" else body)
        if leak is not None:
            yield Violation(page_pointer(record),
                            f"{kind} sent with HTTP {record.status} shows {leak}; turn off "
                            "debug error pages and answer with a short JSON-RPC error")


def _as_text(page: str) -> str:
    """An HTML page's text as a browser shows it, for the detectors: Express's default page
    escapes a Node stack (`&lt;anonymous&gt;`) and joins its frames with `<br> &nbsp; &nbsp;`."""
    return unescape(_BREAK.sub("\n", page[:SCAN_LIMIT])).replace("\xa0", " ")
