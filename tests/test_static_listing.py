"""§5 offline fallback: the listing read statically from a Python server's source equals what the
running server lists (names, descriptions, parameter names, annotations), and every other part it
states is exactly what the server sends; parts it cannot know are left out and named."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from mcplint.source import SourceIndex
from mcplint.source.static import compiler_clean, sdk_description
from repos_support import PYTHON, REPOS, live_listing


def missing_or_different(static, live, path="") -> list[str]:
    """Where the static listing says something the live one does not (x-mcplint-* keys aside)."""
    if isinstance(static, dict):
        if not isinstance(live, dict):
            return [f"{path}: not an object live"]
        problems = []
        for key, value in static.items():
            if key.startswith("x-mcplint-"):
                continue
            if key not in live:
                problems.append(f"{path}/{key}: not in the live listing")
            else:
                problems.extend(missing_or_different(value, live[key], f"{path}/{key}"))
        return problems
    if isinstance(static, list):
        if not isinstance(live, list) or len(static) != len(live):
            return [f"{path}: {static!r} != {live!r}"]
        return [p for i, (a, b) in enumerate(zip(static, live)) for p in missing_or_different(a, b, f"{path}/{i}")]
    return [] if static == live else [f"{path}: {static!r} != {live!r}"]


def essentials(listing: dict) -> dict:
    """What the static fallback must get right: names, descriptions, parameter names, annotations."""
    out = {}
    for kind, entries in listing.items():
        for entry in entries:
            properties = entry.get("inputSchema", {}).get("properties", {})
            out[(kind, entry["name"])] = (
                entry.get("description"), list(properties), entry.get("annotations"),
                [argument["name"] for argument in entry.get("arguments", [])], entry.get("uri"),
                entry.get("uriTemplate"))
    return out


def compare(root: Path, command: list[str]) -> tuple[dict, dict]:
    live = live_listing(command, root)
    static = SourceIndex.build([root], root).static_listing()
    assert essentials(static) == essentials(live)
    for kind, entries in static.items():
        by_name = {entry["name"]: entry for entry in live[kind]}
        for entry in entries:
            assert entry["x-mcplint-static"] is True
            assert missing_or_different(entry, by_name[entry["name"]], f"{kind}/{entry['name']}") == []
    return static, live


def test_fastmcp_weather_static_equals_live():
    static, _ = compare(REPOS / "fastmcp-weather", [PYTHON, "-m", "weather"])
    tools = {tool["name"]: tool for tool in static["tools"]}
    assert tools["current_conditions"]["x-mcplint-unknown"] == ["/inputSchema/properties/location"]
    assert tools["getAlerts"]["inputSchema"]["required"] == ["region"]
    assert static["prompts"][0]["arguments"] == [{"name": "city", "required": True},
                                                 {"name": "days", "required": False}]


def test_lowlevel_literals_static_is_the_live_listing():
    static, live = compare(REPOS / "lowlevel-notes", [PYTHON, "server.py"])
    strip = [{k: v for k, v in entry.items() if not k.startswith("x-mcplint-")} for entry in static["tools"]]
    assert strip == live["tools"]


EDGE_SERVER = '''"""Every way a parameter, a description or an annotation is written."""

from typing import Annotated, Optional

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations
from pydantic import Field

mcp = MCPServer("edge")

HINTS = ToolAnnotations(read_only_hint=True, idempotentHint=True)
SHARED_DESCRIPTION = "Echo a value back unchanged."


@mcp.tool()
def no_docstring(value: str) -> str:
    return value


@mcp.tool(annotations=HINTS)
async def indented_docstring(
    text: Optional[str] = None,
    count: int | None = None,
    first: None | int = None,
    tags: list[str] = [],
    anything: list = [],
    mapping: dict = {},
    flag: bool = False,
    ratio: float = 0.5,
    ctx: Context = None,
) -> str:
    """Count things in a text.

        Indented more than the rest.
    Back again.
    """
    return ""


@mcp.tool(name="renamed_tool", description=SHARED_DESCRIPTION)
def original_name(
    limit: Annotated[int, Field(ge=1, le=10, description="How many, 1 to 10")] = 5,
    query: str = Field(..., alias="q", description="Search words"),
    untyped="x",
    page: Annotated[int, Field(default=1, description="Page number")] = 1,
    when: "Optional[str]" = None,
) -> str:
    return ""


@mcp.tool(title="Empty description given", description="")
def empty_description(x: int) -> int:
    """The docstring wins over an empty description."""
    return x


@mcp.prompt(title="Greeting")
def greet(name: Annotated[str, Field(description="Who to greet")], formal: bool = False) -> str:
    """Greet someone."""
    return f"Hello {name}"


@mcp.resource("edge://items/{item_id}", name="item", description="One item by id.")
def item(item_id: str) -> str:
    return item_id


@mcp.resource("edge://readme")
def readme() -> str:
    return "readme"


def make_tools(server: MCPServer) -> None:
    @server.tool()
    def nested_tool(a: int) -> int:
        """Double a number."""
        return a * 2


def added(b: str) -> str:
    """Shout a word."""
    return b.upper()


make_tools(mcp)
mcp.add_tool(added, name="added_tool")

if __name__ == "__main__":
    mcp.run()
'''


def test_edge_cases_static_equals_live(tmp_path: Path):
    (tmp_path / "edge_server.py").write_text(EDGE_SERVER)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_edge.py").write_text(  # test doubles are no part of the listing
        'import mcp\n@mcp.tool()\ndef fake_tool() -> str:\n    """Pretend."""\n')
    static, _ = compare(tmp_path, [PYTHON, "edge_server.py"])
    tools = {tool["name"]: tool for tool in static["tools"]}
    assert tools["no_docstring"]["description"] == ""
    assert tools["empty_description"]["description"] == "The docstring wins over an empty description."
    assert tools["renamed_tool"]["inputSchema"]["properties"]["q"] == {"type": "string", "description": "Search words"}
    assert tools["renamed_tool"]["x-mcplint-unknown"] == ["/inputSchema/properties/when"]
    assert "ctx" not in tools["indented_docstring"]["inputSchema"]["properties"]
    assert static["resourceTemplates"][0]["uriTemplate"] == "edge://items/{item_id}"


def test_docstrings_as_each_python_and_package_reads_them():
    doc = "  First line.\n\ttabbed line\n        more\n\n    last   \n    "
    # What CPython 3.13 stores as __doc__ for that docstring (the compiler dedents it).
    assert compiler_clean(doc) == "First line.\n    tabbed line\n    more\n\nlast   \n"
    assert compiler_clean("\n    Leading blank.\n      indented\n    ") == "\nLeading blank.\n  indented\n"
    assert sdk_description(doc, "mcp", (3, 11)) == doc
    assert sdk_description(doc, "mcp", (3, 13)) == compiler_clean(doc)
    assert sdk_description(None, "mcp", (3, 12)) == ""
    assert sdk_description(doc, "fastmcp", (3, 11)) == inspect.cleandoc(doc)
    assert sdk_description(None, "fastmcp", (3, 11)) is None


def test_standalone_fastmcp_package(tmp_path: Path):
    (tmp_path / "app.py").write_text(
        'from fastmcp import FastMCP\nmcp = FastMCP("x")\n\n@mcp.tool("lookup")\n'
        'def find(term: str) -> str:\n    """\n    Look a term up.\n\n    Returns its meaning.\n    """\n\n'
        '@mcp.tool\ndef bare() -> str:\n    return ""\n')
    static = SourceIndex.build([tmp_path], tmp_path).static_listing(python_version=(3, 11))
    tools = {tool["name"]: tool for tool in static["tools"]}
    assert tools["lookup"]["description"] == "Look a term up.\n\nReturns its meaning."
    assert "description" not in tools["bare"]


def test_standalone_fastmcp_reads_parameter_descriptions_from_args(tmp_path: Path):
    """fastmcp puts a Google-style docstring's `Args:` entries into the parameters' descriptions;
    read offline without them, motherduck's `sql` had 8 false "has no description" warnings."""
    (tmp_path / "app.py").write_text(
        'from fastmcp import FastMCP\nfrom pydantic import Field\nmcp = FastMCP("x")\n\n@mcp.tool(description="Run SQL.")\n'
        'def query(sql: str, limit: int = 10, db: str = Field("main", description="Database.")) -> str:\n'
        '    """Run a query.\n\n    Args:\n        sql: SQL query to execute\n            (DuckDB SQL dialect)\n'
        '        limit (int): Max rows.\n        db: Not this one.\n\n    Returns:\n        rows: the rows\n    """\n')
    static = SourceIndex.build([tmp_path], tmp_path).static_listing(python_version=(3, 11))
    properties = static["tools"][0]["inputSchema"]["properties"]
    assert properties["sql"]["description"] == "SQL query to execute (DuckDB SQL dialect)"
    assert properties["limit"]["description"] == "Max rows."
    assert properties["db"]["description"] == "Database."  # Field(description=...) comes first


