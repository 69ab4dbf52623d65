"""The built-in pack's rule index (mcplint.rule_index): a run imports only the rules it runs,
and the index never changes what a run finds.

The subprocess tests lint with a copy of the pack placed first on the path, so the index they
write and read is the copy's own (other tests may be writing the real one meanwhile)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from mcplint import registry, rule_index
from mcplint.rule import CAPTURE, MANIFEST

# Lint, then say on stderr how many rule modules were imported and which kinds they serve.
PROBE = """
import sys
from mcplint.entry import main
sys.argv = ["mcplint", *sys.argv[1:]]
code = 0
try:
    main()
except SystemExit as exit:
    code = exit.code
loaded = [m for m in sys.modules if m.startswith("mcplint_rules.")]
print("PROBE", json.dumps({"modules": loaded, "code": code}), file=sys.stderr)
""".replace("import sys", "import json, sys", 1)


def entry_fields(entry) -> tuple:
    return (entry.code, entry.name, entry.applies_to, entry.versions, tuple(entry.checklist), entry.module, entry.qualname)


def test_catalog_matches_the_rule_classes():
    classes = registry.all_rules()
    assert [entry_fields(e) for e in registry.catalog()] == [entry_fields(registry.RuleEntry.of(c)) for c in classes]


@pytest.fixture
def pack_copy(tmp_path: Path) -> Path:
    """A copy of rules/ as the importable mcplint_rules, without its caches."""
    shutil.copytree(ROOT / "rules", tmp_path / "mcplint_rules", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def probe(pack_copy: Path, *args: str, write: bool = True) -> tuple[subprocess.CompletedProcess, dict]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "FORCE_COLOR")}
    env.update(NO_COLOR="1", COLUMNS="100", PYTHONPATH=str(pack_copy))
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=pack_copy, capture_output=True, env=env,
                          timeout=120)
    line = next(line for line in proc.stderr.decode().splitlines() if line.startswith("PROBE "))
    found = json.loads(line[len("PROBE "):])
    assert all(m.startswith("mcplint_rules.") for m in found["modules"])
    return proc, found


def index_file(pack_copy: Path) -> Path:
    return pack_copy / "mcplint_rules" / "__pycache__" / rule_index.FILE_NAME


def kinds(modules: list[str]) -> set[str]:
    by_module = {e.module: e.applies_to for e in registry.catalog()}
    return {kind for module in modules for kind in by_module[module]}


def test_a_manifest_check_imports_only_manifest_rules_once_indexed(pack_copy):
    manifest = str(FIXTURES / "examples" / "weather-server.json")
    first, before = probe(pack_copy, "check", manifest)
    assert index_file(pack_copy).is_file(), "a run that imported every rule writes the index"
    assert len(before["modules"]) == len(registry.catalog())
    second, after = probe(pack_copy, "check", manifest)
    assert kinds(after["modules"]) == {MANIFEST} and CAPTURE not in kinds(after["modules"])
    assert len(after["modules"]) < len(before["modules"])
    assert (second.stdout, after["code"]) == (first.stdout, before["code"])
    assert before["code"] == 1 and b"MCP202" in first.stdout


def test_the_index_is_rebuilt_when_a_rule_file_changes(pack_copy):
    manifest = str(FIXTURES / "examples" / "weather-server.json")
    probe(pack_copy, "check", manifest)
    module = pack_copy / "mcplint_rules" / "tool_name_style.py"
    module.write_text(module.read_text() + "\n# edited\n")
    _, edited = probe(pack_copy, "check", manifest)
    assert len(edited["modules"]) == len(registry.catalog()), "a stale index is not used"
    _, again = probe(pack_copy, "check", manifest)
    assert len(again["modules"]) < len(edited["modules"]), "and the next run has a fresh one"


def test_an_added_rule_module_is_seen_at_once(pack_copy):
    manifest = str(FIXTURES / "examples" / "weather-server.json")
    probe(pack_copy, "check", manifest)
    (pack_copy / "mcplint_rules" / "zz_always.py").write_text('''
from mcplint.document.pointer import Pointer
from mcplint.rule import Rule, Violation


class AlwaysRule(Rule):
    """Report the document's root.

    ## Why
    A test of the index.
    """

    code = "MCP999"
    name = "always-here"
    category = "test"

    def check(self, doc, ctx):
        yield Violation(Pointer(()), "here")
''')
    proc, _ = probe(pack_copy, "check", manifest, "--select", "MCP999")
    assert b"MCP999" in proc.stdout, proc.stderr.decode()


@pytest.mark.parametrize("damage", ["{not json", json.dumps({"format": 1, "rules": "no"}), "[]",
                                    json.dumps({"format": 999})])
def test_a_damaged_index_is_ignored(pack_copy, damage):
    manifest = str(FIXTURES / "examples" / "weather-server.json")
    good, _ = probe(pack_copy, "check", manifest)
    index_file(pack_copy).write_text(damage)
    proc, found = probe(pack_copy, "check", manifest, write=False)
    assert proc.stdout == good.stdout and found["code"] == 1
    assert len(found["modules"]) == len(registry.catalog())
    assert b"Traceback" not in proc.stderr


def test_an_index_with_forged_rows_is_ignored(pack_copy):
    """Rows of the wrong shape (a hand-edited or truncated cache) mean no index, not a crash."""
    manifest = str(FIXTURES / "examples" / "weather-server.json")
    good, _ = probe(pack_copy, "check", manifest)
    data = json.loads(index_file(pack_copy).read_text())
    data["rules"][0] = ["MCP000"]
    index_file(pack_copy).write_text(json.dumps(data))
    proc, found = probe(pack_copy, "check", manifest, write=False)
    assert proc.stdout == good.stdout and found["code"] == 1
    assert len(found["modules"]) == len(registry.catalog())


def test_no_index_is_written_when_bytecode_writing_is_off(pack_copy):
    probe(pack_copy, "check", str(FIXTURES / "examples" / "weather-server.json"), write=False)
    assert not index_file(pack_copy).exists()


def test_a_folder_with_a_subfolder_has_no_stamp(tmp_path):
    (tmp_path / "a.py").write_text("")
    assert rule_index._stamp(str(tmp_path)) == [["a.py", 0, (tmp_path / "a.py").stat().st_mtime_ns]]
    (tmp_path / "sub").mkdir()
    assert rule_index._stamp(str(tmp_path)) is None
