"""Source anchoring (mcplint/source): every planted problem of the example repositories lands on the
exact file, line and column where it is written, in Python, TypeScript/JavaScript and, by text
search, any other language; what cannot be placed says why; hostile trees never crash the index."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from mcplint.source import Anchor, SourceIndex, Unplaced
from mcplint.source.jstokens import tokenize

REPOS = Path(__file__).resolve().parent.parent / "fixtures" / "repos"


def covered(root: Path, anchor: Anchor) -> str:
    """The source text an anchor's span covers (1-based lines, code-point columns, end exclusive)."""
    lines = (root / anchor.path).read_text(encoding="utf-8").split("\n")
    span = anchor.span
    if span.line == span.end_line:
        return lines[span.line - 1][span.column - 1:span.end_column - 1]
    middle = lines[span.line:span.end_line - 1]
    return "\n".join([lines[span.line - 1][span.column - 1:], *middle, lines[span.end_line - 1][:span.end_column - 1]])


@pytest.fixture(scope="module")
def indexes() -> dict[str, SourceIndex]:
    return {name: SourceIndex.build([REPOS / name], REPOS / name)
            for name in ("fastmcp-weather", "lowlevel-notes", "ts-todo")}


# (repo, kind, name, pointer, value, path, line, column, the text the span covers)
CASES = [
    # FastMCP / MCPServer decorators: the planted problems
    ("fastmcp-weather", "tools", "getAlerts", ("name",), "getAlerts",
     "weather/server.py", 33, 16, '"getAlerts"'),
    ("fastmcp-weather", "tools", "current_conditions", ("description",), None,
     "weather/server.py", 41, 5, '"""The current temperature and sky at a location."""'),
    ("fastmcp-weather", "tools", "get_forecast", ("inputSchema", "properties", "days", "description"), None,
     "weather/server.py", 24, 38, '"Number of days to forecast, the world\'s best forecast horizon"'),
    ("fastmcp-weather", "tools", "getAlerts", ("inputSchema", "properties", "region", "description"), None,
     "weather/server.py", 34, 16, "region"),
    ("fastmcp-weather", "tools", "delete_saved_location", ("annotations",), None,
     "weather/server.py", 46, 5, "delete_saved_location"),
    ("fastmcp-weather", "prompts", "plan_trip", ("description",), None,
     "weather/server.py", 59, 5, '"""Plan a trip around the weather ☀️ in a city."""'),
    # docstrings over several lines, Annotated Field, keyword description, annotations by constant and dict
    ("fastmcp-weather", "tools", "get_forecast", ("description",), None,
     "weather/server.py", 26, 5, '"""Get the weather forecast for a city.\n\n'
     '    Returns one line per day with the high and low temperature in Celsius.\n    """'),
    ("fastmcp-weather", "tools", "get_forecast", ("inputSchema", "properties", "city", "description"), None,
     "weather/server.py", 23, 44, '"City name, for example \'Berlin\'"'),
    ("fastmcp-weather", "tools", "get_forecast", ("inputSchema", "properties", "days", "type"), None,
     "weather/server.py", 24, 11, "int"),
    ("fastmcp-weather", "tools", "get_forecast", ("inputSchema", "properties", "days", "default"), 3,
     "weather/server.py", 24, 23, "3"),
    ("fastmcp-weather", "tools", "getAlerts", ("inputSchema", "required", "0"), "region",
     "weather/server.py", 34, 16, "region"),
    ("fastmcp-weather", "tools", "get_forecast", ("annotations", "readOnlyHint"), True,
     "weather/server.py", 16, 42, "True"),
    ("fastmcp-weather", "tools", "get_forecast", ("annotations", "destructiveHint"), None,
     "weather/server.py", 21, 11, "annotations"),
    ("fastmcp-weather", "tools", "convert_temperature", ("annotations", "readOnlyHint"), True,
     "weather/server.py", 52, 109, "True"),
    ("fastmcp-weather", "tools", "convert_temperature", ("description",), None,
     "weather/server.py", 52, 23, '"Convert a temperature between Celsius and Fahrenheit."'),
    ("fastmcp-weather", "tools", "current_conditions", ("title",), "Current conditions",
     "weather/server.py", 39, 17, '"Current conditions"'),
    # a pydantic model parameter: $defs as the SDK emits, and the inlined form
    ("fastmcp-weather", "tools", "current_conditions",
     ("inputSchema", "$defs", "Location", "properties", "latitude", "description"), None,
     "weather/models.py", 9, 41, '"Latitude in decimal degrees, -90 to 90"'),
    ("fastmcp-weather", "tools", "current_conditions",
     ("inputSchema", "properties", "location", "properties", "longitude", "description"), None,
     "weather/models.py", 10, 42, '"Longitude in decimal degrees, -180 to 180"'),
    ("fastmcp-weather", "tools", "current_conditions",
     ("inputSchema", "$defs", "Location", "properties", "label", "description"), None,
     "weather/models.py", 11, 5, "label"),
    ("fastmcp-weather", "tools", "current_conditions", ("inputSchema", "$defs", "Location", "description"), None,
     "weather/models.py", 7, 5, '"""A place on Earth."""'),
    ("fastmcp-weather", "tools", "current_conditions", ("inputSchema", "properties", "location", "$ref"), None,
     "weather/server.py", 40, 34, "Location"),
    # prompts and resources
    ("fastmcp-weather", "prompts", "plan_trip", ("arguments", "1", "description"), None,
     "weather/server.py", 58, 26, "days"),
    ("fastmcp-weather", "resources", "list_cities", ("uri",), "weather://cities",
     "weather/server.py", 63, 15, '"weather://cities"'),
    ("fastmcp-weather", "resources", "weather://cities", ("mimeType",), "application/json",
     "weather/server.py", 63, 45, '"application/json"'),
    # low-level types.Tool(...) literals
    ("lowlevel-notes", "tools", "Read-Note", ("name",), "Read-Note", "server.py", 25, 14, '"Read-Note"'),
    ("lowlevel-notes", "tools", "add_note", ("description",), None,
     "server.py", 32, 21, '"A super easy, amazing way to save a note!"'),
    ("lowlevel-notes", "tools", "add_note", ("inputSchema", "properties", "pinned", "description"), None,
     "server.py", 37, 17, '"pinned"'),
    ("lowlevel-notes", "tools", "add_note", ("inputSchema", "properties", "text", "description"), None,
     "server.py", 36, 59, '"The text of the note"'),
    ("lowlevel-notes", "tools", "purge_notes", ("annotations", "readOnlyHint"), True,
     "server.py", 46, 58, "True"),
    ("lowlevel-notes", "tools", "purge_notes", ("annotations", "destructiveHint"), False,
     "server.py", 46, 81, "False"),
    ("lowlevel-notes", "tools", "Read-Note", ("inputSchema", "properties", "note_id", "description"), None,
     "server.py", 14, 45, "\"Identifier of the note, for example 'n1'\""),
    ("lowlevel-notes", "tools", "list_notes", ("title",), "List notes", "server.py", 19, 15, '"List notes"'),
    ("lowlevel-notes", "prompts", "summarize_notes", ("arguments", "0", "description"), None,
     "server.py", 54, 67, '"bullets or prose"'),
    ("lowlevel-notes", "resources", "all_notes", ("description",), None, "server.py", 59, 69,
     '"Every note as JSON."'),
    # TypeScript SDK: registerTool, tool(), zod describe chains, prompts, resource templates
    ("ts-todo", "tools", "addTodo", ("name",), "addTodo", "server.mjs", 28, 3, '"addTodo"'),
    ("ts-todo", "tools", "list_todos", ("description",), None,
     "server.mjs", 17, 18, '"All the todos, optionally filtered by status."'),
    ("ts-todo", "tools", "addTodo", ("inputSchema", "properties", "title", "description"), None,
     "server.mjs", 32, 41, "\"Blazing fast, world's best todo title\""),
    ("ts-todo", "tools", "addTodo", ("inputSchema", "properties", "due", "description"), None,
     "server.mjs", 33, 7, "due"),
    ("ts-todo", "tools", "addTodo", ("inputSchema", "properties", "title", "minLength"), 1,
     "server.mjs", 32, 24, ".min(1)"),
    ("ts-todo", "tools", "addTodo", ("inputSchema", "required", "1"), "due", "server.mjs", 33, 7, "due"),
    ("ts-todo", "tools", "delete_all_todos", ("annotations",), None,
     "server.mjs", 57, 3, '"delete_all_todos"'),
    ("ts-todo", "tools", "complete_todo", ("description",), "Mark a todo as done ✅",
     "server.mjs", 45, 3, '"Mark a todo as done \\u2705"'),
    ("ts-todo", "tools", "complete_todo", ("annotations", "idempotentHint"), True,
     "server.mjs", 47, 21, "true"),
    ("ts-todo", "tools", "complete_todo", ("inputSchema", "properties", "id", "description"), None,
     "server.mjs", 46, 29, "\"Identifier of the todo, for example 't1'\""),
    ("ts-todo", "tools", "list_todos", ("inputSchema", "properties", "status", "description"), None,
     "server.mjs", 11, 57, '"Which todos to list: open, done or all"'),
    ("ts-todo", "tools", "list_todos", ("inputSchema", "properties", "status", "enum"), None,
     "server.mjs", 11, 23, '["open", "done", "all"]'),
    ("ts-todo", "tools", "list_todos", ("annotations", "openWorldHint"), False, "server.mjs", 19, 55, "false"),
    ("ts-todo", "prompts", "review_todos", ("arguments", "0", "description"), None,
     "server.mjs", 72, 57, "\"A theme to focus on, for example 'garden'\""),
    ("ts-todo", "resourceTemplates", "todo", ("uriTemplate",), "todo://{id}", "server.mjs", 81, 24, '"todo://{id}"'),
    ("ts-todo", "resourceTemplates", "todo", ("mimeType",), None, "server.mjs", 82, 49, '"application/json"'),
    # a low-level Server's plain object literals
    ("ts-todo", "tools", "rename-tag", ("name",), "rename-tag", "lowlevel.mjs", 17, 11, '"rename-tag"'),
    ("ts-todo", "tools", "rename-tag", ("inputSchema", "properties", "to", "description"), None,
     "lowlevel.mjs", 23, 9, "to"),
    ("ts-todo", "tools", "rename-tag", ("inputSchema", "properties", "from", "description"), None,
     "lowlevel.mjs", 22, 46, '"The tag to rename"'),
    ("ts-todo", "tools", "list_tags", ("annotations", "readOnlyHint"), True, "lowlevel.mjs", 14, 34, "true"),
    # TypeScript syntax (types, interfaces, satisfies) around a registerTool call
    ("ts-todo", "tools", "set_limit", ("inputSchema", "properties", "limit", "description"), None,
     "src/admin.ts", 18, 63, '"Largest number of todos, 1 to 500"'),
    ("ts-todo", "tools", "set_limit", ("inputSchema", "properties", "limit", "maximum"), None,
     "src/admin.ts", 18, 32, ".max(LIMITS.maxTodos)"),
    ("ts-todo", "tools", "set_limit", ("annotations", "destructiveHint"), False, "src/admin.ts", 21, 61, "false"),
]