def test_standalone_fastmcp_keeps_the_text_before_the_sections_once_it_read_args(tmp_path: Path):
    """fastmcp 3 (griffe) describes a tool whose docstring documents its parameters by the text
    before the first section; kept whole offline, astro-airflow got 8 false "too long" warnings."""
    (tmp_path / "app.py").write_text(
        'from fastmcp import FastMCP\nmcp = FastMCP("x")\n\n@mcp.tool()\n'
        'def get_dag(dag_id: str) -> str:\n    """Get a DAG.\n\n    Returns these fields:\n    - owner\n\n'
        '    Args:\n        dag_id: The DAG.\n\n    Returns:\n        The DAG as JSON.\n    """\n\n'
        '@mcp.tool()\ndef plain() -> str:\n    """Do it.\n\n    Returns:\n        Nothing.\n    """\n')
    tools = {t["name"]: t for t in SourceIndex.build([tmp_path], tmp_path).static_listing(python_version=(3, 11))["tools"]}
    assert tools["get_dag"]["description"] == "Get a DAG.\n\nReturns these fields:\n- owner"
    assert tools["get_dag"]["inputSchema"]["properties"]["dag_id"]["description"] == "The DAG."
    assert tools["plain"]["description"] == "Do it.\n\nReturns:\n    Nothing."  # no parameters read: all of it


