"""Hostile files: whatever a capture or manifest holds, `mcplint check` runs in bounded memory
and time and writes a report of bounded size, or ends with a one-line error.

Each test runs the real command on a file generated in tmp_path. Peak memory is measured
for the command alone (a small wrapper process reports its child's peak RSS), and boundedness
is shown by comparing it with the peak on a small file rather than by absolute numbers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import ROOT

MIB = 1 << 20

# Runs mcplint as its child and prints the child's peak RSS (KiB on Linux) on its last line.
_MEASURE = """
import resource, subprocess, sys
stdin = open(sys.argv[1], "rb") if sys.argv[1] != "-" else subprocess.DEVNULL
with open(sys.argv[2], "wb") as out, open(sys.argv[3], "wb") as err:
    command = [sys.executable, "-m", "mcplint", *sys.argv[4:]]
    code = subprocess.run(command, stdin=stdin, stdout=out, stderr=err).returncode
print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


class Run:
    def __init__(self, code: int, peak_mib: float, out: Path, err: Path, seconds: float) -> None:
        self.code, self.peak_mib, self.out, self.err, self.seconds = code, peak_mib, out, err, seconds

    @property
    def stderr(self) -> str:
        return self.err.read_text(errors="replace")

    def report(self) -> dict:
        assert self.out.stat().st_size < 4 * MIB, f"report of {self.out.stat().st_size:,} bytes"
        return json.loads(self.out.read_text(encoding="utf-8"))


def check(tmp_path: Path, *args: str, stdin: Path | None = None, env: dict | None = None, timeout: float = 60) -> Run:
    """`mcplint check --format json ARGS`, its report in a file, with its peak memory."""
    out, err = tmp_path / f"out{time.monotonic_ns()}.json", tmp_path / f"err{time.monotonic_ns()}.txt"
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(stdin) if stdin else "-", str(out), str(err),
         "check", "--format", "json", *args],
        cwd=ROOT, capture_output=True, text=True, env=full_env, timeout=timeout,
    )
    code, peak = proc.stdout.split()[-2:]
    run = Run(int(code), int(peak) / 1024, out, err, time.monotonic() - started)
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    assert run.code in (0, 1), run.stderr[-2000:]
    return run


def _line(message: dict, sender: str | None = None) -> str:
    return json.dumps({"from": sender, "message": message} if sender else message)