@pytest.mark.parametrize("repo, kind, name, pointer, value, path, line, column, text", CASES,
                         ids=[f"{c[0]}:{c[2]}:{'/'.join(c[3])}" for c in CASES])
def test_anchor(indexes, repo, kind, name, pointer, value, path, line, column, text):
    anchor = indexes[repo].locate(kind, name, pointer, value)
    assert isinstance(anchor, Anchor), anchor
    assert (anchor.path, anchor.span.line, anchor.span.column) == (path, line, column), anchor.how
    assert covered(REPOS / repo, anchor) == text
    assert anchor.how


def test_paths_are_relative_to_the_root(indexes):
    index = indexes["fastmcp-weather"]
    assert index.root == REPOS / "fastmcp-weather"
    anchor = index.locate("tools", "getAlerts", ("name",), None)
    assert (index.root / anchor.path).is_file()


def test_missing_field_says_where_it_landed(indexes):
    anchor = indexes["fastmcp-weather"].locate("tools", "getAlerts",
                                               ("inputSchema", "properties", "region", "description"), None)
    assert "is not written in the source" in anchor.how and "/inputSchema/properties/region" in anchor.how


def test_unplaced_names_what_was_searched(indexes):
    result = indexes["fastmcp-weather"].locate("tools", "get_weather", ("description",), "Nowhere to be found.")
    assert isinstance(result, Unplaced)
    assert result.reason == "tool get_weather is not defined in the repository (searched 4 .py files)"
    index = SourceIndex.build([REPOS / "fastmcp-weather" / "weather"], REPOS / "fastmcp-weather")
    assert index.locate("prompts", "x", (), None).reason == \
        "prompt x is not defined in weather (searched 4 .py files)"


