"""What the source search may take for a definition, from a hand review of repository mode on
published servers (wikipedia-mcp, notion, server-filesystem, mcp-server-chart, brave-search):
a tool registered through a decorator of the server's own is read from that function, a text
search stays inside the definition whose name it found, test code defines nothing, and a
server shipped as compiled JavaScript is searched where its command runs it."""

from __future__ import annotations

from pathlib import Path

from mcplint.source import Anchor, SourceIndex

TITLE = ("inputSchema", "properties", "title")


def covered(root: Path, anchor: Anchor) -> str:
    line = (root / anchor.path).read_text(encoding="utf-8").split("\n")[anchor.span.line - 1]
    return line[anchor.span.column - 1:anchor.span.end_column - 1] if anchor.span.end_line == anchor.span.line \
        else line[anchor.span.column - 1:]


# -- P2: a tool registered through a decorator of the server's own -------------------------------
WRAPPED = '''from fastmcp import FastMCP

server = FastMCP("wiki")


def create_server():
    def register_tool(name: str, output_schema: dict):
        def decorator(func):
            server.tool(func, name=name, output_schema=output_schema)
            server.tool(func, name=f"wikipedia_{name}", output_schema=output_schema)
            return func
        return decorator

    @register_tool("get_summary", {})
    def get_summary(title: str, count: int = 5):
        """Get a summary of an article."""
        return {"title": title, "count": count}

    def helper(title):
        return {"title": title}
'''


def test_a_tool_registered_through_a_wrapper_is_read_from_its_function(tmp_path: Path):
    (tmp_path / "server.py").write_text(WRAPPED, encoding="utf-8")
    index = SourceIndex.build([tmp_path], tmp_path)
    for name in ("get_summary", "wikipedia_get_summary"):  # the f-string alias too
        title = index.locate("tools", name, TITLE, {"type": "string"})
        count = index.locate("tools", name, ("inputSchema", "properties", "count", "default"), 5)
        description = index.locate("tools", name, ("description",), "Get a summary of an article.")
        assert (title.span.line, title.span.column, covered(tmp_path, title)) == (15, 21, "title"), title.how
        assert (count.span.line, covered(tmp_path, count)) == (15, "5")
        assert description.span.line == 16 and "@register_tool" in description.how
    named = index.locate("tools", "wikipedia_get_summary", ("name",), "wikipedia_get_summary")
    assert (named.span.line, covered(tmp_path, named)) == (14, '"get_summary"')


def test_a_text_search_never_takes_a_key_of_another_function(tmp_path: Path):
    """The wrapper is imported (not read): the name's literal is found in the decorator, and the
    `"title"` keys of the return statements below are not the parameter."""
    (tmp_path / "tools.py").write_text('''from .registry import register_tool


@register_tool("get_summary")
def get_summary(title: str):
    return {"title": title}


def helper(title):
    return {"title": title, "note": "unrelated"}
''', encoding="utf-8")
    index = SourceIndex.build([tmp_path], tmp_path)
    anchor = index.locate("tools", "get_summary", TITLE, {"type": "string"})
    assert isinstance(anchor, Anchor)
    assert (anchor.span.line, covered(tmp_path, anchor)) == (4, '"get_summary"'), anchor.how
    required = index.locate("tools", "get_summary", ("inputSchema", "required", "0"), "title")
    assert required.span.line == 4, required.how


def test_a_text_search_takes_a_key_inside_the_definition(tmp_path: Path):
    """A one-word text (`City`) written once, but in another function, is not the parameter's
    description; the parameter's key inside the tool's own call is where it is defined."""
    (tmp_path / "main.go").write_text('''package main

func other() map[string]string { return map[string]string{"city": "City"} }

func tools(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("get_alerts",
		mcp.WithString("city", mcp.Description(cityHelp)),
	), alerts)
}
''', encoding="utf-8")
    index = SourceIndex.build([tmp_path], tmp_path)
    key = index.locate("tools", "get_alerts", ("inputSchema", "properties", "city"), {"type": "string"})
    assert (key.span.line, covered(tmp_path, key)) == (7, '"city"')
    word = index.locate("tools", "get_alerts", ("inputSchema", "properties", "city", "description"), "City")
    assert (word.span.line, covered(tmp_path, word)) == (7, '"city"'), word.how


