"""Bounds on what `mcplint check` keeps of a stream and of a listing (tests/attack round F4, F6).

- A transcript on standard input is spooled to a temporary file: past MAX_SPOOL bytes reading
  stops with a one-line error (an endless `yes ... | mcplint check -` wrote 3.26 GB in 20 s).
- The list pages of a capture are linted and their tools kept while together they hold at most
  MAX_LISTED_VALUES values (pages each under the per-message cap grew memory with the file).
Both bounds are module constants, made small here so the tests run in-process in a moment.
"""

from __future__ import annotations

import io
import json

from mcplint.commands.check import run_check

LINE = b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'


def _check(paths, tmp_path, capsys):
    report = tmp_path / "report.json"
    code = run_check(paths=paths, fmt="json", output=report, select=["ALL"], ignore=[], protocol_version=None,
                     config_path=None, fail_on=None, verbose=False)
    return code, report, capsys.readouterr().err


def test_an_endless_transcript_on_stdin_stops_at_the_spool_bound(tmp_path, monkeypatch, capsys):
    from mcplint import engine
    from mcplint.document import loader

    monkeypatch.setattr(loader, "MAX_SPOOL", 1 << 20)
    given = 0

    def endless(limit: int = -1) -> bytes:  # `yes LINE | mcplint check -`: never ends
        nonlocal given
        size = 65536 if limit < 0 else limit
        given += size
        assert given < 64 << 20, "standard input was read past the spool bound"
        return (LINE * (size // len(LINE) + 1))[:size]

    monkeypatch.setattr(engine, "read_stdin", endless)
    code, _, err = _check(["-"], tmp_path, capsys)
    assert code == 2, err
    assert ("mcplint: error: <stdin>: more than 1 MiB arrived on this stream; mcplint stopped reading it: "
            "save the input to a file and check that file") in err, err
    assert given < 3 << 20


def _page(id_: int, page: int, cursor: str | None) -> str:
    tools = [{"name": f"t{page}_{i}", "description": "Get a thing.",
              "inputSchema": {"type": "object", "properties": {f"p{k}": {} for k in range(5)}}} for i in range(20)]
    result = {"tools": tools, **({"nextCursor": cursor} if cursor else {})}
    return json.dumps({"from": "server", "message": {"jsonrpc": "2.0", "id": id_, "result": result}})


def _transcript(path, pages: int) -> None:
    lines = [
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}},
        {"from": "server", "message": {"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}},
    ]
    text = [json.dumps(line) for line in lines]
    for page in range(pages):
        params = {"cursor": str(page)} if page else {}
        text.append(json.dumps({"from": "client", "message": {"jsonrpc": "2.0", "id": page + 1, "method": "tools/list",
                                                               "params": params}}))
        text.append(_page(page + 1, page, str(page + 1) if page + 1 < pages else None))
    # a call of a tool on the last page: the listing was cut before it, so it is not "unknown"
    text.append(json.dumps({"from": "client", "message": {"jsonrpc": "2.0", "id": 99, "method": "tools/call",
                                                           "params": {"name": f"t{pages - 1}_0", "arguments": {}}}}))
    text.append(json.dumps({"from": "server", "message": {"jsonrpc": "2.0", "id": 99, "result": {
        "content": [{"type": "text", "text": "ok"}]}}}))
    path.write_text("\n".join(text) + "\n")


def test_list_pages_past_the_listing_budget_are_neither_linted_nor_kept(tmp_path, monkeypatch, capsys):
    from mcplint.capture import listing_budget

    path = tmp_path / "paged.jsonl"
    _transcript(path, 6)
    monkeypatch.setattr(listing_budget, "MAX_LISTED_VALUES", 1000)  # a page holds 221 values
    code, report, err = _check([str(path)], tmp_path, capsys)
    data = json.loads(report.read_text())
    assert data["summary"]["tools"] == 80, data["summary"]  # four pages kept
    assert "the listing was cut at 884 JSON values (1,000 at most over all list pages): from this tools/list " \
           "page on, pages were neither linted nor kept" in err, err
    assert not [f for f in data["findings"] if f["tool"] and f["tool"].startswith(("t4_", "t5_"))], data["findings"]


def test_a_normal_paged_listing_is_whole(tmp_path, capsys):
    path = tmp_path / "paged.jsonl"
    _transcript(path, 6)
    code, report, err = _check([str(path)], tmp_path, capsys)
    assert json.loads(report.read_text())["summary"]["tools"] == 120
    assert "listing was cut" not in err, err