# -- other languages: the string literal holding the exact text ------------------------------
GO_MAIN = '''package main

import "github.com/mark3labs/mcp-go/mcp"

func tools(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("get_forecast",
		mcp.WithDescription("Get the weather forecast for a city."),
		mcp.WithString("city", mcp.Required(), mcp.Description("City name")),
		mcp.WithReadOnlyHintAnnotation(true),
	), forecast)
	s.AddTool(mcp.NewTool("get_alerts",
		mcp.WithDescription("List the weather alerts for a region \\u2014 now."),
		mcp.WithString("city", mcp.Description("City name")),
	), alerts)
}
'''
GO_OTHER = '''package main

const usage = `Shared words.`
var help = "Shared words."
'''


@pytest.fixture()
def go_tree(tmp_path: Path) -> Path:
    (tmp_path / "cmd").mkdir()
    (tmp_path / "cmd" / "main.go").write_text(GO_MAIN)
    (tmp_path / "cmd" / "other.go").write_text(GO_OTHER)
    (tmp_path / "README.md").write_text('Run "get_forecast" with "City name".\n')
    return tmp_path


def test_text_search_unique_literal(go_tree):
    index = SourceIndex.build([go_tree], go_tree)
    anchor = index.locate("tools", "get_forecast", ("description",), "Get the weather forecast for a city.")
    assert (anchor.path, anchor.span.line, anchor.span.column) == ("cmd/main.go", 7, 23)
    assert covered(go_tree, anchor) == '"Get the weather forecast for a city."'
    assert anchor.how.startswith("text search: the one string literal")


