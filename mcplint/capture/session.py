"""The session model: messages classified, requests paired with responses, and what
the session negotiated (version, capabilities, tools) as the capture goes along."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from mcplint import versions
from mcplint.capture.records import CLIENT, SERVER, Record
from mcplint.document.pointer import Pointer

REQUEST, NOTIFICATION, RESPONSE, INVALID = "request", "notification", "response", "invalid"
META_VERSION = "io.modelcontextprotocol/protocolVersion"
# Unanswered requests are kept whole while their lines total less than this; past it a
# request keeps only its id, method and tool name, and is read again from the file when
# its response comes (a capture can hold 100,000 requests of a megabyte, never answered).
PENDING_BYTES = 16 << 20
# Requests kept waiting for an answer, at most: a real session has a handful pending; a file of a
# million unanswered requests kept a stub of each (1.2 GB). Beyond, a new request is not kept.
MAX_PENDING = 50_000
LONG_ID = 256  # an id longer than this (as text) is keyed by its digest
ABSORBED = frozenset({"initialize", "server/discover", "tools/list"})  # what Session.absorb learns from

# Methods only a server sends; everything else is taken to come from the client when a
# line does not say who sent it.
SERVER_METHODS = frozenset({
    "sampling/createMessage", "elicitation/create", "roots/list",
    "notifications/message", "notifications/progress", "notifications/resources/updated",
    "notifications/resources/list_changed", "notifications/tools/list_changed",
    "notifications/prompts/list_changed", "notifications/elicitation/complete",
    "notifications/tasks/status", "notifications/subscriptions/acknowledged",
})


class Message:
    """One JSON-RPC message of a record, its members read once: every rule asks for them, on
    every one of a million messages (a plain class: one __init__, no dataclass __post_init__)."""

    __slots__ = ("record", "data", "ptr", "sender", "kind", "in_batch", "method", "id", "params", "result",
                 "error", "stub")

    def __init__(self, record: Record, data: Any, ptr: Pointer, sender: str, kind: str,
                 in_batch: bool = False, stub: bool = False) -> None:
        self.record = record
        self.data = data  # the JSON-RPC object as sent (anything, for an invalid message)
        self.ptr = ptr  # where `data` is in the file
        self.sender = sender  # CLIENT | SERVER
        self.kind = kind  # REQUEST | NOTIFICATION | RESPONSE | INVALID
        self.in_batch = in_batch
        self.stub = stub  # a pending request kept without its params (see ``Session.open``)
        if type(data) is dict:
            get = data.get
            method, params, result, error = get("method"), get("params"), get("result"), get("error")
            self.method: str | None = method if type(method) is str else None
            self.id: Any = get("id")
            self.params: dict = params if type(params) is dict else {}  # {} when absent or not an object
            self.result: dict | None = result if type(result) is dict else None  # None when absent or not an object
            self.error: dict | None = error if type(error) is dict else None
        else:
            self.method = self.id = self.result = self.error = None
            self.params = {}

    def __repr__(self) -> str:
        return f"Message({self.kind} {self.method or self.id!r} from {self.sender} at {self.ptr})"

    @property
    def meta_version(self) -> str | None:
        meta = self.params.get("_meta")
        value = meta.get(META_VERSION) if isinstance(meta, dict) else None
        return value if isinstance(value, str) else None

    def stubbed(self) -> "Message":
        """This request as a pending one is kept cheaply: its id, method, tool name and
        `_meta` protocol version; no arguments, and a record without its message."""
        record = self.record
        slim = Record(record.index, record.base, record.sender, None, None, record.problem,
                      http_base=record.http_base, probe=record.probe, size=record.size)
        params: dict = {}
        name = self.params.get("name")
        if isinstance(name, str) and len(name) <= LONG_ID:
            params["name"] = name
        if self.meta_version is not None and len(self.meta_version) <= LONG_ID:
            params["_meta"] = {META_VERSION: self.meta_version}
        key = id_key(self.id)
        version = self.data.get("jsonrpc")
        data = {
            "jsonrpc": version if isinstance(version, str) and len(version) <= 16 else None,
            "id": key if isinstance(key, tuple) else self.id,  # a long id: its digest key
            "method": self.method if self.method is None or len(self.method) <= LONG_ID else None,
            "params": params,
        }
        return Message(slim, data, self.ptr, self.sender, self.kind, self.in_batch, stub=True)


class Exchange:
    """A request and the response that answered it (same id, opposite direction); its method
    and tool name are read once here: every exchange rule asks for them."""

    __slots__ = ("request", "response", "tool", "method", "tool_name")

    def __init__(self, request: Message, response: Message, tool: tuple[Pointer, dict] | None = None) -> None:
        self.request = request
        self.response = response
        self.tool = tool  # tools/call: the definition from tools/list, if seen
        self.method: str | None = request.method
        name = request.params.get("name")
        self.tool_name: str | None = name if type(name) is str or isinstance(name, str) else None

    def __repr__(self) -> str:
        return f"Exchange({self.method or '?'} {self.request.id!r})"


def kind_of(data: Any) -> str:
    if not isinstance(data, dict):
        return INVALID
    if "method" in data:
        return REQUEST if "id" in data else NOTIFICATION
    if "result" in data or "error" in data:
        return RESPONSE
    return INVALID


def id_key(value: Any) -> Any:
    """What requests and responses are paired by: the id, or its repr for other JSON values;
    a digest for a long one, so that pending requests cost little whatever their ids."""
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        if type(value) is int or len(value) <= LONG_ID:
            return value
        text = value
    else:
        text = repr(value)
        if len(text) <= LONG_ID:
            return text
    return "digest", hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Session:
    version: str  # the protocol version rules are checked against
    transport: str = "stdio"  # "stdio" | "http"
    negotiated: str | None = None  # what initialize / the first accepted request settled
    server_capabilities: dict | None = None
    server_info: dict | None = None
    initialize: Exchange | None = None  # the latest successful initialize exchange
    initialized: bool = False  # notifications/initialized seen after it
    session_id: str | None = None  # Mcp-Session-Id the server assigned
    tools: dict[str, tuple[Pointer, dict]] = field(default_factory=dict)
    pending: dict[tuple[str, Any], Message] = field(default_factory=dict)
    seen: Counter = field(default_factory=Counter)  # evidence: what the capture contains
    assessed: set[int] = field(default_factory=set)  # checklist items some rule could judge
    last_request: Record | None = None  # the latest client HTTP record
    # Reads a record again from the file by its index (JSONL); None when the whole capture is
    # in memory anyway (HAR), and then pending requests are kept whole.
    reload: Callable[[int], Record | None] | None = None
    pending_bytes: int = 0  # file bytes of the pending requests kept whole
    forgot_pending: bool = False  # a request was dropped past MAX_PENDING: an answer may match none kept
    listed_values: int = 0  # JSON values in the list pages kept (see mcplint.capture.listing_budget)
    listing_cut: str | None = None  # why later list pages were neither linted nor kept

    def assess(self, rule) -> None:
        """A rule had evidence to judge its checklist items (whether or not it found a problem)."""
        self.assessed.update(rule.checklist)

    @property
    def era(self) -> str:
        return "stateless" if versions.is_stateless(self.version) else "handshake"

    def messages(self, record: Record) -> list[Message]:
        """The JSON-RPC messages of a record (one, or each item of a batch)."""
        data = record.message
        if isinstance(data, list):
            return [self._message(record, item, record.base / i, True) for i, item in enumerate(data)]
        if record.sender is not None:  # the common case: no sender to infer
            return [Message(record, data, record.base, record.sender, kind_of(data))]
        return [self._message(record, data, record.base, False)]

    def _message(self, record: Record, data: Any, ptr: Pointer, in_batch: bool) -> Message:
        kind = kind_of(data)
        return Message(record, data, ptr, record.sender or self._infer_sender(record, data, kind), kind, in_batch)

    def _infer_sender(self, record: Record, data: Any, kind: str) -> str:
        if record.http:
            return SERVER if "status" in record.http else CLIENT
        if kind == RESPONSE:
            key = id_key(data.get("id"))
            if (CLIENT, key) in self.pending:
                return SERVER
            return CLIENT if (SERVER, key) in self.pending else SERVER
        if kind in (REQUEST, NOTIFICATION):
            method = data.get("method")
            return SERVER if isinstance(method, str) and method in SERVER_METHODS else CLIENT
        return SERVER

    def open(self, message: Message) -> None:
        key = (message.sender, id_key(message.id))
        replaced = self.pending.get(key)
        if replaced is not None and not replaced.stub:
            self.pending_bytes -= replaced.record.size
        if replaced is None and len(self.pending) >= MAX_PENDING:
            self.forgot_pending = True  # not kept: its answer, if one comes, pairs with nothing
            return
        if self.reload is not None and self.pending_bytes + message.record.size > PENDING_BYTES:
            message = message.stubbed()
        else:
            self.pending_bytes += message.record.size
        self.pending[key] = message

    def server_exited(self) -> None:
        """A stdio server exited (`mcplint audit` may start it again): what it was asked is never
        answered; MCP645 has read it by now."""
        for key in [key for key in self.pending if key[0] == CLIENT]:
            request = self.pending.pop(key)
            if not request.stub:
                self.pending_bytes -= request.record.size

    def answer(self, message: Message) -> Exchange | None:
        """Pair a response with its request; None when no request has its id."""
        asker = CLIENT if message.sender == SERVER else SERVER
        request = self.pending.pop((asker, id_key(message.id)), None)
        if request is None:
            return None
        if request.stub:
            request = self._whole(request)
        else:
            self.pending_bytes -= request.record.size
        exchange = Exchange(request, message)
        if request.method == "tools/call":
            exchange.tool = self.tools.get(exchange.tool_name)
        return exchange

    def _whole(self, stub: Message) -> Message:
        """A stubbed request read again from the file, for the rules that judge the exchange."""
        record = self.reload(stub.record.index) if self.reload is not None else None
        data = record.message if record is not None else None
        if stub.in_batch:
            position = int(stub.ptr[-1])
            data = data[position] if isinstance(data, list) and position < len(data) else None
        expected = stub.id if isinstance(stub.id, tuple) else id_key(stub.id)  # a long id: its key
        if not isinstance(data, dict) or id_key(data.get("id")) != expected:
            return stub
        return Message(record, data, stub.ptr, stub.sender, stub.kind, stub.in_batch)

    def absorb(self, exchange: Exchange) -> None:
        """Learn what a successful exchange settles: version, capabilities, tools (of the
        methods in ABSORBED; the others settle nothing)."""
        result = exchange.response.result
        if result is None:
            return
        method = exchange.method
        if method == "initialize":
            self.initialize, self.initialized = exchange, False
            self.server_capabilities = _dict(result.get("capabilities"))
            self.server_info = _dict(result.get("serverInfo"))
            negotiated = result.get("protocolVersion")
            if isinstance(negotiated, str):
                self.negotiated = negotiated
                if negotiated in versions.VERSIONS:
                    self.version = negotiated
            session_id = exchange.response.record.header("mcp-session-id")
            self.session_id = session_id or self.session_id
        elif method == "server/discover":
            self.server_capabilities = _dict(result.get("capabilities"))
        elif method == "tools/list":
            tools = result.get("tools")
            if isinstance(tools, list):
                for i, tool in enumerate(tools):
                    if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                        self.tools[tool["name"]] = (exchange.response.ptr / "result" / "tools" / i, tool)


def _dict(value: Any) -> dict | None:
    return value if isinstance(value, dict) else None


class VersionDetector:
    """Finds the version a capture speaks from its first accepted negotiation: the
    initialize result, or a stateless request (its `_meta` version) answered with a result."""

    def __init__(self) -> None:
        self.claims: dict[Any, tuple[str, str | None]] = {}
        self.header: str | None = None
        self.saw_result_type = self.saw_plain_result = False

    def feed(self, record: Record) -> str | None:
        data = record.message
        for item in data if isinstance(data, list) else [data]:
            found = self._item(item)
            if found:
                return found
        if record.http and "method" in record.http and self.header is None:
            value = record.header("mcp-protocol-version")
            self.header = value if value in versions.VERSIONS else None
        return None

    def _item(self, data: Any) -> str | None:
        kind = kind_of(data)
        if kind == REQUEST:
            if data["method"] == "initialize":
                self.claims[id_key(data["id"])] = ("initialize", None)
            else:
                params = data.get("params")
                meta = params.get("_meta") if isinstance(params, dict) else None
                version = meta.get(META_VERSION) if isinstance(meta, dict) else None
                if isinstance(version, str):
                    self.claims[id_key(data["id"])] = ("meta", version)
        elif kind == RESPONSE:
            claim = self.claims.pop(id_key(data.get("id")), None)
            result = data.get("result")
            if isinstance(result, dict):
                self.saw_result_type |= "resultType" in result
                self.saw_plain_result |= "resultType" not in result
            if claim and isinstance(result, dict):
                version = result.get("protocolVersion") if claim[0] == "initialize" else claim[1]
                if isinstance(version, str) and version in versions.VERSIONS:
                    return version
        return None

    def fallback(self, configured: str | None) -> str:
        """When nothing was negotiated: the version header, the configured version, or what
        the results look like (no `resultType` means a handshake-era server)."""
        if self.header:
            return self.header
        if configured:
            return configured
        if self.saw_plain_result and not self.saw_result_type:
            return versions.LATEST_HANDSHAKE
        return versions.LATEST
