"""Pointer -> line/column for JSON and YAML: exact, Unicode-aware, with parent fallback."""

from __future__ import annotations

import pytest

from mcplint.document.loader import load_document
from mcplint.document.pointer import Pointer
from mcplint.document.span import Span


def span_of(text: str, pointer: str, fmt: str = "json", key: bool = False):
    doc = load_document(f"t.{fmt}", text.encode("utf-8"))
    return doc.source_map.span(Pointer.parse(pointer), key=key)


def test_pointer_round_trip_and_escaping():
    ptr = Pointer.parse("/a~1b/c~0d/0")
    assert list(ptr) == ["a/b", "c~d", "0"]
    assert str(ptr) == "/a~1b/c~0d/0"
    assert str(Pointer() / "tools" / 3 / "name") == "/tools/3/name"
    assert Pointer.parse("") == Pointer()


@pytest.mark.parametrize("fmt,text", [
    ("json", '{\n  "tools": [\n    {"name": "x", "description": "d"}\n  ]\n}'),
    ("yaml", "tools:\n  - name: x\n    description: d\n"),
])
def test_value_and_key_spans(fmt, text):
    span, found = span_of(text, "/tools/0/description", fmt)
    assert str(found) == "/tools/0/description"
    line = text.splitlines()[span.line - 1]
    assert line[span.column - 1:span.end_column - 1].strip('"') == "d"
    key_span, _ = span_of(text, "/tools/0/description", fmt, key=True)
    assert line[key_span.column - 1:key_span.end_column - 1].strip('"') == "description"


def test_missing_member_falls_back_to_nearest_parent():
    text = '{"tools": [\n  {"name": "x"}\n]}'
    span, found = span_of(text, "/tools/0/inputSchema/type")
    assert str(found) == "/tools/0"
    assert (span.line, span.column) == (2, 3)


def test_columns_count_code_points_with_bom_crlf_tabs_and_non_ascii():
    text = '\ufeff{"tools": [\r\n\t{"name": "日本語", "description": "é🎉x"}]}'
    span, _ = span_of(text, "/tools/0/description")
    line = '\t{"name": "日本語", "description": "é🎉x"}]}'  # tab, CJK and emoji count one each
    start = line.index('"é') + 1
    assert span == Span(2, start, 2, start + len('"é🎉x"'))
    yaml_span, _ = span_of('tools:\r\n  - name: "日本語"\r\n    description: é🎉x\r\n', "/tools/0/description", "yaml")
    assert (yaml_span.line, yaml_span.column) == (3, 18)


def test_duplicate_keys_are_recorded_and_located_at_the_last_occurrence():
    text = '{"tools": [{"name": "a", "name": "b"}]}'
    doc = load_document("t.json", text.encode())
    assert doc.data["tools"][0]["name"] == "b"
    assert [str(p) for p in doc.duplicate_keys] == ["/tools/0/name"]
    span, _ = doc.source_map.span(doc.duplicate_keys[0], key=True)
    assert span.column == text.index('"name": "b"') + 1


def test_many_pointers_resolve_in_one_walk():
    tools = ",\n".join(f'{{"name": "t{i}", "description": "d{i}"}}' for i in range(500))
    doc = load_document("t.json", f'{{"tools": [\n{tools}\n]}}'.encode())
    pointers = [Pointer(("tools", i, "description")) for i in range(0, 500, 7)]
    doc.source_map.prepare(pointers)
    for ptr in pointers:
        span, found = doc.source_map.span(ptr)
        assert found == ptr and span.line == ptr[1] + 2


def test_yaml_scalars_stay_json_like():
    doc = load_document("t.yaml", b"a: 2024-01-01\nb: 0x10\nc: yes\nd: null\ne: 1.5\nf: '7'\n")
    assert doc.data == {"a": "2024-01-01", "b": 16, "c": "yes", "d": None, "e": 1.5, "f": "7"}