def test_text_search_escaped_spelling(go_tree):
    anchor = SourceIndex.build([go_tree], go_tree).locate(
        "tools", "get_alerts", ("description",), "List the weather alerts for a region — now.")
    assert (anchor.path, anchor.span.line, anchor.span.column) == ("cmd/main.go", 12, 23)


def test_text_search_twins_prefer_the_one_after_the_name(go_tree):
    index = SourceIndex.build([go_tree], go_tree)
    pointer = ("inputSchema", "properties", "city", "description")
    first = index.locate("tools", "get_forecast", pointer, "City name")
    second = index.locate("tools", "get_alerts", pointer, "City name")
    assert (first.span.line, second.span.line) == (8, 13)
    assert "nearest after the tool's name" in first.how


def test_text_search_key_then_name(go_tree):
    index = SourceIndex.build([go_tree], go_tree)
    key = index.locate("tools", "get_alerts", ("inputSchema", "properties", "city"), {"type": "string"})
    assert (key.path, key.span.line, covered(go_tree, key)) == ("cmd/main.go", 13, '"city"')
    name = index.locate("tools", "get_forecast", ("annotations", "readOnlyHint"), True)
    assert (name.span.line, covered(go_tree, name)) == (6, '"get_forecast"')
    assert "the tool's name" in name.how


def test_text_search_ambiguous_and_absent(go_tree):
    index = SourceIndex.build([go_tree], go_tree)
    shared = index.locate("tools", "nowhere", ("description",), "Shared words.")
    assert isinstance(shared, Unplaced)
    assert shared.reason == "the text of /description of tool nowhere occurs in 2 places (cmd/other.go)"
    absent = index.locate("tools", "nowhere", ("description",), "Not written anywhere.")
    assert absent.reason == "tool nowhere is not defined in the repository (searched 2 .go files)"


# -- Python details ----------------------------------------------------------------------------
def test_python_twins_and_test_files(tmp_path: Path):
    server = 'import mcp\n@mcp.tool()\ndef ping(host: str) -> str:\n    """Ping a host."""\n'
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_server.py").write_text(server.replace("Ping a host.", "Mock ping."))
    (tmp_path / "server.py").write_text(server)
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "server.py").write_text(server.replace("Ping a host.", "Example ping."))
    index = SourceIndex.build([tmp_path], tmp_path)
    assert index.locate("tools", "ping", ("description",), None).path == "server.py"
    twin = index.locate("tools", "ping", ("description",), "Example ping.")
    assert twin.path == "examples/server.py" and "one of 2 definitions" in twin.how
    mock = index.locate("tools", "ping", ("description",), "Mock ping.")  # test code defines nothing
    assert mock.path == "server.py"


def test_python_columns_count_code_points(tmp_path: Path):
    (tmp_path / "s.py").write_text('import mcp\n@mcp.tool(title="Météo 🌦")\n'
                                   'def météo(ville: str = "Zürich") -> str:\n    """Donne la météo."""\n')
    index = SourceIndex.build([tmp_path], tmp_path)
    name = index.locate("tools", "météo", ("name",), None)
    assert (name.span.line, name.span.column, name.span.end_column) == (3, 5, 10)
    default = index.locate("tools", "météo", ("inputSchema", "properties", "ville", "default"), "Zürich")
    assert (default.span.column, default.span.end_column) == (24, 32)
    title = index.locate("tools", "météo", ("title",), None)
    assert covered(tmp_path, title) == '"Météo 🌦"'


def test_never_the_whole_file(indexes):
    for repo, index in indexes.items():
        for (kind, name), found in index.definitions().items():
            anchor = index.locate(kind, name, ("no", "such", "part"), None)
            assert anchor.span.end_line - anchor.span.line < 5, (repo, name, anchor)


def test_javascript_tokens():
    tokens = tokenize(r'''a = x / 2 / y; r = /ab\/c[/]d/gi; s = "q\"\u0041\x42"; t = `a${`b${c}`}d`; n = 1e-5''')
    kinds = [(t.kind, t.text) for t in tokens if t.kind != "punct"]
    assert ("regex", r"/ab\/c[/]d/gi") in kinds and ("str", 'q"AB') in kinds
    assert ("num", "1e-5") in kinds and ("tmpl", "a") in kinds and ("name", "c") in kinds
    assert [t.text for t in tokens].count("/") == 2


