"""The three walks over a tool's parameters agree: the shared schema facts (``schemas.facts``: the
parameter rules' candidates and pre-checks), the manifest's pointer walk (``property_schemas``,
``Manifest.parameters``) and its joined-text pre-check (``joined_texts``). A parameter one walk visits
and another skips is a finding silently lost (a hype phrase inside an anyOf object was)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from conftest import FIXTURES
from mcplint.document.manifest import property_schemas
from mcplint.document.tool_texts import _tool_strings
from mcplint.schemas import facts

NESTED = {"type": "object", "properties": {
    "content": {"description": "Text or operations.", "anyOf": [
        {"type": "string"},
        {"type": "array", "items": {"anyOf": [
            {"type": "object", "properties": {"pageIndex": {"type": "number", "title": "Page"},
                                              "pdfOptions": {"type": "object", "properties": {
                                                  "format": {"type": "string", "description": "A4"}}}}},
            {"type": "object", "allOf": [{"properties": {"sourcePdfPath": {"type": "string"}}}]}]}}]},
    "mode": {"type": "string", "description": "Copy or move."}},
    "oneOf": [{"properties": {"mode": {"const": "copy"}}}, {"properties": {"mode": {"const": "move"}}}]}


def _schemas():
    yield "nested", NESTED
    for path in sorted((FIXTURES / "real-servers").glob("*/tools.json")):
        for tool in json.loads(path.read_text(encoding="utf-8"))["tools"]:
            if isinstance(tool.get("inputSchema"), dict):
                yield f"{path.parent.name}/{tool['name']}", tool["inputSchema"]


@pytest.mark.parametrize("name, schema", list(_schemas()), ids=lambda v: v if isinstance(v, str) else "")
def test_the_walks_visit_the_same_parameters(name, schema):
    walked = property_schemas(schema)
    found = facts(schema, "2025-11-25")
    assert Counter(found.names) == Counter(n for n, _ in walked)
    texts = [t for _, sub in walked if isinstance(sub, dict) for t in (sub.get("title"), sub.get("description"))
             if isinstance(t, str)]
    assert _tool_strings({"inputSchema": schema}) == texts
    assert Counter(found.texts) == Counter(texts)


def test_the_root_branches_are_not_parameters_and_a_parameters_branches_are():
    names = [n for n, _ in property_schemas(NESTED)]
    assert names == ["content", "pageIndex", "pdfOptions", "format", "sourcePdfPath", "mode"]
