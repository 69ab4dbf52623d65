"""Golden outputs for captures: the bundled weather-server session (JSONL and HAR, every
format), and one capture per server of the real corpus (findings and checklist verdicts,
compact: positions and pointers, not code frames, so no corpus text is copied here).

Regenerate with MCPLINT_UPDATE_GOLDEN=1 and read the diff before committing it.
"""

from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, ROOT, assert_golden, run_mcplint, shared_path

CAPTURES = FIXTURES / "captures"
EXPECTED = CAPTURES / "expected"
CORPUS_CAPTURES = [
    "transcripts/everything-stdio.jsonl",
    "transcripts/everything-http-probes.jsonl",
    "transcripts/memory-stdio.jsonl",
    "transcripts/filesystem-stdio.jsonl",
    "transcripts/sequential-thinking-stdio.jsonl",
    "transcripts/time-stdio.jsonl",
    "transcripts/fetch-stdio.jsonl",
    "transcripts/git-stdio-2025-06-18.jsonl",
    "transcripts/python-sdk-demo-http-probes.jsonl",
    "har/everything.har",
    "har/python-sdk-demo.har",
    "har/python-sdk-demo-legacy.har",
]


@pytest.mark.parametrize("name", ["weather-http.jsonl", "weather.har"])
@pytest.mark.parametrize("fmt", ["rich", "json", "sarif"])
def test_bundled_capture(name, fmt):
    proc = run_mcplint("check", f"fixtures/captures/{name}", "--format", fmt, cwd=ROOT)
    assert proc.returncode == 1, proc.stderr.decode()
    out = proc.stdout.decode("utf-8")
    if fmt == "sarif":  # the tool version changes with every release
        out = out.replace(json.loads(out)["runs"][0]["tool"]["driver"]["semanticVersion"], "<version>")
    assert_golden(out, EXPECTED / f"{name}.{fmt}.txt")


def test_the_jsonl_and_har_forms_of_one_session_give_the_same_findings():
    found = {}
    for name in ("weather-http.jsonl", "weather.har"):
        payload = json.loads(run_mcplint("check", f"fixtures/captures/{name}", "--format", "json").stdout)
        found[name] = sorted((f["rule"], f["message"]) for f in payload["findings"])
    assert found["weather-http.jsonl"] == found["weather.har"]


@pytest.mark.parametrize("name", CORPUS_CAPTURES)
def test_corpus_capture(name):
    path = shared_path("corpus", *name.split("/"))
    proc = run_mcplint("check", str(path), "--format", "json")
    assert proc.returncode in (0, 1) and not proc.stderr, proc.stderr.decode()
    payload = json.loads(proc.stdout)
    lines = [f"# {name}: protocol {', '.join(payload['summary']['protocol_versions'])}"]
    for f in payload["findings"]:
        lines.append(f"{f['line']}:{f['column']} {f['severity']} {f['rule']} {f['pointer']} -- {f['message']}")
    lines.append("# checklist")
    for item in payload["summary"]["checklist"]:
        note = f" -- {item['note']}" if "note" in item else ""
        lines.append(f"{item['item']:>2} {item['status']}{note}")
    assert_golden("\n".join(lines) + "\n", EXPECTED / "corpus" / (name.replace("/", "__") + ".txt"))