# -- hostile sources -----------------------------------------------------------------------------
def test_hostile_tree_never_crashes(tmp_path: Path):
    good = 'import mcp\n@mcp.tool()\ndef fine(a: int) -> int:\n    """Return a."""\n    return a\n'
    (tmp_path / "ok.py").write_text(good)
    (tmp_path / "syntax.py").write_text("import mcp\n@mcp.tool(\ndef broken(:\n")
    nested = "[" * 100_000 + "]" * 100_000
    (tmp_path / "deep.py").write_text("import mcp\n@mcp.tool()\ndef f():\n    x = " + nested + "\n")
    (tmp_path / "chain.py").write_text("import mcp\nx = " + "a." * 100_000 + "b\n")
    (tmp_path / "deep.ts").write_text("server.registerTool('x', " + "{a: " * 100_000 + "1" + "}" * 100_000 + ", cb)\n")
    (tmp_path / "zod.ts").write_text("server.registerTool('y', {inputSchema: " + "z.object({a: " * 30_000
                                     + "z.string()" + "})" * 30_000 + "}, cb)\n")
    (tmp_path / "tmpl.js").write_text("server.registerTool('t', " + "`${" * 20_000 + "1" + "}`" * 20_000 + ", cb)\n")
    (tmp_path / "open.ts").write_text("server.registerTool('u', {description: 'unterminated\n")
    # Unclosed registrations re-parsed inside each other (attack round 5: 40 KB took 65 s, 2 MB hours)
    (tmp_path / "unclosed.ts").write_text("a.registerTool(" * 130_000)
    # A def looked for below a run of decorators that never ends (attack round 5: 100 KB took 127 s)
    (tmp_path / "decorators.py").write_text("from mcp import x\nnothing\n" + "@x\n" * 100_000)
    (tmp_path / "binary.py").write_bytes(b"\x00\x01mcp.tool\xff" * 1000)
    with open(tmp_path / "huge.py", "wb") as handle:  # 50 MB, sparse: never read
        handle.truncate(50 * 1024 * 1024)
    (tmp_path / "loop").mkdir()
    os.symlink(tmp_path / "loop", tmp_path / "loop" / "again")
    index = SourceIndex.build([tmp_path], tmp_path)
    assert isinstance(index.locate("tools", "fine", ("description",), None), Anchor)
    unplaced = index.locate("tools", "nothing", ("description",), "x y z")
    assert isinstance(unplaced, Unplaced) and "deep.py was not parsed (" in unplaced.reason
    skipped = dict(index.skipped)
    assert skipped["huge.py"] == "larger than 2 MB"
    assert skipped["binary.py"] == "binary"
    assert skipped["syntax.py"].startswith("not parsed (SyntaxError")
    assert skipped["open.ts"] == "not parsed (TokenizeError: unterminated string)"
    assert "deep.py" in skipped
    assert skipped["unclosed.ts"] == ("not parsed (ParseBudgetExceeded: its calls nest too deeply, or are left "
                                      "open too often, to read in bounded time)")
    index.static_listing()
    started = time.monotonic()  # a bound, not a speed target: linear is well under a second here
    assert isinstance(index.locate("tools", "nothing", ("name",), "nothing"), (Anchor, Unplaced))
    assert time.monotonic() - started < 20


# -- the live servers: every entry they list is placed ---------------------------------------------
LIVE = [("fastmcp-weather", ["{python}", "-m", "weather"], "weather/"),
        ("lowlevel-notes", ["{python}", "server.py"], "server.py"),
        ("ts-todo", ["node", "server.mjs"], "server.mjs"), ("ts-todo", ["node", "lowlevel.mjs"], "lowlevel.mjs")]


@pytest.mark.parametrize("repo, command, where", LIVE, ids=[f"{r}:{c[-1]}" for r, c, _ in LIVE])
def test_every_live_entry_is_placed(indexes, repo, command, where):
    from repos_support import PYTHON, live_listing, node_skip_reason

    if command[0] == "node" and (reason := node_skip_reason(REPOS / repo)):
        pytest.skip(reason)
    listing = live_listing([part.format(python=PYTHON) for part in command], REPOS / repo)
    assert sum(len(entries) for entries in listing.values()) >= 2
    for kind, entries in listing.items():
        for entry in entries:
            for pointer in [("name",), ("description",)] + [
                    ("inputSchema", "properties", name, "description")
                    for name in entry.get("inputSchema", {}).get("properties", {})]:
                anchor = indexes[repo].locate(kind, entry["name"], pointer, entry.get(pointer[0]))
                assert isinstance(anchor, Anchor) and not anchor.how.startswith("text search"), (entry, anchor)
                assert anchor.path.startswith(where), anchor


