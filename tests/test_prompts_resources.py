"""Prompts, resources and resource templates are linted like tools: every document shape is
recognised, findings are located (line, column, pointer) in JSON and YAML, named in logical
pointers and fingerprints, found on the prompts/list and resources/list pages of a capture, and
reported by a real audit of an SDK server that lists a planted prompt problem."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from conftest import FIXTURES, ROOT, run_mcplint, shared_path
from mcplint import fingerprints
from mcplint.document.loader import load_document
from mcplint.document.manifest import EXPECTED, classify
from mcplint.document.pointer import Pointer
from mcplint.testing import lint_text
from mcplint.versions import VERSIONS

PROMPT = {"name": "summarize", "description": "Summarise a text.", "arguments": [{"name": "text", "required": True}]}
RESOURCE = {"uri": "notes://index", "name": "note_index", "mimeType": "text/plain"}
TEMPLATE = {"uriTemplate": "notes://{id}", "name": "note"}
TOOL = {"name": "get_time", "description": "Get the time.", "inputSchema": {"type": "object"}}


def manifest(data, fmt: str = "json"):
    text = json.dumps(data) if fmt == "json" else data
    return classify(load_document(f"doc.{fmt}", text.encode("utf-8")))


# -- classify ---------------------------------------------------------------------------------

def wrap(result):
    return {"jsonrpc": "2.0", "id": 7, "result": result}


@pytest.mark.parametrize("data,shape,method,lists", [
    ({"tools": [TOOL]}, "result", "tools/list", {"tools": "/tools"}),
    ({"prompts": [PROMPT]}, "result", "prompts/list", {"prompts": "/prompts"}),
    ({"resources": [RESOURCE]}, "result", "resources/list", {"resources": "/resources"}),
    ({"resourceTemplates": [TEMPLATE]}, "result", "resources/templates/list",
     {"resourceTemplates": "/resourceTemplates"}),
    ({"prompts": []}, "result", "prompts/list", {"prompts": "/prompts"}),  # a server with no prompts
    (wrap({"tools": [TOOL]}), "response", "tools/list", {"tools": "/result/tools"}),
    (wrap({"prompts": [PROMPT], "nextCursor": "2"}), "response", "prompts/list", {"prompts": "/result/prompts"}),
    (wrap({"resources": [RESOURCE]}), "response", "resources/list", {"resources": "/result/resources"}),
    (wrap({"resourceTemplates": []}), "response", "resources/templates/list",
     {"resourceTemplates": "/result/resourceTemplates"}),
    ({"tools": [TOOL], "prompts": [PROMPT], "resources": [RESOURCE], "resourceTemplates": [TEMPLATE]}, "listing", None,
     {"tools": "/tools", "prompts": "/prompts", "resources": "/resources", "resourceTemplates": "/resourceTemplates"}),
    ({"prompts": [PROMPT], "resources": []}, "listing", None, {"prompts": "/prompts", "resources": "/resources"}),
    ({"resourceTemplates": [TEMPLATE], "tools": []}, "listing", None,
     {"tools": "/tools", "resourceTemplates": "/resourceTemplates"}),
    # A broken entry does not hide the list (MCP248 reports it), as long as some entry is a prompt.
    ({"prompts": [PROMPT, "review"]}, "result", "prompts/list", {"prompts": "/prompts"}),
    ([TOOL], "array", None, {}),
    (TOOL, "tool", None, {}),
])
def test_classify_every_shape(data, shape, method, lists):
    found = manifest(data)
    assert found is not None
    assert (found.shape, found.method) == (shape, method)
    assert {member: str(ptr) for member, ptr in found.lists.items()} == lists
    assert (found.result is not None) == (method == "tools/list")  # MCP109/MCP110 read only tools/list results


@pytest.mark.parametrize("data", [
    {"prompts": ["prompts/summary.txt", "file://review.md"]},  # an LLM-eval config: prompts are paths
    {"prompts": [{"id": "p1", "label": "Summary", "raw": "Summarise {{text}}"}]},
    {"resources": {"limits": {"cpu": "1"}}},  # a Kubernetes-like block
    {"resources": [{"cpu": "1", "memory": "1Gi"}]},
    {"resourceTemplates": "notes://{id}"},
    wrap({"prompts": ["a", "b"]}),
    {"name": "package", "version": "1.0.0"},
])
def test_other_documents_are_not_listings(data):
    assert manifest(data) is None


def test_a_tools_only_manifest_is_built_as_before():
    found = manifest({"tools": [TOOL], "resultType": "complete"})
    assert (found.shape, found.tools_pointer, found.result[0]) == ("result", Pointer(("tools",)), Pointer())
    assert found.prompts() == found.resources() == found.resource_templates() == found.listing_texts() == []
    assert manifest(wrap({"tools": [TOOL]})).result == (Pointer(("result",)), {"tools": [TOOL]})


def test_walks_return_entries_with_their_pointers():
    found = manifest(wrap({"prompts": [PROMPT, 5], "extra": 1}))
    assert found.prompts() == [(Pointer(("result", "prompts", 0)), PROMPT), (Pointer(("result", "prompts", 1)), 5)]
    assert found.tools() == found.resources() == []
    listing = manifest({"resources": [RESOURCE], "resourceTemplates": [TEMPLATE]})
    assert [str(p) for p, _ in listing.resources()] == ["/resources/0"]
    assert [str(p) for p, _ in listing.resource_templates()] == ["/resourceTemplates/0"]
    texts = manifest({"prompts": [{"name": "p", "title": "P", "description": "D",
                                   "arguments": [{"name": "a", "title": "A", "description": "Arg"}]}]}).listing_texts()
    assert [(str(p), what) for p, what, _ in texts] == [
        ("/prompts/0/name", "prompt name"), ("/prompts/0/title", "prompt title"),
        ("/prompts/0/description", "prompt description"),
        ("/prompts/0/arguments/0/title", "prompt argument 'a' title"),
        ("/prompts/0/arguments/0/description", "prompt argument 'a' description"),
    ]


def test_tool_rules_see_no_tools_in_a_prompts_listing():
    """Every rule runs on a prompts-only document without failing; only prompt findings come out."""
    findings = lint_text(json.dumps({"prompts": [{"name": "summarizeText", "description": "Summarise a text."}]}))
    assert [(f.code, f.pointer) for f in findings] == [("MCP240", "/prompts/0/name")]
    assert findings[0].tool is None


def test_expected_shapes_are_named_in_the_error_for_another_document(tmp_path):
    path = tmp_path / "package.json"
    path.write_text('{"name": "x", "version": "1.0.0"}')
    proc = run_mcplint("check", str(path))
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert "not an MCP tool manifest or prompt/resource listing" in err
    for shape in ("tools/list result", "prompts/list", "resources/list", "resources/templates/list", "server listing"):
        assert shape in err and shape in EXPECTED


# -- locations, logical pointers and fingerprints ---------------------------------------------

PROMPTS_JSON = """{
  "prompts": [
    {"name": "summarize", "description": "Summarise a text."},
    {"name": "code-review", "description": "Review a diff 🔍"}
  ]
}
"""

PROMPTS_YAML = """\
prompts:
  - name: summarize
    description: Summarise a text.
  - name: code-review
    description: "Review a diff 🔍"