INITIALIZE = [
    {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}},
    {"jsonrpc": "2.0", "id": 0, "result": {
        "protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]


def _small(tmp_path: Path) -> Run:
    """The command on a tiny transcript: what any run costs."""
    path = tmp_path / "small.jsonl"
    path.write_text("\n".join(_line(m) for m in INITIALIZE) + "\n")
    return check(tmp_path, str(path))


# -- transcripts -----------------------------------------------------------------------------


def _unanswered(path: Path, requests: int) -> Path:
    """``requests`` tools/call requests of 1 MiB of arguments each, none answered."""
    blob = "x" * MIB
    with open(path, "w") as out:
        out.write("\n".join(_line(m) for m in INITIALIZE) + "\n")
        for i in range(1, requests + 1):
            out.write('{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": '
                      '{"name": "echo", "arguments": {"blob": "%s"}}}\n' % (i, blob))
    return path


def test_unanswered_requests_do_not_keep_their_arguments(tmp_path):
    few = check(tmp_path, str(_unanswered(tmp_path / "few.jsonl", 10)))
    many = check(tmp_path, str(_unanswered(tmp_path / "many.jsonl", 80)))
    # 70 MiB more of pending arguments cost (almost) nothing more.
    assert many.peak_mib < few.peak_mib + 40, (few.peak_mib, many.peak_mib)


def test_a_request_kept_as_a_stub_is_judged_whole_when_answered(tmp_path):
    """Past the pending budget a request keeps only its id, method and tool name; when its
    answer comes it is read again, so rules that read its arguments still judge them."""
    schema = {"type": "object", "properties": {"blob": {"type": "string", "maxLength": 10}}}
    listing = [{"jsonrpc": "2.0", "id": "list", "method": "tools/list"},
               {"jsonrpc": "2.0", "id": "list", "result": {"tools": [{"name": "echo", "inputSchema": schema}]}}]
    path = tmp_path / "late.jsonl"
    _unanswered(path, 30)  # 30 MiB of pending requests: the last ones are kept as stubs
    lines = path.read_text().splitlines(keepends=True)
    lines[3:3] = [_line(m) + "\n" for m in listing]
    lines.append(_line({"jsonrpc": "2.0", "id": 30, "result": {"content": [{"type": "text", "text": "ok"}]}}) + "\n")
    path.write_text("".join(lines))
    run = check(tmp_path, str(path), "--select", "MCP713")
    finding, = run.report()["findings"]
    assert finding["line"] == len(lines) and "blob" in finding["message"]


def test_stdin_transcript_is_streamed(tmp_path):
    path = tmp_path / "big.jsonl"
    blob = "y" * MIB
    with open(path, "w") as out:
        out.write("\n".join(_line(m) for m in INITIALIZE) + "\n")
        for i in range(1, 81):
            out.write('{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": '
                      '{"name": "echo", "arguments": {"blob": "%s"}}}\n' % (i, blob))
            out.write(_line({"jsonrpc": "2.0", "id": i, "result": {"content": [{"type": "text", "text": "ok"}]}}) + "\n")
    small = _small(tmp_path)
    run = check(tmp_path, "-", stdin=path)
    assert path.stat().st_size > 80 * MIB
    assert run.peak_mib < small.peak_mib + 40, (small.peak_mib, run.peak_mib)
    assert run.report()["summary"]["protocol_versions"] == ["2025-06-18"]


def test_stdin_manifest_over_the_size_limit_is_read_no_further(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "w") as out:
        out.write('{"tools": [{"name": "a", "description": "' + "d" * (80 * MIB) + '"}]}')
    small = _small(tmp_path)
    out, err = tmp_path / "o.txt", tmp_path / "e.txt"
    proc = subprocess.run([sys.executable, "-c", _MEASURE, str(path), str(out), str(err), "check", "-"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    code, peak = proc.stdout.split()
    assert int(code) == 2
    message = err.read_text().strip()
    assert message.count("\n") == 0 and "over the 20 MiB limit" in message and "Traceback" not in message
    assert int(peak) / 1024 < small.peak_mib + 50, peak  # the limit is read, not the 80 MiB


def test_findings_on_many_long_lines_do_not_keep_the_lines(tmp_path):
    def responses(path: Path, count: int) -> Path:
        blob = "z" * MIB
        with open(path, "w") as out:
            out.write("\n".join(_line(m) for m in INITIALIZE) + "\n")
            for i in range(1, count + 1):  # answers to requests never sent: one finding each
                out.write('{"jsonrpc": "2.0", "id": %d, "result": {"content": [], "x": "%s"}}\n' % (i, blob))
        return path

    few = check(tmp_path, str(responses(tmp_path / "few.jsonl", 10)))
    many = check(tmp_path, str(responses(tmp_path / "many.jsonl", 80)))
    assert many.peak_mib < few.peak_mib + 40, (few.peak_mib, many.peak_mib)
    findings = many.report()["findings"]
    assert len(findings) == 80 and {f["rule"] for f in findings} == {"MCP615"}
    assert findings[0]["line"] == 4 and findings[0]["column"] == 26  # located all the same


def test_millions_of_blank_lines_cost_nothing(tmp_path):
    path = tmp_path / "blank.jsonl"
    with open(path, "wb") as out:
        out.write((_line(INITIALIZE[0]) + "\n").encode())
        out.write(b"\n" * 4_000_000 + b"  \t\r\n" * 1_000_000)
        # Findings after them must still be on the right lines.
        out.write((_line(INITIALIZE[1]) + "\n").encode())
        out.write(b"INFO server ready\n")
        out.write((_line({"jsonrpc": "2.0", "id": 999, "result": {}}) + "\n").encode())
    small = _small(tmp_path)
    run = check(tmp_path, str(path))
    assert run.peak_mib < small.peak_mib + 25, (small.peak_mib, run.peak_mib)
    lines = {(f["rule"], f["line"]) for f in run.report()["findings"]}
    assert lines == {("MCP600", 5_000_003), ("MCP615", 5_000_004)}, lines


# -- HAR files -------------------------------------------------------------------------------


def _entry(started, request: dict, body: str) -> dict:
    entry = {
        "request": {"method": "POST", "url": "http://127.0.0.1:9/mcp", "headers": [
            {"name": "Content-Type", "value": "application/json"}],
            "postData": {"mimeType": "application/json", "text": json.dumps(request)}},
        "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}],
                     "content": {"mimeType": "application/json", "text": body}},
    }
    if started is not ...:
        entry["startedDateTime"] = started
    return entry


def test_har_body_with_twenty_thousand_findings_is_located_in_linear_time(tmp_path):
    # 4,000 tools, each with several problems (name style, no description, a parameter with
    # no type and no description): about 20,000 findings inside one escaped string.
    tools = [{"name": f"Bad Tool {i}", "inputSchema": {"type": "object", "properties": {f"P{i}": {}}}}
             for i in range(4000)]
    listed = {"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}
    har = {"log": {"version": "1.2", "entries": [
        _entry("2026-01-01T00:00:00Z", INITIALIZE[0], json.dumps(INITIALIZE[1])),
        _entry("2026-01-01T00:00:01Z", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, json.dumps(listed)),
    ]}}
    text = json.dumps(har, indent=1)
    path = tmp_path / "many.har"
    path.write_text(text)
    run = check(tmp_path, str(path), timeout=120)
    assert run.seconds < 30, f"{run.seconds:.1f} s"
    findings = run.report()["findings"]
    notes = [f for f in findings if "more findings of" in f["message"]]
    assert notes and sum(int(n["message"].split()[0].replace(",", "")) for n in notes) + len(findings) > 15_000
    lines = text.splitlines()
    for finding in findings:  # each column points into the escaped body, at the tool it names
        if finding["pointer"].endswith("/name") and "/tools/" in finding["pointer"]:
            index = int(finding["pointer"].split("/tools/")[1].split("/")[0])
            at = lines[finding["line"] - 1][finding["column"] - 1:]
            assert at.startswith(f'\\"Bad Tool {index}\\"'), (finding, at[:40])


def test_har_start_times_of_every_kind_never_crash(tmp_path):
    init_b = {**INITIALIZE[1], "result": {**INITIALIZE[1]["result"], "protocolVersion": "2025-03-26"}}
    odd = [99999, "99999-01-01T00:00:00Z", "0001-01-01T00:00:00", "9999-12-31T23:59:59-05:00", None,
           {"at": "now"}, "2026-13-45T00:00:00Z", "9" * 5000, ...]
    entries = [_entry(stamp, {"jsonrpc": "2.0", "id": 100 + i, "method": "ping"},
                      json.dumps({"jsonrpc": "2.0", "id": 100 + i, "result": {}})) for i, stamp in enumerate(odd)]
    # The last initialize sets the version: in file order the 2025-06-18 one, in time (as UTC:
    # 10:00+05:30 is 04:30Z, before 05:00Z) the 2025-03-26 one.
    entries.insert(0, _entry("2026-08-01T05:00:00Z", INITIALIZE[0], json.dumps(init_b)))
    entries.insert(1, _entry("2026-08-01T10:00:00+05:30", INITIALIZE[0], json.dumps(INITIALIZE[1])))
    entries.insert(2, _entry("2026-08-01T04:59:00", {"jsonrpc": "2.0", "id": 7, "method": "ping"},
                             json.dumps({"jsonrpc": "2.0", "id": 7, "result": {}})))
    path = tmp_path / "times.har"
    path.write_text(json.dumps({"log": {"version": "1.2", "entries": entries}}))
    for zone in ("America/New_York", "Asia/Kolkata"):  # east and west of UTC: both crashed
        run = check(tmp_path, str(path), env={"TZ": zone})
        assert run.report()["summary"]["protocol_versions"] == ["2025-03-26"], zone


# -- reports ---------------------------------------------------------------------------------


def test_a_huge_tool_name_behind_many_findings_gives_a_small_report(tmp_path):
    name = "A" * 1_000_000
    properties = {f"p{i}": {"type": "string"} for i in range(300)}  # 300 parameters, no descriptions
    manifest = {"tools": [{"name": name, "description": "Get a thing by its id, with its owner and status.",
                           "inputSchema": {"type": "object", "properties": properties}}]}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(manifest))
    run = check(tmp_path, str(path), timeout=120)
    assert run.out.stat().st_size < MIB, f"report of {run.out.stat().st_size:,} bytes"
    findings = run.report()["findings"]
    assert all(len(f["message"]) <= 500 and len(f["tool"] or "") < 200 for f in findings)
    by_rule: dict[str, int] = {}
    for finding in findings:
        by_rule[finding["rule"]] = by_rule.get(finding["rule"], 0) + 1
    assert max(by_rule.values()) <= 101
    note = next(f for f in findings if "more findings of" in f["message"])
    assert note["message"].startswith("200 more findings of ") and "were left out" in note["message"]
    assert run.report()["summary"]["left_out"] == 200  # the summary counts what the notes stand for
    assert any("(1,000,000 characters)" in f["message"] or "(1,000,000 characters)" in (f["tool"] or "")
               for f in findings)


def test_unanswered_requests_are_kept_up_to_a_bound_and_late_answers_are_not_blamed(tmp_path):
    """A file of unanswered requests kept a stub of each: a million took 1.2 GB. Past 50,000 pending,
    new requests are not kept, and then an answer that matches none kept gets no verdict (MCP615
    would otherwise blame an answer to a request it did not keep)."""
    from mcplint.capture.session import MAX_PENDING

    path = tmp_path / "unanswered.jsonl"
    count = MAX_PENDING + 5_000
    with path.open("w", encoding="utf-8") as handle:
        handle.writelines(_line(m, sender) + "\n" for m, sender in zip(INITIALIZE, ("client", "server", "client")))
        handle.writelines(_line({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                                 "params": {"name": "get_x", "arguments": {"a": "y" * 50}}}, "client") + "\n"
                          for n in range(1, count + 1))
        handle.write(_line({"jsonrpc": "2.0", "id": count + 7, "result": {"content": []}}, "server") + "\n")
    run = check(tmp_path, str(path), timeout=120)
    rules = {f["rule"] for f in run.report()["findings"]}
    assert "MCP615" not in rules, rules  # (the bound was reached: no verdict on an answer nothing kept matches)
    assert run.peak_mib < 200, f"peak {run.peak_mib:.0f} MiB"


def test_a_long_page_of_tools_is_walked_once_for_all_its_findings(tmp_path, monkeypatch):
    """Two tools/list pages of 9,000 tiny tools, each on a line over LONG_LINE: hundreds of findings
    on each (capped per rule) were located by a walk of the whole line apiece (340,000 tools: 109 s).
    Each line is walked once; the first line's offsets outlive its text, and every finding is
    placed where a walk for it alone places it."""
    from mcplint.capture import jsonl
    from mcplint.commands.check import run_check
    from mcplint.document.jsonmap import JsonSourceMap
    from mcplint.document.pointer import Pointer

    def page(id_: int, first: int, cursor: str | None) -> dict:
        # the first page's names are bad, the second's descriptions missing: findings on both lines
        tools = [{"name": f"Tool {i}", "description": "Get a thing.", "inputSchema": {"type": "object"}} if cursor
                 else {"name": f"t{i}", "inputSchema": {"type": "object"}} for i in range(first, first + 9000)]
        return {"jsonrpc": "2.0", "id": id_, "result": {"tools": tools, **({"nextCursor": cursor} if cursor else {})}}

    messages = [*INITIALIZE, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, page(2, 0, "next"),
                {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"cursor": "next"}}, page(3, 9000, None)]
    lines = [_line(m) for m in messages]
    assert sum(len(line) > jsonl.LONG_LINE for line in lines) == 2
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(lines) + "\n")
    walks = []
    visit = JsonSourceMap._visit_array
    monkeypatch.setattr(JsonSourceMap, "_visit_array", lambda self, i, trie, at, *rest: (
        walks.append(at) if at == ("result", "tools") else None, visit(self, i, trie, at, *rest))[1])
    report = tmp_path / "report.json"
    run_check(paths=[str(path)], fmt="json", output=report, select=["ALL"], ignore=[], protocol_version=None,
              config_path=None, fail_on=None, verbose=False)
    findings = [f for f in json.loads(report.read_text())["findings"] if "/result/tools/" in f["pointer"]]
    assert len(findings) > 200 and {f["line"] for f in findings} == {5, 7}
    assert len(walks) == 2, len(walks)
    for finding in findings:
        line = lines[finding["line"] - 1]
        tokens = [int(t) if t.isdigit() else t for t in finding["pointer"].split("/")[2:]]
        start, _, _ = JsonSourceMap(line).offsets(Pointer(tokens))
        assert finding["column"] == start + 1, finding


def test_a_message_of_more_values_than_the_limit_is_a_finding_not_gigabytes(tmp_path):
    """A tools/list page of 600,000 tiny tools on one line (or in a HAR body) is reported as an
    invalid record instead of being linted: each tool would cost about a kilobyte of facts and findings."""
    from mcplint.document.value_count import MAX_VALUES

    tools = [{"name": f"t{i}"} for i in range(MAX_VALUES + 100_000)]
    page = {"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}}
    path = tmp_path / "page.jsonl"
    path.write_text("\n".join(_line(m) for m in [*INITIALIZE, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, page]) + "\n")
    body = json.dumps(page)
    entry = {"startedDateTime": "2025-01-01T00:00:00Z", "time": 1,
             "request": {"method": "POST", "url": "http://127.0.0.1/mcp", "headers": [],
                         "postData": {"mimeType": "application/json",
                                      "text": json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})}},
             "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}],
                          "content": {"mimeType": "application/json", "text": body}}}
    har = tmp_path / "page.har"
    har.write_text(json.dumps({"log": {"version": "1.2", "entries": [entry]}}))
    small = _small(tmp_path)
    for capture, where in ((path, "/4"), (har, "/log/entries/0/response/content/text")):
        run = check(tmp_path, str(capture))
        found = [(f["rule"], f["pointer"], f["message"]) for f in run.report()["findings"] if f["rule"] == "MCP600"]
        assert found == [("MCP600", where, found[0][2])] and "more than 500,000 JSON values" in found[0][2], found
        assert run.peak_mib < small.peak_mib + 250, (small.peak_mib, run.peak_mib)