def test_annotations_made_by_a_function_are_unknown_not_empty(tmp_path: Path):
    """`annotations=write(destructive=True)` (astro-airflow) returns what the function builds: read
    as a model's keywords it gave annotations without hints, and 3 false MCP411 findings."""
    (tmp_path / "app.py").write_text(
        'from mcp.server.mcpserver import MCPServer\nfrom mcp.types import ToolAnnotations\nfrom ann import write\n'
        'mcp = MCPServer("x")\n\n@mcp.tool(annotations=write(destructive=True))\ndef clear_run(run_id: str) -> str:\n'
        '    """Clear a run."""\n\n@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))\ndef get_run(run_id: str) -> str:\n'
        '    """Get a run."""\n')
    tools = {t["name"]: t for t in SourceIndex.build([tmp_path], tmp_path).static_listing()["tools"]}
    assert "annotations" not in tools["clear_run"] and "/annotations" in tools["clear_run"]["x-mcplint-unknown"]
    assert tools["get_run"]["annotations"] == {"readOnlyHint": True}


@pytest.mark.parametrize("version, expected", [((3, 12), "Ping.\n    Twice.\n    "), ((3, 13), "Ping.\nTwice.\n")])
def test_python_version_decides_the_docstring(tmp_path: Path, version, expected):
    (tmp_path / "s.py").write_text('import mcp\n@mcp.tool()\ndef ping() -> str:\n    """Ping.\n    Twice.\n    """\n')
    static = SourceIndex.build([tmp_path], tmp_path).static_listing(python_version=version)
    assert static["tools"][0]["description"] == expected


def test_no_mcp_import_no_static_listing(tmp_path: Path):
    (tmp_path / "tasks.py").write_text('from agents import app\n\n@app.tool()\ndef helper() -> str:\n    """Help."""\n')
    assert SourceIndex.build([tmp_path], tmp_path).static_listing()["tools"] == []


def test_tools_registered_through_a_wrapper_of_the_server_own(tmp_path: Path):
    """wikipedia-mcp: `@register_tool("name")` over `server.tool(func, name=name)`, and again with
    `name=f"wikipedia_{name}"` (mcplint.source.pywrappers)."""
    (tmp_path / "app.py").write_text('''from fastmcp import FastMCP
server = FastMCP("x")

def register_tool(name):
    def decorator(func):
        server.tool(func, name=name)
        server.tool(func, name=f"wikipedia_{name}")
        return func
    return decorator

@register_tool("get_summary")
def get_summary(title: str, limit: int = 3) -> str:
    """Get a summary."""
''')
    (tmp_path / "other.py").write_text('''from mcp.server.fastmcp import FastMCP
mcp = FastMCP("y")

def register(func):
    mcp.tool()(func)
    return func

def traced(label):
    def decorator(func):
        client.tool(label)  # handed no function: not a registration
        return func
    return decorator

@register
def ping() -> str:
    """Ping."""

@traced("pong")
def pong() -> str:
    """Pong."""
''')
    static = SourceIndex.build([tmp_path], tmp_path).static_listing()
    assert [tool["name"] for tool in static["tools"]] == ["get_summary", "wikipedia_get_summary", "ping"]
    assert static["tools"][0]["description"] == "Get a summary."
    assert static["tools"][0]["inputSchema"]["required"] == ["title"]
    assert set(static["tools"][1]["inputSchema"]["properties"]) == {"title", "limit"}


