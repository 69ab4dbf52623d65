"""Suppressions, run for real: `# mcplint: disable=...` comments in YAML files, MCP001
unused-suppression, and per-file-ignores entries that silence nothing."""

from __future__ import annotations

import json

from conftest import run_mcplint

# Without comments this manifest has: MCP210 at /tools/0 (line 2), MCP311 at
# /tools/0/inputSchema/properties/id (line 6), MCP202 at /tools/1/name (line 7),
# MCP212 at /tools/1/description (line 8) and MCP411 at /tools/1 (line 7).
SERVER = """\
tools:
  - name: get_user
    inputSchema:
      type: object
      properties:
        id: {type: string}
  - name: deleteUser
    description: Delete.
    inputSchema: {type: object}
"""
ALL_FINDINGS = {
    ("MCP210", "/tools/0"), ("MCP311", "/tools/0/inputSchema/properties/id"), ("MCP202", "/tools/1/name"),
    ("MCP212", "/tools/1/description"), ("MCP411", "/tools/1"),
}


def _findings(tmp_path, text, *args, name="server.yaml"):
    (tmp_path / name).write_text(text)
    proc = run_mcplint("check", name, "-f", "json", *args, cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr.decode()
    report = json.loads(proc.stdout)
    return {(f["rule"], f["pointer"]) for f in report["findings"]}, report, proc


def _unused(found):
    return {item for item in found if item[0] == "MCP001"}


def test_without_comments(tmp_path):
    found, _, _ = _findings(tmp_path, SERVER)
    assert found == ALL_FINDINGS


def test_trailing_comment_silences_its_line_only(tmp_path):
    text = SERVER.replace("  - name: deleteUser\n", "  - name: deleteUser  # mcplint: disable=MCP202\n")
    found, _, _ = _findings(tmp_path, text)
    assert found == ALL_FINDINGS - {("MCP202", "/tools/1/name")}
    # A trailing comment names rules by code, prefix or name, several at once, with a reason.
    text = SERVER.replace("  - name: deleteUser\n",
                          "  - name: deleteUser  # mcplint: disable=tool-name-style, MCP41 -- v1 API name\n")
    found, _, _ = _findings(tmp_path, text)
    assert found == ALL_FINDINGS - {("MCP202", "/tools/1/name"), ("MCP411", "/tools/1")}


def test_own_line_comment_silences_the_whole_node_below(tmp_path):
    text = SERVER.replace("  - name: get_user\n", "  # mcplint: disable=MCP210,MCP311\n  - name: get_user\n")
    found, _, _ = _findings(tmp_path, text)
    assert found == ALL_FINDINGS - {("MCP210", "/tools/0"), ("MCP311", "/tools/0/inputSchema/properties/id")}
    # Above a member it covers that member only: the tool's other findings stay.
    text = SERVER.replace("    description: Delete.\n", "    # mcplint: disable=ALL\n\n    description: Delete.\n")
    found, _, _ = _findings(tmp_path, text)
    assert found == ALL_FINDINGS - {("MCP212", "/tools/1/description")}
    # Stacked comments all apply to the first line below them that is neither blank nor a comment.
    text = SERVER.replace("  - name: deleteUser\n", "  # mcplint: disable=MCP202\n  # a note\n"
                          "  # mcplint: disable=MCP411\n\n  - name: deleteUser\n")
    found, _, _ = _findings(tmp_path, text)
    assert found == ALL_FINDINGS - {("MCP202", "/tools/1/name"), ("MCP411", "/tools/1")}


def test_disable_file_and_all(tmp_path):
    found, _, _ = _findings(tmp_path, "# mcplint: disable-file=MCP2\n" + SERVER)
    assert found == {("MCP311", "/tools/0/inputSchema/properties/id"), ("MCP411", "/tools/1")}
    found, _, proc = _findings(tmp_path, SERVER + "# mcplint: disable-file=ALL\n", "--fail-on", "warning")
    assert found == set() and proc.returncode == 0


def test_silenced_findings_do_not_fail_the_run(tmp_path):
    text = ("tools:\n  # mcplint: disable=input-schema-missing\n"
            "  - name: get_user\n    description: Get one user by id.\n")
    (tmp_path / "server.yaml").write_text(text)
    assert run_mcplint("check", "server.yaml", "--select", "MCP301", cwd=tmp_path).returncode == 0
    (tmp_path / "server.yaml").write_text(text.replace("  # mcplint: disable=input-schema-missing\n", ""))
    assert run_mcplint("check", "server.yaml", "--select", "MCP301", cwd=tmp_path).returncode == 1


def test_unused_suppressions_are_reported(tmp_path):
    text = (
        "# mcplint: disable-file=MCP401\n"
        + SERVER.replace("  - name: get_user\n", "  # mcplint: disable=MCP210,MCP204\n  - name: get_user\n")
        .replace("    description: Delete.\n", "    description: Delete.  # mcplint: disable=MCP212,MCP211\n")
    )
    found, report, _ = _findings(tmp_path, text)
    assert found == ALL_FINDINGS - {("MCP210", "/tools/0"), ("MCP212", "/tools/1/description")} | {
        ("MCP001", ""), ("MCP001", "/tools/0"), ("MCP001", "/tools/1/description"),
    }
    messages = sorted((f["line"], f["column"], f["message"]) for f in report["findings"] if f["rule"] == "MCP001")
    assert messages == [
        (1, 1, "Suppression of 'MCP401' is unused: no MCP401 finding is in this file; remove it from the comment"),
        (3, 3, "Suppression of 'MCP204' is unused: no MCP204 finding is on the line or in the node below; "
               "remove it from the comment"),
        (10, 27, "Suppression of 'MCP211' is unused: no MCP211 finding starts on this line; "
                 "remove it from the comment"),
    ]
    assert all(f["severity"] == "warning" for f in report["findings"] if f["rule"] == "MCP001")


def test_a_suppression_for_a_rule_that_did_not_run_is_not_unused(tmp_path):
    text = SERVER.replace("  - name: get_user\n", "  # mcplint: disable=MCP204\n  - name: get_user\n")
    found, _, _ = _findings(tmp_path, text)
    assert ("MCP001", "/tools/0") in found
    found, _, _ = _findings(tmp_path, text, "--ignore", "MCP204")  # MCP204 did not look
    assert _unused(found) == set()
    found, _, _ = _findings(tmp_path, text, "--select", "MCP001,MCP210")
    assert found == {("MCP210", "/tools/0")}
    # ALL is judged only when every rule that applies ran.
    text = SERVER.replace("  - name: get_user\n", "  # mcplint: disable=ALL\n  - name: get_user\n", 1).replace(
        "  - name: deleteUser\n", "  # mcplint: disable=ALL\n  - name: deleteUser\n")
    text = text.replace("    description: Delete.\n", "    description: Delete the user with this id.\n"
                        "    annotations: {destructiveHint: true}\n").replace("deleteUser", "delete_user")
    found, _, _ = _findings(tmp_path, text)
    assert found == {("MCP001", "/tools/1")}
    found, _, _ = _findings(tmp_path, text, "--ignore", "MCP213")
    assert found == set()


def test_unknown_rule_and_malformed_comments_are_findings(tmp_path):
    text = SERVER.replace("  - name: get_user\n", "  # mcplint: disable=tool-descripton-missing\n  - name: get_user\n")
    text = text.replace("  - name: deleteUser\n", "  - name: deleteUser  # mcplint: disabel=MCP202\n")
    found, report, proc = _findings(tmp_path, text)
    assert _unused(found) == {("MCP001", "/tools/0"), ("MCP001", "/tools/1")}
    messages = sorted(f["message"] for f in report["findings"] if f["rule"] == "MCP001")
    assert messages[0].startswith("Malformed suppression comment '# mcplint: disabel=MCP202'")
    assert "unknown rule 'tool-descripton-missing'" in messages[1]
    # The misspelt suppressions silenced nothing.
    assert ("MCP210", "/tools/0") in found and ("MCP202", "/tools/1/name") in found


def test_mcp001_is_silenced_in_the_config_not_by_comments(tmp_path):
    text = "# mcplint: disable-file=MCP001\n" + SERVER.replace(
        "  - name: get_user\n", "  # mcplint: disable=MCP204\n  - name: get_user\n")
    found, _, _ = _findings(tmp_path, text)
    assert _unused(found) == {("MCP001", ""), ("MCP001", "/tools/0")}
    found, _, _ = _findings(tmp_path, text, "--ignore", "MCP001")
    assert found == ALL_FINDINGS
    (tmp_path / ".mcplint.yaml").write_text("per-file-ignores:\n  'server.yaml': [unused-suppression]\n")
    found, _, proc = _findings(tmp_path, text)
    assert found == ALL_FINDINGS and b"per-file-ignores" not in proc.stderr


def test_comment_lookalikes_inside_strings_are_text(tmp_path):
    text = """\
tools:
  - name: get_user
    title: "User # mcplint: disable=NOPE"
    description: 'This tool returns a user. # mcplint: disable=MCP211'
    inputSchema:
      type: object
      description: |
        # mcplint: disable-file=ALL
      properties: {}
"""
    found, _, _ = _findings(tmp_path, text, "--select", "MCP001,MCP211")
    assert found == {("MCP211", "/tools/0/description")}


def test_json_manifests_have_no_comments(tmp_path):
    text = json.dumps({"tools": [{"name": "get_user", "description": "This tool returns a user.",
                                  "inputSchema": {"type": "object"}}]}, indent=2)
    text = text.replace('returns a user.",', 'returns a user.", # mcplint: disable=MCP211')
    (tmp_path / "server.json").write_text(text)
    proc = run_mcplint("check", "server.json", "--select", "MCP001,MCP211", cwd=tmp_path)
    assert proc.returncode == 2 and b"invalid JSON" in proc.stderr  # JSON has no comments at all
    inside = json.dumps({"tools": [{"name": "get_user", "inputSchema": {"type": "object"},
                                    "description": "This tool returns a user. # mcplint: disable=MCP211"}]})
    found, _, _ = _findings(tmp_path, inside, "--select", "MCP001,MCP211", name="server.json")
    assert found == {("MCP211", "/tools/0/description")}


def test_config_overrides_by_json_pointer_and_unused_entries(tmp_path):
    (tmp_path / ".mcplint.yaml").write_text(
        "per-file-ignores:\n"
        "  'server.json#/tools/1': [MCP212, MCP411]\n"       # used
        "  'server.json#/tools/0/description': [MCP210]\n"  # unused: MCP210 points at the tool
        "  'legacy/*.json': [ALL]\n"                         # covers no linted file: not judged
        "  '*.json': [MCP401]\n"                             # unused
    )
    tools = [{"name": "get_user", "inputSchema": {"type": "object"}},
             {"name": "deleteUser", "description": "Delete.", "inputSchema": {"type": "object"}}]
    found, _, proc = _findings(tmp_path, json.dumps({"tools": tools}), name="server.json")
    assert found == {("MCP210", "/tools/0"), ("MCP202", "/tools/1/name")}
    config = str(tmp_path / ".mcplint.yaml")
    assert proc.stderr.decode().splitlines() == [
        f"mcplint: warning: {config}: per-file-ignores entry 'server.json#/tools/0/description' silenced no "
        "finding in the 1 file(s) it covers; remove it or fix the pattern",
        f"mcplint: warning: {config}: per-file-ignores entry '*.json' silenced no finding in the 1 file(s) it "
        "covers; remove it or fix the pattern",
    ]
    # An entry naming a rule that did not run is not judged.
    _, _, proc = _findings(tmp_path, json.dumps({"tools": tools}), "--select", "MCP2", name="server.json")
    assert proc.stderr.decode().count("warning") == 1 and "#/tools/0/description" in proc.stderr.decode()


def test_the_documented_examples_hold(tmp_path):
    from conftest import ROOT

    readme = (ROOT / "docs" / "baselines.md").read_text("utf-8")
    section = readme[readme.index("## Suppression comments in YAML"):]
    example = section[section.index("```yaml\n") + 8:section.index("```\n", section.index("```yaml\n") + 8)]
    found, _, _ = _findings(tmp_path, example)
    assert found == set()  # every finding silenced, and no suppression unused
    section = readme[readme.index("## JSON manifests: config overrides"):]
    config = section[section.index("```yaml\n") + 8:section.index("```\n", section.index("```yaml\n") + 8)]
    (tmp_path / ".mcplint.yaml").write_text(config)
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [
        {"name": "get_user", "description": "Get one user by id.",
         "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}},
    ] + [{"name": f"get_item_{i}", "description": "Get one item by id.", "inputSchema": {"type": "object"}}
         for i in range(2)] + [
        {"name": "delete_user", "description": "Delete one user by id.", "inputSchema": {"type": "object"}},
    ]}))
    proc = run_mcplint("check", "tools.json", "-f", "json", "--select", "MCP311,MCP411", cwd=tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["findings"] == []
    assert b"'generated/*.json'" not in proc.stderr  # covers no linted file: not judged


def test_a_reason_may_follow_after_dashes_or_another_hash(tmp_path):
    for reason in (" -- legacy", "  # legacy", ""):
        text = SERVER.replace("  - name: deleteUser\n", f"  - name: deleteUser  # mcplint: disable=MCP202{reason}\n")
        found, _, _ = _findings(tmp_path, text)
        assert found == ALL_FINDINGS - {("MCP202", "/tools/1/name")}, reason
    text = SERVER.replace("  - name: deleteUser\n", "  - name: deleteUser  # mcplint: disable=MCP202 legacy\n")
    found, _, _ = _findings(tmp_path, text)
    assert ("MCP202", "/tools/1/name") in found and ("MCP001", "/tools/1") in found  # malformed: silences nothing