def test_a_har_file_of_more_values_than_a_listing_may_hold_is_linted(tmp_path):
    """The listing limit is not a HAR file's: its entries and headers cost little (a 20 MiB
    browser export holds about 550,000 values); its bodies are bounded one by one."""
    from mcplint.document.value_count import MAX_VALUES

    headers = [{"name": f"X-Trace-{i}", "value": "1"} for i in range(MAX_VALUES // 3 + 1000)]
    entry = {"startedDateTime": "2025-01-01T00:00:00Z", "time": 1,
             "request": {"method": "POST", "url": "http://127.0.0.1/mcp", "headers": [],
                         "postData": {"mimeType": "application/json",
                                      "text": json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})}},
             "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}, *headers],
                          "content": {"mimeType": "application/json",
                                      "text": json.dumps({"jsonrpc": "2.0", "id": 1, "result": {}})}}}
    har = tmp_path / "headers.har"
    har.write_text(json.dumps({"log": {"version": "1.2", "entries": [entry]}}))
    run = check(tmp_path, str(har))
    assert run.report()["summary"]["captures"] == 1, run.stderr
    assert "holds more than" not in run.stderr


def test_har_records_are_made_as_the_linter_reads_them(tmp_path):
    """A HAR file of 120,000 entries held 200 MB of records at once: they are made one entry at
    a time, each message's place in its HAR string known once its record is made."""
    from mcplint.capture import har
    from mcplint.document.loader import load_document

    entries = [{"request": {"method": "POST", "url": "http://127.0.0.1:1/mcp", "postData": {
        "text": json.dumps({"jsonrpc": "2.0", "id": i, "method": "ping"})}}, "response": {"status": 200}}
        for i in range(3)]
    path = tmp_path / "pings.har"
    path.write_text(json.dumps({"log": {"version": "1.2", "entries": entries}}))
    document = load_document(str(path), None, 1 << 20, max_values=None)
    embedded: dict = {}
    made = har.records(document, embedded)
    assert embedded == {}
    first = next(made)
    assert first.index == 0 and list(embedded) == [("log", "entries", "0", "request", "postData", "text")]
    assert [record.index for record in made] == [1, 2, 3, 4, 5]
