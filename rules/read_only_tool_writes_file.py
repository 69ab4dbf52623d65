from mcplint import versions
from mcplint.document.tool_texts import non_ascii_texts
from mcplint.document.text_census import text_census
from mcplint.file_writes import WRITE_WORDS, may_write, writes_to_place
from mcplint.findings import Severity
from mcplint.risk import tool_intent
from mcplint.rule import ToolRule, Violation


class ReadOnlyToolWritesFile(ToolRule):
    """A tool annotated read-only saves, writes or exports to a file or path it is given.

    ## Why
    The spec defines `readOnlyHint: true` as "the tool does not modify its
    environment". A tool that saves a screenshot, writes a report or exports a
    table to a file does, and a client that trusts the hint runs it without asking,
    letting it create or overwrite any file the path names.

    The rule reads what MCP410 cannot: a tool whose name has no effect verb
    (`take_screenshot`, `render_chart`) but which takes a destination parameter
    (`filename`, `file_path`, `output`, `output_path`, `save_to`, `destination`,
    `out_file`) that its description or the parameter's own description says it
    saves, writes, exports or stores to, or whose description says it saves or
    writes to a file, a path or disk ("Take a screenshot and save it to the given
    path"). Tools MCP410 already flags are left to it. A path that is only read
    ("Read the file at path"), a search filter `path`, an `output_format` choice,
    an adjective ("a saved file"), sentences saying what the tool does not do
    ("never writes to disk") and a path only a caller could name in a listing that
    takes none ("local mode can save to a path": another mode of the tool) stay silent. It is a warning because annotations are
    hints.

    ## Bad
    ```json
    {"tools": [{"name": "take_screenshot",
                "description": "Take a screenshot and save it to the given path.",
                "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
                "annotations": {"readOnlyHint": true}}]}
    ```

    ```json
    {"tools": [{"name": "render_chart", "description": "Render a chart of the series.",
                "inputSchema": {"type": "object", "properties": {
                  "output_path": {"type": "string", "description": "Where to save the PNG."}}},
                "annotations": {"readOnlyHint": true}}]}
    ```

    ## Good
    ```json
    {"tools": [{"name": "take_screenshot",
                "description": "Take a screenshot and save it to the given path.",
                "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
                "annotations": {"readOnlyHint": false, "destructiveHint": false}},
               {"name": "read_text", "description": "Read the file at path.",
                "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
                "annotations": {"readOnlyHint": true}},
               {"name": "render_chart", "description": "Render a chart; it never writes to disk.",
                "inputSchema": {"type": "object", "properties": {
                  "output_format": {"type": "string", "description": "png or svg"}}},
                "annotations": {"readOnlyHint": true}}]}
    ```
    """

    code = "MCP414"
    name = "read-only-tool-writes-file"
    checklist = (20,)
    category = "security"
    severity = Severity.WARNING
    versions = versions.since(versions.V2025_03_26)

    def candidates(self, doc, ctx):
        if not any(value is True for value in doc.census().annotation_values("readOnlyHint")):
            return []
        # Evidence needs a write verb: when no ASCII text has one, only a tool whose other texts
        # have one may (those texts' words as writes_to_place reads them).
        texts = text_census(doc)
        if not WRITE_WORDS.isdisjoint(texts.ascii_words):
            tools = list(zip(doc.tool_objects(), doc.census().column("annotations")))
        elif not may_write(texts.non_ascii_text):  # (all the other texts at once)
            return []
        else:
            tools = [(pair, pair[1].get("annotations")) for pair in texts.non_ascii_tools
                     if any(may_write(text) for _, _, text in non_ascii_texts(doc, *pair))]
        return [pair for pair, hints in tools if isinstance(hints, dict) and hints.get("readOnlyHint") is True]

    def check_tool(self, ptr, tool, ctx):
        annotations = tool.get("annotations")
        if not isinstance(annotations, dict) or annotations.get("readOnlyHint") is not True:
            return
        if tool_intent(tool.get("name"), tool.get("description")) is not None:
            return  # MCP410 already says the name or leading verb contradicts the hint
        evidence = writes_to_place(tool)
        if evidence is None:
            return
        parameter = evidence.parameter or ""
        parameter = parameter if len(parameter) <= 40 else parameter[:39] + "…"  # a name is server text
        where = f"its {evidence.source}"
        if evidence.source == "parameter description":
            where = f"the description of its parameter '{parameter}'"
        target = f" to '{parameter}'" if parameter and evidence.source == "description" else ""
        yield Violation(
            ptr / "annotations" / "readOnlyHint",
            f"Tool claims readOnlyHint: true, but {where} says it writes{target} (\"{evidence.quote}\"); "
            "a tool that saves to a file modifies its environment: set readOnlyHint: false",
        )
