"""Speed benchmark for source anchoring (run by hand: python benchmarks/anchor.py).

Generates a 50,000-line server repository in a temporary folder: Python MCPServer tools
(decorators, docstrings, Annotated Field descriptions), TypeScript SDK tools (registerTool with
zod shapes), Go tools (found by text search) and as much ordinary code around them, then times
what the lead's `check` does: build the index (walk), and anchor 1,000 findings spread over the
three languages and over names, descriptions, parameter descriptions and fields the source does
not write (those land on the nearest written part). Each run starts from a fresh index, so the
parsing and the text-search index are inside the figure.
Target (issue 11, on a 2-core machine): <= 0.5 s for the whole of it.
Reports the best and the median of N runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcplint.source import Anchor, SourceIndex  # noqa: E402

TARGET = 0.5
LINES = 50_000

PY_TOOL = '''

@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def get_item_{n}(
    item_id: Annotated[str, Field(description="Identifier of item {n}")],
    limit: int = Field(10, description="How many rows to return for {n}"),
    verbose: bool = False,
) -> str:
    """Get item {n} from the store.

    Returns the item as text.
    """
    rows = lookup(item_id, limit)
    return format_rows(rows, verbose)
'''
TS_TOOL = '''
server.registerTool(
  "fetch_record_{n}",
  {{
    title: "Fetch record {n}",
    description: "Fetch record {n} by its key.",
    inputSchema: {{
      key: z.string().min(1).describe("Key of record {n}"),
      fields: z.array(z.string()).optional(),
    }},
    annotations: {{ readOnlyHint: true }},
  }},
  async ({{ key }}) => ({{ content: [{{ type: "text", text: `record ${{key}}` }}] }}),
);
'''
GO_TOOL = '''
	s.AddTool(mcp.NewTool("list_rows_{n}",
		mcp.WithDescription("List the rows of table {n}."),
		mcp.WithString("table", mcp.Required(), mcp.Description("Name of table {n}")),
	), listRows{n})
'''
PY_FILLER = '''
def helper_{n}(values: list[int], scale: float = 1.0) -> list[float]:
    """Scale the values (helper {n})."""
    result = []
    for value in values:
        if value < 0:
            continue
        result.append(value * scale)
    return result
'''
TS_FILLER = '''
export function helper{n}(values: number[], scale = 1): number[] {{
  const result: number[] = [];
  for (const value of values) {{
    if (value < 0) continue;
    result.push(value * scale);
  }}
  return result;
}}
'''
GO_FILLER = '''
func helper{n}(values []int, scale float64) []float64 {{
	result := []float64{{}}
	for _, value := range values {{
		if value < 0 {{
			continue
		}}
		result = append(result, float64(value)*scale)
	}}
	return result
}}
'''


def generate(root: Path, per_language: int = 400) -> list[tuple[str, str, tuple[str, ...], object]]:
    """Write the tree; return the 1,000 lookups (kind, name, pointer, value)."""
    header = {"py": "from typing import Annotated\nfrom mcp_types import ToolAnnotations\n"
                    "from pydantic import Field\nfrom app import mcp\n",
              "ts": 'import { z } from "zod";\nimport { server } from "./server.js";\n',
              "go": 'package main\n\nimport "github.com/mark3labs/mcp-go/mcp"\n\n'
                    'func register(s *server.MCPServer) {\n'}
    tools = {"py": PY_TOOL, "ts": TS_TOOL, "go": GO_TOOL}
    fillers = {"py": PY_FILLER, "ts": TS_FILLER, "go": GO_FILLER}
    chunks = {ext: [tools[ext].format(n=n) for n in range(per_language)] for ext in tools}
    lines = sum(chunk.count("\n") for parts in chunks.values() for chunk in parts)
    filler_n = 0
    while lines < LINES:  # ordinary code around the definitions, up to the tree's size
        for ext in fillers:
            chunks[ext].append(fillers[ext].format(n=filler_n))
            lines += chunks[ext][-1].count("\n")
        filler_n += 1
    for ext, parts in chunks.items():
        folder = root / {"py": "src/app/tools", "ts": "web/src/tools", "go": "cmd/server"}[ext]
        folder.mkdir(parents=True, exist_ok=True)
        for i in range(0, len(parts), 40):  # 40 definitions or helpers a file
            body = "".join(parts[i:i + 40])
            if ext == "go" and "AddTool" not in body:
                text = "package main\n" + body
            else:
                text = header[ext] + body + ("}\n" if ext == "go" else "")
            (folder / f"part_{i // 40}.{ext}").write_text(text)
    lookups = []
    rng = random.Random(11)
    for _ in range(1000):
        n, language = rng.randrange(per_language), rng.choice(("py", "py", "ts", "go"))
        if language == "py":
            lookups.append(rng.choice([
                ("tools", f"get_item_{n}", ("description",), None),
                ("tools", f"get_item_{n}", ("inputSchema", "properties", "item_id", "description"), None),
                ("tools", f"get_item_{n}", ("inputSchema", "properties", "verbose", "description"), None),
                ("tools", f"get_item_{n}", ("annotations", "destructiveHint"), None)]))
        elif language == "ts":
            lookups.append(rng.choice([
                ("tools", f"fetch_record_{n}", ("description",), None),
                ("tools", f"fetch_record_{n}", ("inputSchema", "properties", "key", "description"), None),
                ("tools", f"fetch_record_{n}", ("inputSchema", "properties", "fields", "description"), None)]))
        else:
            lookups.append(rng.choice([
                ("tools", f"list_rows_{n}", ("description",), f"List the rows of table {n}."),
                ("tools", f"list_rows_{n}", ("inputSchema", "properties", "table", "description"),
                 f"Name of table {n}"),
                ("tools", f"list_rows_{n}", ("annotations", "readOnlyHint"), None)]))
    return lookups


def count_lines(root: Path) -> int:
    return sum(path.read_text().count("\n") for path in root.rglob("*") if path.is_file())


def run_once(root: Path, lookups) -> tuple[float, float, float, int]:
    started, cpu = time.perf_counter(), time.process_time()
    index = SourceIndex.build([root], root)
    built = time.perf_counter()
    placed = sum(isinstance(index.locate(*lookup), Anchor) for lookup in lookups)
    return built - started, time.perf_counter() - started, time.process_time() - cpu, placed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mcplint-anchor-") as folder:
        root = Path(folder)
        lookups = generate(root)
        files = sum(1 for path in root.rglob("*") if path.is_file())
        print(f"tree: {count_lines(root):,} lines in {files} files; {len(lookups):,} lookups")
        results = [run_once(root, lookups) for _ in range(args.runs)]
        placed = results[0][3]
        walks, totals, cpus = ([result[i] for result in results] for i in range(3))
        print(f"placed: {placed:,} of {len(lookups):,}")
        print(f"walk (build): best {min(walks) * 1000:.0f} ms")
        # CPU time too: on a shared machine the wall clock also counts waiting for a core.
        print(f"build + 1,000 anchors: best {min(totals):.3f} s wall ({min(cpus):.3f} s CPU), "
              f"median {statistics.median(totals):.3f} s (target <= {TARGET} s) "
              f"{'OK' if min(totals) <= TARGET else 'OVER'}")


if __name__ == "__main__":
    main()
