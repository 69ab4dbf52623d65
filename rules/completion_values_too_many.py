from mcplint.capture.session import CLIENT
from mcplint.findings import Severity
from mcplint.rule import TrafficRule, Violation

_MAX_VALUES = 100


class CompletionValuesTooMany(TrafficRule):
    """A `completion/complete` result holds more than 100 values.

    ## Why
    The completion result's `values` must not exceed 100 items (schema,
    `CompleteResult`, in every version; 2026-07-28 adds `maxItems: 100`). A server
    with more candidates returns the best 100 and says so with `total` and
    `hasMore: true`; clients that show the list as-is, or check the limit, fail on a
    longer one.

    ## Bad
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "completion/complete", "params": {"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "lang", "value": ""}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "result": {"completion": {"values": ["v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31", "v32", "v33", "v34", "v35", "v36", "v37", "v38", "v39", "v40", "v41", "v42", "v43", "v44", "v45", "v46", "v47", "v48", "v49", "v50", "v51", "v52", "v53", "v54", "v55", "v56", "v57", "v58", "v59", "v60", "v61", "v62", "v63", "v64", "v65", "v66", "v67", "v68", "v69", "v70", "v71", "v72", "v73", "v74", "v75", "v76", "v77", "v78", "v79", "v80", "v81", "v82", "v83", "v84", "v85", "v86", "v87", "v88", "v89", "v90", "v91", "v92", "v93", "v94", "v95", "v96", "v97", "v98", "v99", "v100"]}}}}
    ```

    ## Good
    ```jsonl protocol=2025-06-18
    {"from": "client", "message": {"jsonrpc": "2.0", "id": 4, "method": "completion/complete", "params": {"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "lang", "value": "p"}}}}
    {"from": "server", "message": {"jsonrpc": "2.0", "id": 4, "result": {"completion": {"values": ["python", "perl", "php"], "total": 3, "hasMore": false}}}}
    ```
    """

    code = "MCP634"
    name = "completion-values-too-many"
    category = "protocol"
    severity = Severity.ERROR  # the schema's maxItems: 100, "must not exceed 100 items"
    methods = frozenset({"completion/complete"})
    needs = "completion/complete result"

    def check_exchange(self, exchange, session, ctx):
        if exchange.request.sender != CLIENT or exchange.method != "completion/complete":
            return
        result = exchange.response.result
        completion = result.get("completion") if result is not None else None
        values = completion.get("values") if isinstance(completion, dict) else None
        if isinstance(values, list) and len(values) > _MAX_VALUES:
            yield Violation(exchange.response.ptr / "result" / "completion" / "values",
                            f"completion result holds {len(values)} values; return at most {_MAX_VALUES} "
                            "and set total and hasMore: true for the rest")
