"""The real-server corpus in ../shared/corpus: mcplint must run cleanly on all of it, at
every protocol version, and report exactly the reviewed findings (fixtures/corpus)."""

from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, assert_golden, run_mcplint, shared_path
from mcplint.versions import VERSIONS


def lint_corpus(*args: str, folder: str = "."):
    corpus = shared_path("corpus")
    proc = run_mcplint("check", folder, "--format", "json", *args, cwd=corpus)
    assert proc.returncode in (0, 1), proc.stderr.decode()
    assert proc.stderr == b"", proc.stderr.decode()
    return json.loads(proc.stdout)


def test_corpus_findings_are_the_reviewed_ones():
    payload = lint_corpus()
    summary = payload["summary"]
    assert (summary["files"], summary["captures"], summary["errors"], summary["skipped"]) == (8, 32, 0, 0)
    lines = sorted(f"{f['path']} {f['rule']} {f['severity']} {f['pointer']}" for f in payload["findings"])
    assert_golden("\n".join(lines) + "\n", FIXTURES / "corpus" / "expected-findings.txt")


def test_corpus_manifests_have_no_errors_at_the_versions_their_servers_speak():
    assert lint_corpus(folder="manifests")["summary"]["by_severity"]["error"] == 0


def test_errors_in_captures_are_the_deviations_the_corpus_documents():
    """The corpus README's "What is on the wire": a deleted session answered 400 rather than 404
    (9) and a header/_meta version mismatch answered -32600 rather than -32020 (10) break a MUST.
    Nothing else is an error: unknown tools answered with an isError result (1) are a warning
    (the spec's -32602 is an example), and the foreign Origin served (8) is info, because a
    capture of a real client cannot show the server did not mean to allow it."""
    found = lint_corpus()["findings"]
    errors = {(f["rule"], f["path"].split("/")[-1]) for f in found if f["severity"] == "error"}
    assert errors == {("MCP819", "everything-http-probes.jsonl"), ("MCP811", "python-sdk-demo-http-probes.jsonl")}
    unknown_tool = {f["path"].split("/")[-1].split("-")[0].split(".")[0] for f in found if f["rule"] == "MCP705"}
    assert unknown_tool == {"everything", "memory", "filesystem", "sequential", "python"}
    assert {f["severity"] for f in found if f["rule"] == "MCP705"} == {"warning"}
    assert {f["severity"] for f in found if f["rule"] == "MCP821"} == {"info"}


@pytest.mark.parametrize("version", VERSIONS)
def test_corpus_manifests_lint_at_every_version(version):
    payload = lint_corpus("--protocol-version", version, folder="manifests")
    assert payload["summary"]["protocol_versions"] == [version]


def test_captures_are_linted_at_the_version_they_negotiated_whatever_is_configured():
    """--protocol-version applies to a capture only when it shows no version itself."""
    assert lint_corpus("--protocol-version", "2024-11-05", folder="transcripts")["summary"]["protocol_versions"] == [
        "2025-06-18", "2025-11-25", "2026-07-28",
    ]