def test_walk_skips_dependencies_and_virtual_environments(tmp_path: Path):
    tool = 'import mcp\n@mcp.tool()\ndef {name}() -> str:\n    """Do it."""\n'
    for folder in ("node_modules/pkg", ".venv/lib", "my-env/lib", "build", "src"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "t.py").write_text(tool.format(name=folder.split("/")[0].replace("-", "_").strip(".")))
    (tmp_path / "my-env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    index = SourceIndex.build([tmp_path], tmp_path)
    assert sorted(name for _, name in index.definitions()) == ["src"]


MODELS = '''from dataclasses import dataclass
from typing_extensions import TypedDict
from pydantic import BaseModel, Field
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("x")

@dataclass
class Box:
    """A box."""
    width: int
    height: int = 2

class Opts(TypedDict):
    fast: bool

class Base(BaseModel):
    shared: str = Field(description="Shared field")

class Child(Base):
    own: int

@mcp.tool()
def pack(box: Box, opts: Opts, child: Child) -> str:
    """Pack a box."""
'''


@pytest.mark.parametrize("pointer, line, text", [
    (("Box", "properties", "height", "default"), 12, "2"),
    (("Box", "description"), 10, '"""A box."""'),
    (("Opts", "properties", "fast"), 15, "fast"),
    (("Child", "properties", "shared", "description"), 18, '"Shared field"'),
    (("Child", "required", "0"), 18, "shared"),  # inherited fields first, as pydantic lists them
    (("Child", "required", "1"), 21, "own"),
    (("Child", "description"), 20, "Child"),  # a docstring is not inherited
])
def test_dataclass_typeddict_and_inherited_fields(tmp_path: Path, pointer, line, text):
    (tmp_path / "s.py").write_text(MODELS)
    anchor = SourceIndex.build([tmp_path], tmp_path).locate("tools", "pack", ("inputSchema", "$defs", *pointer), None)
    assert (anchor.span.line, covered(tmp_path, anchor)) == (line, text)


def test_typescript_registration_through_declared_names(tmp_path: Path):
    """The reference server everything writes `const name = "..."; const config = {...};
    server.registerTool(name, config, cb)`, with the zod schema in a constant of its own."""
    (tmp_path / "get-sum.ts").write_text('''import { z } from "zod";
// Registers the 'get-sum' tool (the name in a comment is not the definition).
const GetSumSchema = z.object({
  firstNumber: z.number().describe("The first number"),
  b: z.number(),
});
const name = "get-sum";
const config = {
  title: "Get Sum Tool",
  description: "Returns the sum of two numbers",
  inputSchema: GetSumSchema,
};
export const registerGetSumTool = (server) => {
  server.registerTool(name, config, async (args) => ({ content: [] }));
};
''', encoding="utf-8")
    index = SourceIndex.build([tmp_path], tmp_path)
    where = {pointer: index.locate("tools", "get-sum", pointer, None) for pointer in (
        ("name",), ("description",), ("inputSchema", "properties", "firstNumber"), ("inputSchema", "properties", "b"))}
    assert {p: (a.span.line, a.span.column) for p, a in where.items()} == {
        ("name",): (7, 14), ("description",): (10, 16),
        ("inputSchema", "properties", "firstNumber"): (4, 3), ("inputSchema", "properties", "b"): (5, 3)}
    assert covered(tmp_path, where[("name",)]) == '"get-sum"'


def test_typescript_schema_shape_of_a_declared_zod_object(tmp_path: Path):
    """`inputSchema: ReadTextFileArgsSchema.shape` (the reference server filesystem)."""
    (tmp_path / "index.ts").write_text('''const ReadArgs = z.object({
  path: z.string(),
});
server.registerTool("read_file", { description: "Read a file.", inputSchema: ReadArgs.shape }, cb);
''', encoding="utf-8")
    index = SourceIndex.build([tmp_path], tmp_path)
    where = index.locate("tools", "read_file", ("inputSchema", "properties", "path"), None)
    assert (where.span.line, where.span.column) == (2, 3)


def test_typescript_names_from_a_map_and_specs_from_a_declared_object(tmp_path: Path):
    """azure-devops names its tools from a map (`server.tool(TOOLS.work_list, ...)`) and figma
    keeps each tool's spec in an object (`registerTool(spec.name, {inputSchema:
    spec.parametersSchema.shape})`); the map's or a telemetry call's literal is no definition."""
    (tmp_path / "index.js").write_text('''import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const TOOLS = {
    work_list: "work_list",
};
function telemetry(ms) { return { tool: "get_design", duration_ms: ms }; }
server.tool(TOOLS.work_list, "List work items in a project.", {
    projectId: z.string().describe("The project ID."),
}, async () => ({ content: [] }));
const shape = {
    fileKey: z.string().describe("The key of the file."),
};
const spec = { name: "get_design", description: "Get design data for a file.", parametersSchema: z.object(shape) };
server.registerTool(spec.name, { description: spec.description, inputSchema: spec.parametersSchema.shape }, cb);
''', encoding="utf-8")
    index = SourceIndex.build([tmp_path], tmp_path)
    where = {(name, pointer): index.locate("tools", name, pointer, None) for name, pointer in (
        ("work_list", ("name",)), ("work_list", ("inputSchema", "properties", "projectId")),
        ("get_design", ("name",)), ("get_design", ("description",)), ("get_design", ("inputSchema", "properties", "fileKey")))}
    assert {key: (a.span.line, a.span.column) for key, a in where.items()} == {
        ("work_list", ("name",)): (6, 13), ("work_list", ("inputSchema", "properties", "projectId")): (7, 5),
        ("get_design", ("name",)): (13, 21), ("get_design", ("description",)): (13, 34),
        ("get_design", ("inputSchema", "properties", "fileKey")): (10, 5)}
    assert covered(tmp_path, where[("work_list", ("name",))]) == "TOOLS.work_list"


def test_a_parameter_whose_schema_is_an_object_of_its_own_in_the_tool_file(tmp_path: Path):
    """next-devtools exports `inputSchema` and `metadata` side by side and registers them elsewhere:
    a key the file writes once is where the parameter is defined, not the tool's name."""
    (tmp_path / "browser-eval.js").write_text('''import { z } from "zod";
export const inputSchema = {
  task: z.string().describe("What to do in the browser"),
};
export const metadata = { name: "browser_eval", description: "Evaluate in the browser" };
export const other = { path: 1 };
export const more = { path: 2 };
''', encoding="utf-8")
    index = SourceIndex.build([tmp_path], tmp_path)
    task = index.locate("tools", "browser_eval", ("inputSchema", "properties", "task"), None)
    assert (task.span.line, task.span.column) == (3, 3) and covered(tmp_path, task) == "task"
    path = index.locate("tools", "browser_eval", ("inputSchema", "properties", "path"), None)  # written twice
    assert (path.span.line, covered(tmp_path, path)) == (5, '"browser_eval"')


def test_typescript_fastmcp_add_tool(tmp_path: Path):
    """The `fastmcp` package for TypeScript (firecrawl): `server.addTool({name, description,
    parameters: z.object({...}), execute})`; the description quotes a ```json example whose keys
    are not parameters (repository mode, round 2)."""
    (tmp_path / "index.js").write_text('''import { FastMCP } from "fastmcp";
const scrapeParams = z.object({
  url: z.string().url(),
  formats: z.array(z.string()).optional(),
});
server.addTool({
  name: "firecrawl_scrape",
  description: `Scrape one page.
\\`\\`\\`json
{"url": "https://example.com", "formats": ["markdown"]}
\\`\\`\\``,
  parameters: scrapeParams,
  execute: async (args) => "ok",
});
server.addTool({
  name: "firecrawl_map",
  description: "Map a site.",
  parameters: z.object({ url: z.string(), limit: z.number() }),
  annotations: { readOnlyHint: true },
  execute: async () => "ok",
});
''', encoding="utf-8")
    index = SourceIndex.build([tmp_path], tmp_path)
    spans = {(tool, pointer): (a.span.line, a.span.column) for tool, pointer in (
        ("firecrawl_scrape", ("name",)), ("firecrawl_scrape", ("description",)),
        ("firecrawl_scrape", ("inputSchema", "properties", "url")),
        ("firecrawl_scrape", ("inputSchema", "properties", "formats")),
        ("firecrawl_map", ("inputSchema", "properties", "limit")), ("firecrawl_map", ("annotations", "readOnlyHint")))
        if (a := index.locate("tools", tool, pointer, None)) is not None and not isinstance(a, str)}
    assert spans == {
        ("firecrawl_scrape", ("name",)): (7, 9), ("firecrawl_scrape", ("description",)): (8, 16),
        ("firecrawl_scrape", ("inputSchema", "properties", "url")): (3, 3),
        ("firecrawl_scrape", ("inputSchema", "properties", "formats")): (4, 3),
        ("firecrawl_map", ("inputSchema", "properties", "limit")): (18, 43),
        ("firecrawl_map", ("annotations", "readOnlyHint")): (19, 32)}


def test_a_decorated_function_named_as_the_tool_beats_a_table_of_names(tmp_path: Path):
    """excel-mcp-server registers `@tools.reader("Describe workbook")` over `def describe_workbook(
    path: WorkbookPath)` through a registry class of its own, and lists the names in a tuple for a
    --tools switch: every finding had landed on that tuple (repository mode, round 2)."""
    (tmp_path / "areas.py").write_text('CORE_TOOLS = ("describe_workbook", "read_range")\n', encoding="utf-8")
    (tmp_path / "workbook_tools.py").write_text('''def register(tools: ToolRegistry) -> None:
    @tools.reader("Describe workbook")
    def describe_workbook(
        path: WorkbookPath,
        *, detail: bool = False,
    ) -> str:
        """Describe the sheets of a workbook."""
        return ""
''', encoding="utf-8")
    index = SourceIndex.build([tmp_path], tmp_path)
    name = index.locate("tools", "describe_workbook", ("name",), None)
    path = index.locate("tools", "describe_workbook", ("inputSchema", "properties", "path"), None)
    detail = index.locate("tools", "describe_workbook", ("inputSchema", "properties", "detail"), None)
    assert (name.path, name.span.line, name.span.column) == ("workbook_tools.py", 3, 9)
    assert (path.span.line, path.span.column, detail.span.line, detail.span.column) == (4, 9, 5, 12)


# -- the text search on hostile trees (attack round 3, F3) ---------------------------------

class _File:
    def __init__(self, rel: str) -> None:
        self.rel = rel


def _reference_within(hits, names, scope):
    """The definition of _within_definitions: inside the group around a name, not the name itself."""
    scopes = [(f.rel, scope(f, at), at) for f, at, _ in names if scope(f, at) is not None]
    return [hit for hit in hits if any(rel == hit[0].rel and low <= hit[1] < high and hit[1] != at
                                       for rel, (low, high), at in scopes)]


def _reference_nearest(hits, names):
    def distance(hit):
        before = [n[1] for n in names if n[0].rel == hit[0].rel and n[1] <= hit[1]]
        return (hit[1] - max(before), hit[1]) if before else (1 << 62, hit[1])
    return min(hits, key=distance)


def test_the_bisecting_lookups_choose_what_the_definitions_choose():
    import random

    from mcplint.source import textsearch

    rng = random.Random(2)
    files = [_File("a.ts"), _File("b.ts")]
    for _ in range(5000):
        names = list({(f.rel, at): (f, at, 0) for f, at in
                      [(rng.choice(files), rng.randint(0, 60)) for _ in range(rng.randint(0, 8))]}.values())
        hits = [(rng.choice(files), rng.randint(0, 60), 0) for _ in range(rng.randint(1, 6))]
        hits += rng.sample(names, min(len(names), 3))
        scopes = {}

        def scope(file, at):
            if (file.rel, at) not in scopes:
                scopes[file.rel, at] = None if rng.random() < 0.2 else (max(0, at - rng.randint(0, 10)),
                                                                        at + rng.randint(1, 20))
            return scopes[file.rel, at]

        search = textsearch.TextSearch.__new__(textsearch.TextSearch)
        search._scope = scope
        assert search._within_definitions(hits, names) == _reference_within(hits, names, scope)
        assert textsearch._nearest_after(hits, names) == _reference_nearest(hits, names)


def test_a_name_repeated_a_hundred_thousand_times_is_searched_in_linear_time():
    """'"getThing" ' x 170,000 (1.9 MB) ran for hours: every hit scanned every name."""
    import time

    from mcplint.source import textsearch
    from mcplint.source.brackets import Groups

    file = _File("t.ts")
    names = [(file, i * 11, i * 11 + 10) for i in range(100_000)]
    started = time.process_time()
    assert textsearch._nearest_after(names, names) == names[0]
    groups = Groups("(" * 50_000 + ")" * 50_000 + "()" * 50_000, ".ts")
    assert groups.enclosing(100_000 + 1) == (100_000, 100_002)
    assert groups.enclosing(49_999 + 1) == (49_999, 50_001)
    assert time.process_time() - started < 10  # under a second; hours before


GO_SDK = '''package main

import "github.com/modelcontextprotocol/go-sdk/mcp"

type HiArgs struct {
	Name  string `json:"name" jsonschema:"the name of the person to greet"`
	Times int    `json:"times,omitempty"`
}

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "greeter"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "greet", Description: "Say hi to someone."}, SayHi)
}
'''


def test_go_struct_tags_place_a_typed_tools_parameters(tmp_path):
    """The Go SDK's typed inputs: a parameter's description is its jsonschema tag, its key the
    json tag (before ",omitempty"); before, both fell back to the tool's name."""
    (tmp_path / "main.go").write_text(GO_SDK)
    index = SourceIndex.build([tmp_path], tmp_path)
    described = index.locate("tools", "greet", ("inputSchema", "properties", "name", "description"),
                             "the name of the person to greet")
    assert (described.span.line, covered(tmp_path, described)) == (6, '"the name of the person to greet"')
    key = index.locate("tools", "greet", ("inputSchema", "properties", "times"), {"type": "integer"})
    assert (key.span.line, covered(tmp_path, key)) == (7, 'times')