"""


def located(text: str, fmt: str):
    return [(f.code, f.pointer, f.span.line, f.span.column, f.span.end_column)
            for f in lint_text(text, fmt, select=["MCP240", "MCP220"])]


def test_findings_are_located_in_a_json_prompts_listing():
    assert located(PROMPTS_JSON, "json") == [
        ("MCP240", "/prompts/1/name", 4, 14, 27),
        ("MCP220", "/prompts/1/description", 4, 59, 60),  # the emoji, not the whole description
    ]


def test_findings_are_located_in_a_yaml_prompts_listing():
    assert located(PROMPTS_YAML, "yaml") == [
        ("MCP240", "/prompts/1/name", 4, 11, 22),
        ("MCP220", "/prompts/1/description", 5, 33, 34),
    ]


def test_logical_pointers_and_fingerprints_name_the_entry():
    doc = manifest({"tools": [TOOL], "prompts": [PROMPT], "resources": [RESOURCE]})
    assert fingerprints.logical_pointer(doc, Pointer(("prompts", 0, "description"))) == "/prompts/[summarize]/description"
    assert fingerprints.logical_pointer(doc, Pointer(("resources", 0, "uri"))) == "/resources/[note_index]/uri"
    assert fingerprints.logical_pointer(doc, Pointer(("tools", 0, "name"))) == "/tools/[get_time]/name"
    assert fingerprints.logical_pointer(doc, Pointer(("prompts",))) == "/prompts"
    response = manifest(wrap({"prompts": [PROMPT]}))
    assert fingerprints.logical_pointer(response, Pointer(("result", "prompts", 0, "arguments", 0))) == (
        "/result/prompts/[summarize]/arguments/0")


def test_a_fingerprint_survives_moving_the_prompt():
    bad = {"name": "codeReview", "description": "Review a diff."}
    first = lint_text(json.dumps({"prompts": [PROMPT, bad]}), select=["MCP240"])
    moved = lint_text(json.dumps({"prompts": [bad, PROMPT], "resources": []}), select=["MCP240"])
    assert [f.pointer for f in first] == ["/prompts/1/name"] and [f.pointer for f in moved] == ["/prompts/0/name"]
    assert first[0].fingerprint == moved[0].fingerprint


def test_a_combined_listing_is_linted_as_a_whole(tmp_path):
    path = tmp_path / "server-listing.json"
    path.write_text(json.dumps({
        "tools": [{"name": "getTime", "description": "Get the time.", "inputSchema": {"type": "object"}}],
        "prompts": [{"name": "codeReview"}, {"name": "codeReview"}],
        "resources": [{"uri": "notes/index", "name": "index"}],
        "resourceTemplates": [{"uriTemplate": "notes://{id", "name": "note"}],
    }))
    proc = run_mcplint("check", str(path), "--format", "json")
    found = {(f["rule"], f["pointer"]) for f in json.loads(proc.stdout)["findings"]}
    assert {("MCP202", "/tools/0/name"), ("MCP240", "/prompts/0/name"), ("MCP242", "/prompts/1/name"),
            ("MCP246", "/resources/0/uri"), ("MCP246", "/resourceTemplates/0/uriTemplate")} <= found


# -- captures -----------------------------------------------------------------------------------

def line(sender: str, message: dict) -> str:
    return json.dumps({"from": sender, "message": message}, ensure_ascii=False)


CAPTURE = "\n".join([
    line("client", {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}),
    line("server", {"jsonrpc": "2.0", "id": 1, "result": {
        "protocolVersion": "2025-06-18", "capabilities": {"prompts": {}, "resources": {}},
        "serverInfo": {"name": "s", "version": "1"}}}),
    line("client", {"jsonrpc": "2.0", "method": "notifications/initialized"}),
    line("client", {"jsonrpc": "2.0", "id": 2, "method": "prompts/list"}),
    line("server", {"jsonrpc": "2.0", "id": 2, "result": {"prompts": [
        {"name": "simple-prompt", "description": "A prompt with no arguments ✨"},
        {"name": "args_prompt", "arguments": [{"name": "cityName", "required": True}]}]}}),
    line("client", {"jsonrpc": "2.0", "id": 3, "method": "resources/list"}),
    line("server", {"jsonrpc": "2.0", "id": 3, "result": {"resources": [
        {"uri": "README.md", "name": "readme", "mimeType": "markdown"}]}}),
    line("client", {"jsonrpc": "2.0", "id": 4, "method": "resources/templates/list"}),
    line("server", {"jsonrpc": "2.0", "id": 4, "result": {"resourceTemplates": [
        {"uriTemplate": "notes://{note-id}", "name": "note"}]}}),
    line("client", {"jsonrpc": "2.0", "id": 5, "method": "prompts/list"}),  # the same page again
    line("server", {"jsonrpc": "2.0", "id": 5, "result": {"prompts": [
        {"name": "simple-prompt", "description": "A prompt with no arguments ✨"},
        {"name": "args_prompt", "arguments": [{"name": "cityName", "required": True}]}]}}),
]) + "\n"


def test_capture_pages_of_prompts_resources_and_templates_are_linted():
    findings = lint_text(CAPTURE, "jsonl")
    got = [(f.code, f.severity.value, f.pointer, f.span.line) for f in findings]
    assert got == [
        ("MCP240", "warning", "/4/message/result/prompts/0/name", 5),
        ("MCP220", "warning", "/4/message/result/prompts/0/description", 5),
        ("MCP243", "warning", "/4/message/result/prompts/1/arguments/0/name", 5),
        ("MCP246", "error", "/6/message/result/resources/0/uri", 7),
        ("MCP247", "warning", "/6/message/result/resources/0/mimeType", 7),
        ("MCP246", "warning", "/8/message/result/resourceTemplates/0/uriTemplate", 9),
    ]  # the prompts page seen again (line 11) is not linted twice
    column = CAPTURE.splitlines()[4].index('"simple-prompt"') + 1
    assert findings[0].span.column == column and all(f.tool is None for f in findings)


def test_a_capture_list_result_without_its_list():
    text = CAPTURE.replace('"result": {"prompts": [', '"result": {"other": [', 1)
    text += line("client", {"jsonrpc": "2.0", "id": 6, "method": "tools/list"}) + "\n"
    text += line("server", {"jsonrpc": "2.0", "id": 6, "result": {}}) + "\n"  # once a crash
    findings = lint_text(text, "jsonl", select=["MCP248", "MCP102"])
    assert [(f.code, f.pointer) for f in findings] == [("MCP248", "/4/message/result")]
    assert "The prompts/list result has no 'prompts'" in findings[0].message


# -- a real audit -------------------------------------------------------------------------------

PLANTED = {
    ("MCP240", "prompts/0/name"), ("MCP243", "prompts/0/arguments/0/name"), ("MCP220", "prompts/0/description"),
    ("MCP221", "prompts/0/description"), ("MCP401", "prompts/2/description"), ("MCP402", "prompts/2/description"),
    ("MCP246", "resources/1/uri"), ("MCP247", "resources/1/mimeType"),
}


@pytest.mark.parametrize("version", [None, "2025-06-18"])
def test_audit_of_an_sdk_server_reports_its_planted_prompt_and_resource_problems(version):
    options = ["--protocol-version", version] if version else []
    proc = subprocess.run(
        [sys.executable, "-m", "mcplint", "audit", "--format", "json", *options, "--",
         sys.executable, str(FIXTURES / "servers" / "prompt_problems.py")],
        cwd=ROOT, capture_output=True, timeout=90,
    )
    assert proc.returncode == 1, proc.stderr.decode()[-2000:]
    report = json.loads(proc.stdout)
    found = {(f["rule"], f["pointer"].split("/result/", 1)[-1]) for f in report["findings"] if f["rule"] != "MCP705"}
    assert found == PLANTED  # nothing else: the conforming prompt, resources and template stay silent
    if version:
        assert report["summary"]["audit"]["protocol_version"] == version


# -- the official schemas as the oracle ---------------------------------------------------------

OURS = ("prompt_name_style", "prompt_name_missing", "duplicate_prompt_name", "prompt_argument_name_style",
        "prompt_argument_name_invalid", "resource_field_missing", "resource_uri_invalid",
        "resource_mime_type_invalid", "listing_entry_not_object", "listing_field_type_invalid")
SCHEMA_RULES = ["MCP245", "MCP248", "MCP249"]  # what the schema alone decides
DEFINITIONS = {"prompts": "Prompt", "resources": "Resource", "resourceTemplates": "ResourceTemplate"}


@lru_cache(maxsize=None)
def validator(version: str, definition: str):
    from jsonschema.validators import validator_for

    schema = json.loads(shared_path("spec", version, "schema.json").read_text("utf-8"))
    defs = "definitions" if "definitions" in schema else "$defs"
    return validator_for(schema)({**schema, "$ref": f"#/{defs}/{definition}"})


def cases():
    for stem in OURS:
        spec = YAML(typ="safe", pure=True).load((FIXTURES / "rules" / f"{stem}.yaml").read_text("utf-8"))
        for case in spec["cases"]:
            yield pytest.param(spec["rule"], case, id=f"{stem}::{case['name']}")


GOOD_CASES = [c for c in cases() if not c.values[1].get("expect")]


@pytest.mark.parametrize("code,case", GOOD_CASES)
def test_good_cases_stay_silent_at_every_version(code, case):
    """A good case that names no version is good at all of them."""
    options = {code: case["options"]} if "options" in case else None
    for version in [str(case["protocol"])] if "protocol" in case else VERSIONS:
        found = lint_text(case["doc"], case.get("format", "json"), select=[code], version=version, options=options)
        assert found == [], (version, [(f.pointer, f.message) for f in found])


@pytest.mark.parametrize("code,case", list(cases()))
def test_entries_the_schema_rejects_draw_a_finding(code, case):
    """Every prompt, resource or template of a case that the official schema rejects at the case's
    version (or at every version, for a case that names none) draws a finding inside it."""
    doc = classify(load_document(f"case.{case.get('format', 'json')}", case["doc"].encode("utf-8")))
    for version in [str(case["protocol"])] if "protocol" in case else VERSIONS:
        findings = lint_text(case["doc"], case.get("format", "json"), version=version)
        for member, definition in DEFINITIONS.items():
            for ptr, entry in doc.entries(member):
                if validator(version, definition).is_valid(entry):
                    continue
                inside = [f for f in findings if f.pointer == str(ptr) or f.pointer.startswith(f"{ptr}/")]
                assert inside, f"{ptr} is invalid at {version} but nothing is reported there"


TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
META = st.dictionaries(st.sampled_from(["example.com/a", "b"]), st.integers(), max_size=2)
ICONS = st.lists(st.fixed_dictionaries({"src": st.just("https://example.com/i.png")}), max_size=2)
ANNOTATIONS = st.fixed_dictionaries({}, optional={
    "audience": st.lists(st.sampled_from(["user", "assistant"]), max_size=2),
    "priority": st.floats(0, 1),
    "lastModified": st.just("2025-01-12T15:00:58Z"),
})
COMMON = {"description": TEXT, "title": TEXT, "_meta": META, "icons": ICONS}
ARGUMENT = st.fixed_dictionaries({"name": TEXT}, optional={"description": TEXT, "title": TEXT,
                                                            "required": st.booleans()})
ENTRIES = {
    "prompts": st.fixed_dictionaries({"name": TEXT}, optional={**COMMON, "arguments": st.lists(ARGUMENT, max_size=3)}),
    "resources": st.fixed_dictionaries({"uri": st.sampled_from(["notes://a", "file:///x/y.md", "https://e.com/?q=1"]),
                                        "name": TEXT},
                                       optional={**COMMON, "mimeType": TEXT, "size": st.integers(0, 10**9),
                                                 "annotations": ANNOTATIONS}),
    "resourceTemplates": st.fixed_dictionaries({"uriTemplate": st.sampled_from(["notes://{id}", "file:///{+path}"]),
                                                "name": TEXT},
                                               optional={**COMMON, "mimeType": TEXT, "annotations": ANNOTATIONS}),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(version=st.sampled_from(VERSIONS), member=st.sampled_from(sorted(ENTRIES)), data=st.data())
def test_schema_valid_entries_draw_no_schema_finding(version, member, data):
    """Whatever the official schema of a version accepts, MCP245, MCP248 and MCP249 accept too."""
    entries = data.draw(st.lists(ENTRIES[member], min_size=1, max_size=3))
    entries = [e for e in entries if validator(version, DEFINITIONS[member]).is_valid(e)]
    if not entries:
        return
    findings = lint_text(json.dumps({member: entries}), select=SCHEMA_RULES, version=version)
    assert findings == [], [(f.code, f.pointer, f.message) for f in findings]
