"""The tool schemas of a manifest with their facts (``schemas.facts``): one walk per document
and default dialect, shared by all the schema rules, and one walk for all the schemas with
the same JSON text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from mcplint import versions
from mcplint.document.pointer import Pointer
from mcplint.schema_dialects import DRAFT2020, LENIENT

if TYPE_CHECKING:
    from mcplint.rule import Violation
    from mcplint.schemas import Facts


class SchemaEntry:
    """One tool schema and its facts."""

    __slots__ = ("tool_ptr", "tool", "field", "schema", "facts")

    def __init__(self, tool_ptr: Pointer, tool: dict, field: str, schema: dict, facts: "Facts") -> None:
        self.tool_ptr = tool_ptr
        self.tool = tool
        self.field = field  # "inputSchema" | "outputSchema"
        self.schema = schema
        self.facts = facts

    def at(self, path: tuple = ()) -> Pointer:
        return tuple.__new__(Pointer, (*self.tool_ptr, self.field, *path))  # (Pointer's __new__, without a call)


def tool_objects(doc) -> list[tuple[Pointer, dict]]:
    """The manifest's tool objects, listed once per document for all rules."""
    return doc.tool_objects()


def tool_schemas(doc, version: str) -> list[SchemaEntry]:
    """Every object ``inputSchema`` and ``outputSchema`` with its facts, computed once per
    document and version for all the schema rules. Entries holding the same facts object
    have schemas with the same JSON text."""

    strict = version >= versions.V2025_11_25

    def build() -> list[SchemaEntry]:
        walked = doc.memoized(("tool-schemas", not strict))
        if walked is not None:  # the other default dialect's walk holds all the facts
            dialect, views = DRAFT2020 if strict else LENIENT, {}
            for e in walked:  # (one view of facts that schemas share)
                if e.facts.declared is None and id(e.facts) not in views:
                    views[id(e.facts)] = e.facts.in_dialect(dialect)
            return [SchemaEntry(e.tool_ptr, e.tool, e.field, e.schema, views.get(id(e.facts), e.facts))
                    for e in walked]
        census = doc.census()
        if "outputSchema" in census.fields:
            found = [(ptr, tool, name, schema) for ptr, tool in census.tools
                     for name in ("inputSchema", "outputSchema") if isinstance(schema := tool.get(name), dict)]
        else:  # (most documents: the one column)
            found = [(ptr, tool, "inputSchema", schema) for (ptr, tool), schema
                     in zip(census.tools, census.column("inputSchema")) if isinstance(schema, dict)]
        walked = _shared_facts([entry[3] for entry in found], version, doc.document.format == "json")
        return [SchemaEntry(ptr, tool, name, schema, f) for (ptr, tool, name, schema), f in zip(found, walked)]

    # The version matters only through the default dialect (2020-12 from 2025-11-25), so
    # versions that share it share the walk (the lenient re-check of inferred versions).
    return doc.memo(("tool-schemas", strict), build)


def _shared_facts(schemas: list[dict], version: str, share: bool) -> list[Facts]:
    """``facts`` of each schema, one walk for all those with the same JSON text (tools repeat
    their parameter shapes; the facts hold only paths inside the schema). Encoding with
    msgspec costs a seventh of a walk. Not for YAML (``share`` False), whose keys need not
    be strings, nor for a text with null, which NaN also encodes to; nor when msgspec was not
    worth importing for the document (a small one: few schemas to share)."""
    from mcplint import fast_json
    from mcplint.schemas import facts

    texts = None
    if share and fast_json.loaded():
        from msgspec.json import encode

        try:
            texts = list(map(encode, schemas))
        except Exception:  # a value JSON has no text for (a lone surrogate, a huge integer...)
            pass
    if texts is None:
        return [facts(schema, version) for schema in schemas]
    one_of_each = dict(zip(texts, schemas))  # (any schema with a text stands for all of them)
    shared = {text: facts(schema, version) for text, schema in one_of_each.items() if b"null" not in text}
    return [shared.get(text) or facts(schema, version) for text, schema in zip(texts, schemas)]


def violations_once_per_schema(entries, judge) -> Iterator["Violation"]:
    """A Violation at ``entry.at(path)`` for each (path, message[, severity]) ``judge(entry)`` lists, for
    every entry in order; judged once for all the entries that share facts (their schemas have
    the same JSON text). ``judge`` reads only the entry's schema and facts."""
    from mcplint.rule import Violation

    judged = {key: judge(entry) for key, entry in {id(entry.facts): entry for entry in entries}.items()}
    if not any(judged.values()):
        return  # (most documents: no entry is looked at again)
    for entry in entries:
        for path, message, *severity in judged[id(entry.facts)]:  # (path, message[, severity])
            yield Violation(entry.at(path), message, severity=severity[0] if severity else None)


def input_schemas(doc) -> list[SchemaEntry]:
    """``tool_schemas_any_dialect`` of the inputSchemas alone: the parameters."""
    return [entry for entry in tool_schemas_any_dialect(doc) if entry.field == "inputSchema"]


def tool_schemas_any_dialect(doc) -> list[SchemaEntry]:
    """``tool_schemas`` for the rules that read only facts no dialect changes (parameters,
    refs, arrays without items, required gaps): without the version, so the lenient
    re-check of an inferred version knows they find the same at every version."""
    for strict in (True, False):
        walked = doc.memoized(("tool-schemas", strict))
        if walked is not None:
            return walked
    return tool_schemas(doc, versions.LATEST)