# -- P3: test code defines nothing ----------------------------------------------------------------
MOCK_TABLE = '''import { describe, it } from "vitest";

describe("proxy", () => {
  it("calls the tool", () => {
    (proxy as any).openApiLookup = {
      'API-create-a-comment': {
        operationId: 'create-a-comment',
        requestBody: { rich_text: [{ text: { content: 'x' } }] },
      },
    };
  });
});
'''


def test_test_code_is_not_where_a_tool_is_defined(tmp_path: Path):
    tests = tmp_path / "src" / "mcp" / "__tests__"
    tests.mkdir(parents=True)
    (tests / "proxy.test.ts").write_text(MOCK_TABLE, encoding="utf-8")
    (tmp_path / "src" / "mcp" / "proxy.spec.ts").write_text(MOCK_TABLE, encoding="utf-8")
    (tmp_path / "test_server.py").write_text("import mcp\n@mcp.tool()\ndef ping() -> str:\n    'Ping.'\n")
    index = SourceIndex.build([tmp_path / "src", tmp_path / "test_server.py"], tmp_path)
    for pointer in [("name",), ("inputSchema", "properties", "rich_text")]:
        found = index.locate("tools", "API-create-a-comment", pointer, None)
        assert not isinstance(found, Anchor), found
        assert found.reason == ("tool API-create-a-comment is not defined in src, test_server.py (searched 1 .py "
                                "file); test code was left out (src/mcp/__tests__/ and 1 more)")
    # a source root that is itself test code is read: the user pointed there
    assert isinstance(index.locate("tools", "ping", ("name",), None), Anchor)
    named = SourceIndex.build([tests], tmp_path).locate("tools", "API-create-a-comment", ("name",), None)
    assert isinstance(named, Anchor) and named.path == "src/mcp/__tests__/proxy.test.ts"


# -- P1: a server shipped as build output -----------------------------------------------------------
COMPILED = '''server.registerTool("read_file", {
    description: "Read a file.",
    inputSchema: { path: z.string() },
}, cb);
'''


def test_build_output_the_command_runs_is_searched_after_the_sources(tmp_path: Path):
    from mcplint.servers.built import build_output

    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "index.js").write_text(COMPILED, encoding="utf-8")
    (tmp_path / "dist" / "index.test.js").write_text(COMPILED, encoding="utf-8")
    built = build_output(("node", "dist/index.js"), tmp_path, (tmp_path,))
    assert built == [tmp_path / "dist"]
    assert build_output(("node", "dist/index.js"), tmp_path, (tmp_path / "src",)) == []  # source: says elsewhere
    assert build_output(("node", "--inspect", "main.js"), tmp_path, (tmp_path,)) == []
    assert not isinstance(SourceIndex.build([tmp_path], tmp_path).locate("tools", "read_file", ("name",), None), Anchor)
    index = SourceIndex.build([tmp_path], tmp_path, built)
    path = index.locate("tools", "read_file", ("inputSchema", "properties", "path"), None)
    assert (path.path, path.span.line) == ("dist/index.js", 3)
    missing = index.locate("tools", "other", ("name",), None)
    assert missing.reason.startswith("tool other is not defined in the repository, dist (it holds the file the "
                                     "command runs) (searched 1 .js file)")
    # the TypeScript it was compiled from wins
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "index.ts").write_text("\n" + COMPILED.replace("z.string()", "z.string().min(1)"))
    index = SourceIndex.build([tmp_path], tmp_path, built)
    path = index.locate("tools", "read_file", ("inputSchema", "properties", "path"), None)
    assert (path.path, path.span.line) == ("src/index.ts", 4)
    assert index.locate("tools", "read_file", ("description",), "Read a file.").path == "src/index.ts"
