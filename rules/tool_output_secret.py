from mcplint.capture.output_rule import OutputRule
from mcplint.findings import Severity
from mcplint.output_purpose import returns_credential
from mcplint.rule import Violation
from mcplint.secrets import has_long_token, new_secret


class ToolOutputSecret(OutputRule):
    r"""A tool result contains a credential: a private key, a cloud key or an API token.

    ## Why
    A credential in a tool result is disclosed to the model, to the client's logs and
    transcripts, and to every other tool the model can call. Environment dumps,
    configuration files, error messages that echo a connection string and debug
    output are the usual leaks. Servers must sanitize tool output: redact secrets
    before returning text.

    Recognised: PEM private keys, AWS access key IDs and labelled secret keys, Google
    API keys and OAuth tokens, Azure storage keys, SAS signatures and client secrets,
    GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, npm and PyPI tokens, Slack
    webhooks and signed JWTs. Each pattern needs the credential's own prefix or
    structure, so UUIDs, hashes and base64 images are not reported, nor are the
    vendors' documented example keys. The message shows only the first characters.
    A tool whose name says it hands out a credential (`create_api_key`,
    `get_access_token`, `rotate_secret`, `login`) is doing its job, not leaking;
    one that is only about a credential (`get_token_status`) is still checked.

    ## Bad
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "show_config", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "region = eu-west-1\naws_access_key_id = AKIAZ7Q3N5W2J4K6L8M2"}]}}}
    ```

    ## Good
    ```jsonl protocol=2025-11-25
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "show_config", "arguments": {}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "region = eu-west-1\naws_access_key_id = AKIA****************"}]}}}
    ```
    """

    code = "MCP422"
    name = "tool-output-secret"
    checklist = (19,)
    category = "security"
    severity = Severity.ERROR
    needs = "tools/call result"

    # Every credential is a run of 16+ token characters.
    suspect = staticmethod(lambda text: len(text) >= 16 and has_long_token(text))

    def check_texts(self, exchange, answer, texts):
        if returns_credential(exchange.tool_name):
            return  # its purpose: a credential is the answer, not a leak
        reported: set[str] = set()
        for ptr, what, text in texts:
            if (new := new_secret(text, reported)) is None:
                continue
            first, more = new
            yield Violation(ptr, f"Tool output ({what}) contains {first.what} ('{first.redacted}'){more}; "
                                 "redact credentials from tool results and rotate this one",
                            within=(first.index, first.index + len(first.text)))