def test_a_decorator_of_the_project_own_imported_from_another_module(tmp_path: Path):
    """lean-lsp-mcp marks tools with `@tool("lean_goal")` from its own `registry.py`, which registers
    them elsewhere (`server.tool(name, **options)(function)`): read offline, nothing was found, and
    online every parameter finding landed on the name. langchain's `@tool("x")` is not the server's."""
    package = tmp_path / "leanish"
    (package / "tools").mkdir(parents=True)
    (package / "registry.py").write_text('def tool(name, **options):\n    return lambda f: f\n')
    (package / "server.py").write_text('from mcp.server.mcpserver import MCPServer\nmcp = MCPServer("leanish")\n')
    (package / "tools" / "goals.py").write_text(
        'from typing import Annotated\nfrom pydantic import Field\nfrom leanish.registry import tool\n\n\n'
        '@tool("lean_goal")\nasync def goal(\n    file_path: Annotated[str, Field(description="Path to the Lean file")],\n'
        '    lineNo: int,\n) -> str:\n    """Get the proof goal at a position."""\n')
    (package / "tools" / "chains.py").write_text(
        'from langchain_core.tools import tool\n\n@tool("search")\ndef search(query: str) -> str:\n    """Search."""\n')
    index = SourceIndex.build([tmp_path], tmp_path)
    tools = {t["name"]: t for t in index.static_listing(python_version=(3, 11))["tools"]}
    assert list(tools) == ["lean_goal"]
    assert tools["lean_goal"]["description"] == "Get the proof goal at a position."
    assert tools["lean_goal"]["inputSchema"]["properties"]["file_path"]["description"] == "Path to the Lean file"
    where = index.locate("tools", "lean_goal", ("inputSchema", "properties", "lineNo"), None)
    assert (where.path, where.span.line, where.span.column) == ("leanish/tools/goals.py", 9, 5)


def test_functions_registered_by_call_are_read(tmp_path: Path):
    """`Tool.from_function(fn, name=...)`, `mcp.tool(fn, name=...)` and a FastMCP subclass's
    `self.tool(self.method, name=...)` register a function without a decorator (fastmcp 2.7+, and
    mcp 1.x's Tool.from_function); offline they were not read at all."""
    (tmp_path / "app.py").write_text(
        'from fastmcp import FastMCP\nfrom fastmcp.tools import Tool\n\nmcp = FastMCP("x")\n\n\n'
        'def search(query: str, limit: int = 5) -> str:\n    """Search the notes."""\n    return query\n\n\n'
        'def shout(word: str) -> str:\n    return word.upper()\n\n\n'
        'mcp.add_tool(Tool.from_function(search, name="search_notes"))\n'
        'mcp.tool(shout, name="shout_word", description="Shout a word.")\n\n\n'
        'class NotesServer(FastMCP):\n    def __init__(self):\n        super().__init__("notes")\n'
        '        self.tool(self.count_notes, name="count_notes")\n\n'
        '    def count_notes(self, folder: str) -> int:\n        """Count the notes in a folder."""\n        return 0\n\n\n'
        '@mcp.tool(description="Decorated, not registered twice.")\ndef plain(x: int) -> int:\n    return x\n')
    static = SourceIndex.build([tmp_path], tmp_path).static_listing(python_version=(3, 11))
    tools = {tool["name"]: tool for tool in static["tools"]}
    assert sorted(tools) == ["count_notes", "plain", "search_notes", "shout_word"]
    assert tools["search_notes"]["description"] == "Search the notes."
    assert tools["search_notes"]["inputSchema"]["required"] == ["query"]
    assert tools["shout_word"]["description"] == "Shout a word."
    assert list(tools["count_notes"]["inputSchema"]["properties"]) == ["folder"]
