from mcplint import versions
from mcplint.cache_fields import SCOPES, valid_ttl
from mcplint.findings import Severity
from mcplint.rule import Rule, Violation
from mcplint.tool_fields import show


class ListResultCacheFieldsMissing(Rule):
    """A 2026-07-28 tools/list result lacks a valid `resultType`, `ttlMs` or `cacheScope`.

    ## Why
    From protocol 2026-07-28 every result carries `resultType` (`"complete"` for a
    tools/list result), and list results must say how long they may be cached
    (`ttlMs`, an integer number of milliseconds, 0 or more) and by whom (`cacheScope`:
    `"public"` or `"private"`). A client must reject a result it cannot classify, and
    without the cache fields a shared gateway cannot tell whether the list may be
    served to other users. The 2026-07-28 schema lists all three as required, so
    a result without them is invalid (error). Only tools/list results (or responses wrapping one) are
    checked; a bare array of tools has no result object. (Results without
    `resultType` are linted at 2025-11-25 unless `--protocol-version` says otherwise.)

    ## Bad
    ```json protocol=2026-07-28
    {"resultType": "complete", "tools": [{"name": "get_weather", "inputSchema": {"type": "object"}}]}
    ```

    ## Good
    ```json protocol=2026-07-28
    {"resultType": "complete", "ttlMs": 60000, "cacheScope": "public",
     "tools": [{"name": "get_weather", "inputSchema": {"type": "object"}}]}
    ```
    """

    code = "MCP109"
    name = "list-result-cache-fields-missing"
    category = "protocol"
    severity = Severity.ERROR  # the 2026-07-28 schema requires all three
    versions = versions.since(versions.V2026_07_28)

    def check(self, doc, ctx):
        if doc.result is None:
            return
        ptr, result = doc.result
        missing = [key for key in ("resultType", "ttlMs", "cacheScope") if key not in result]
        if missing:
            names = " and ".join(", ".join(f"'{key}'" for key in missing).rsplit(", ", 1))
            yield Violation(ptr, f"tools/list result lacks {names}; protocol {ctx.version} requires "
                                 "resultType, ttlMs and cacheScope on every list result")
        if "resultType" in result and result["resultType"] != "complete":
            yield Violation(ptr / "resultType",
                            f"resultType of a tools/list result must be \"complete\", not {show(result['resultType'])}")
        if "ttlMs" in result and not valid_ttl(result["ttlMs"]):
            yield Violation(ptr / "ttlMs",
                            f"ttlMs must be an integer of 0 or more milliseconds, not {show(result['ttlMs'])}")
        if "cacheScope" in result and result["cacheScope"] not in SCOPES:
            yield Violation(ptr / "cacheScope",
                            f"cacheScope must be \"public\" or \"private\", not {show(result['cacheScope'])}")
