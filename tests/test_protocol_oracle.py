"""The official MCP JSON schemas (read from ../shared, never copied here) as the oracle
for mcplint's own protocol model: every tool definition the official `Tool` schema
rejects at a version must draw at least one finding inside that tool at that version,
and the documents we present as good must be valid tools."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
from ruamel.yaml import YAML

from conftest import FIXTURES, SHARED, shared_path
from mcplint import docs, registry
from mcplint.document.loader import load_document
from mcplint.document.manifest import classify
from mcplint.engine import infer_version
from mcplint.testing import lint_text
from mcplint.versions import VERSIONS


@lru_cache(maxsize=None)
def tool_validator(version: str):
    from jsonschema.validators import validator_for

    schema = json.loads(shared_path("spec", version, "schema.json").read_text("utf-8"))
    defs = "definitions" if "definitions" in schema else "$defs"
    cls = validator_for(schema)
    return cls({**schema, "$ref": f"#/{defs}/Tool"})


def documents():
    """(id, text, format, version or None) for every document we lint in tests."""
    for case_file in sorted((FIXTURES / "rules").glob("*.yaml")):
        spec = YAML(typ="safe", pure=True).load(case_file.read_text("utf-8"))
        for case in spec["cases"]:
            version = str(case["protocol"]) if "protocol" in case else None
            yield f"{case_file.stem}::{case['name']}", case["doc"], case.get("format", "json"), version
    for rule in registry.all_rules():
        for index, example in enumerate(docs.examples(rule)):
            yield f"{rule.code}-{example.kind}-{index}", example.text, example.format, example.version
    for path in sorted((FIXTURES / "manifests").glob("*.*")):
        if path.suffix in (".json", ".yaml"):
            yield path.name, path.read_text("utf-8"), path.suffix[1:], None
    corpus = SHARED / "corpus" / "manifests"
    if corpus.is_dir():
        for path in sorted(corpus.glob("*.json")):
            yield f"corpus/{path.name}", path.read_text("utf-8"), "json", None


# Captures (jsonl, har) are judged by the traffic oracle, tests/test_traffic_oracle.py.
DOCUMENTS = [d for d in documents() if d[2] in ("json", "yaml")]


def _tools(text: str, fmt: str, version: str | None):
    manifest = classify(load_document(f"doc.{fmt}", text.encode("utf-8")))
    if manifest is None:
        return None, []
    return version or infer_version(manifest), [(str(p), t) for p, t in manifest.tools() if isinstance(t, dict)]


@pytest.mark.parametrize("doc_id,text,fmt,version", DOCUMENTS, ids=[d[0] for d in DOCUMENTS])
def test_schema_invalid_tools_are_reported(doc_id, text, fmt, version):
    version, tools = _tools(text, fmt, version)
    invalid = [(ptr, tool) for ptr, tool in tools if not tool_validator(version).is_valid(tool)]
    if not invalid:
        return
    findings = lint_text(text, fmt, version=version)
    for ptr, tool in invalid:
        errors = [e.message for e in tool_validator(version).iter_errors(tool)]
        reported = [f for f in findings if f.pointer == ptr or f.pointer.startswith(ptr + "/")]
        assert reported, f"{ptr} is invalid at {version} ({errors[0]}) but mcplint reports nothing there"


GOOD = [d for d in DOCUMENTS if "-good-" in d[0] or d[0] == "clean-server.json"]


@pytest.mark.parametrize("doc_id,text,fmt,version", GOOD, ids=[d[0] for d in GOOD])
def test_good_examples_are_valid_tools(doc_id, text, fmt, version):
    version, tools = _tools(text, fmt, version)
    for ptr, tool in tools:
        errors = [e.message for e in tool_validator(version).iter_errors(tool)]
        assert not errors, f"{doc_id} {ptr} is not a valid Tool at {version}: {errors[0]}"


def test_oracle_sees_every_version():
    assert all(tool_validator(v) for v in VERSIONS)


def test_the_oracle_has_invalid_tools_to_judge():
    """Guards the test above against passing vacuously."""
    invalid = 0
    for _, text, fmt, version in DOCUMENTS:
        version, tools = _tools(text, fmt, version)
        invalid += sum(not tool_validator(version).is_valid(tool) for _, tool in tools)
    assert invalid >= 20
