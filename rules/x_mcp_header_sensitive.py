from mcplint import versions
from mcplint.findings import Severity
from mcplint.mcp_headers import KEY, at, tool_annotations, where
from mcplint.risk import name_words
from mcplint.rule import Rule, Violation

# Words that name a credential or personal data on their own, and pairs that do together.
_WORDS = frozenset(
    "password passwords passwd pwd passphrase secret secrets credential credentials creds apikey apikeys bearer "
    "authorization cookie cookies otp totp cvv cvc jwt privatekey ssn email emails phone telephone passport iban "
    "birthdate birthday dob".split())
_PAIRS = frozenset({
    ("api", "key"), ("access", "key"), ("secret", "key"), ("private", "key"), ("signing", "key"),
    ("encryption", "key"), ("client", "secret"), ("credit", "card"), ("card", "number"), ("social", "security"),
    ("tax", "id"), ("national", "id"), ("driver", "license"), ("home", "address"), ("street", "address"),
    ("phone", "number"), ("mobile", "number"), ("date", "birth"),
})
# A trailing "token" is a credential (access_token, github_token) unless it pages through a list.
_NOT_SECRET_TOKEN = frozenset("page next continuation pagination cursor sync resume start prev previous".split())
_FORMATS = frozenset({"password", "email", "idn-email"})


def _sensitive(name: str) -> bool:
    words = [w for w in name_words(name) if w != "of"]
    if not _WORDS.isdisjoint(words) or not _PAIRS.isdisjoint(zip(words, words[1:])):
        return True
    return bool(words) and words[-1] == "token" and (len(words) == 1 or words[-2] not in _NOT_SECRET_TOKEN)


class XMcpHeaderSensitive(Rule):
    """A parameter that looks like a credential or personal data is mirrored into an HTTP header.

    ## Why
    `x-mcp-header` copies a tool argument into an `Mcp-Param-*` header so that load
    balancers, proxies and firewalls can route on it without reading the body. That is
    exactly why "Server developers SHOULD NOT mark sensitive parameters (passwords, API
    keys, tokens, PII) with `x-mcp-header`, as header values are visible to network
    intermediaries" (server/tools, 2026-07-28): intermediaries log headers far more
    often than bodies. Judged from the parameter's name and header name (a password,
    API key, access token, e-mail address, phone number, ...), and from
    `"format": "password"` / `"email"` or `"writeOnly": true`. A warning: the spec says
    SHOULD NOT, and a name is only a hint.

    ## Bad
    ```json protocol=2026-07-28
    {"resultType": "complete", "ttlMs": 60000, "cacheScope": "public", "tools": [
      {"name": "send_invoice", "description": "Send an invoice to a customer.", "inputSchema": {"type": "object", "properties": {
        "customer_email": {"type": "string", "description": "Where to send it", "x-mcp-header": "Customer-Email"},
        "api_key": {"type": "string", "description": "Billing API key", "x-mcp-header": "Billing-Key"}}}}
    ]}
    ```

    ## Good
    ```json protocol=2026-07-28
    {"resultType": "complete", "ttlMs": 60000, "cacheScope": "public", "tools": [
      {"name": "send_invoice", "description": "Send an invoice to a customer.", "inputSchema": {"type": "object", "properties": {
        "region": {"type": "string", "description": "Billing region", "x-mcp-header": "Region"},
        "page_token": {"type": "string", "description": "Where the last page ended", "x-mcp-header": "Page-Token"},
        "customer_email": {"type": "string", "description": "Where to send it"}}}}
    ]}
    ```
    """

    code = "MCP334"
    name = "x-mcp-header-sensitive"
    category = "security"
    severity = Severity.WARNING  # SHOULD NOT
    versions = versions.since(versions.V2026_07_28)

    def check(self, doc, ctx):
        for schema_ptr, found in tool_annotations(doc):
            for annotation in found:
                if not annotation.reachable:
                    continue  # never mirrored (MCP333)
                schema, name = annotation.schema, str(annotation.path[-1])
                header = annotation.value if isinstance(annotation.value, str) else ""
                reason = _reason(schema, name, header)
                if reason:
                    what = where(annotation)
                    yield Violation(at(schema_ptr, annotation, KEY),
                                    f"{what[0].upper()}{what[1:]} looks like a credential or personal data ({reason}) "
                                    f"but is mirrored into an HTTP header, which proxies see and log; remove {KEY}")


def _reason(schema: dict, name: str, header: str) -> str | None:
    if _sensitive(name):
        return "its name"
    if _sensitive(header):
        return f"header name {header[:40]!r}"
    if isinstance(schema.get("format"), str) and schema["format"] in _FORMATS:
        return f"format {schema['format']!r}"
    if schema.get("writeOnly") is True:
        return "writeOnly"
    return None
