"""An audit never calls a tool that could change anything: the call gate fails closed.

- For real: `mcplint audit` (default, and `--call-read-only`) against fixtures/servers/effect_tools.py,
  whose 20 effect tools all claim readOnlyHint: true, openWorldHint: false and each write a marker
  file when called with any arguments. No effect marker may appear; the two safe tools are called.
- The gate itself over tables: each refused tool with its exact reason, and reads that still pass.
- The lexicon is the gate's own: the annotation rules' verdicts (mcplint.risk) do not move.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, shared_path
from servers import TAG_VARIABLE, new_tag, server_command, wait_for_no_orphans

from mcplint.audit import call_gate, effect_lexicon, safety

READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}
AUDIT_TIMEOUT = 60
SAFE = {"get_weather", "count_letters"}


def tool(name, description=None, annotations=READ_ONLY, **more):
    found = {"name": name, "inputSchema": {"type": "object"}, "annotations": annotations, **more}
    if description is not None:
        found["description"] = description
    return found


# --- the fixture server, audited for real --------------------------------------------------------
@pytest.mark.parametrize("options", [(), ("--call-read-only",)], ids=["default", "call-read-only"])
def test_audit_calls_no_effect_tool(tmp_path, options):
    markers, tag = tmp_path / "markers", new_tag()
    markers.mkdir()
    env = {**{k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}, "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mcplint", "audit", "--format", "json", *options,
         f"--env=MCPLINT_EFFECT_MARKERS={markers}", f"--env={TAG_VARIABLE}={tag}",
         "--", *server_command("effect_tools")],
        cwd=ROOT, capture_output=True, env=env, timeout=AUDIT_TIMEOUT)
    assert proc.returncode in (0, 1), proc.stderr.decode()[-3000:]
    called = {path.name.removesuffix(".called") for path in markers.iterdir()}
    assert called == SAFE, f"effect tools called: {sorted(called - SAFE)}"
    audit = json.loads(proc.stdout)["summary"]["audit"]
    not_called = audit["tools_not_called"]
    assert len(not_called) == 20 and not SAFE & set(not_called)
    assert not_called["get_row"] == "description says 'permanently remove'"
    assert not_called["wipe_cache"] == "name part 'wipe' implies a side effect"
    probes = {probe["name"]: probe for probe in audit["probes"]}
    assert "get_weather missing-required:city" in probes["input-validation"]["detail"]
    if options:
        assert probes["call-read-only"]["detail"] == "get_weather: result; count_letters: result"
    assert wait_for_no_orphans(tag) == []


# --- the gate, tool by tool ----------------------------------------------------------------------
REFUSED = [
    # names
    (tool("pay_invoice"), "name part 'pay' implies a side effect"),
    (tool("wipe_cache"), "name part 'wipe' implies a side effect"),
    (tool("nuke_db"), "name part 'nuke' implies a side effect"),
    (tool("format_disk"), "name part 'format' is a verb there that may have a side effect"),
    (tool("shutdown_host"), "name part 'shutdown' implies a side effect"),
    (tool("kill-process"), "name part 'kill' implies a side effect"),
    (tool("revoke.token"), "name part 'revoke' implies a side effect"),
    (tool("purge_queue"), "name part 'purge' implies a side effect"),
    (tool("reset_password"), "name part 'reset' implies a side effect"),
    (tool("deleteUser"), "name part 'delete' implies a side effect"),
    (tool("delete_file"), "name part 'delete' implies a side effect"),
    (tool("write_file"), "name part 'write' implies a side effect"),
    (tool("DELETE_USER"), "name part 'delete' implies a side effect"),
    (tool("get_users_2delete"), "name part 'delete' implies a side effect"),
    (tool("get_removed_items"), "name part 'removed' implies a side effect (remove)"),
    (tool("get_forcedelete"), "name part 'forcedelete' implies a side effect (delete)"),
    (tool("get_payment_status"), "name part 'payment' implies a side effect"),
    (tool("getAndArchive"), "name part 'archive' is a verb there that may have a side effect"),
    (tool("fetch_then_post"), "name part 'post' is a verb there that may have a side effect"),
    (tool("add_user"), "name part 'add' implies a side effect"),
    (tool("update_record"), "name part 'update' is a verb there that may have a side effect"),
    (tool("check_in"), "name part 'check' is not a known read verb (get, list, read, search, find, fetch, "
                       "describe, show, ...), so what the tool does is unknown"),
    (tool("github_get_issue"), "name part 'github' is not a known read verb (get, list, read, search, find, "
                               "fetch, describe, show, ...), so what the tool does is unknown"),
    (tool("get_\u0440ow"), "its name has characters other than A-Z, a-z, 0-9, '_', '-' and '.', so it cannot "
                           "be vetted"),
    (tool(42), "its name has characters other than A-Z, a-z, 0-9, '_', '-' and '.', so it cannot be vetted"),
    # descriptions: every sentence, every clause, any inflection
    (tool("get_row", "Fetch the row and permanently remove it."), "description says 'permanently remove'"),
    (tool("get_report", "Get the report. Then sends an email to the team."), "description says 'sends'"),
    (tool("get_host", "Show the host. Shuts it down when idle."), "description says 'shuts'"),
    (tool("lookup_card", "Look up a card. Also charges the card."), "description says 'charges'"),
    (tool("lookup", "Sends an SMS."), "description says 'sends'"),
    (tool("get_job", "Get the next job and dequeue it."), "description says 'dequeue'"),
    (tool("get_ticket", "Get a ticket, then resolve it."), "description says 'resolve' (a verb there, or ambiguous)"),
    (tool("get_file", "Read a file; the file is deleted afterwards."), "description says 'deleted'"),
    (tool("get_item", "Return the item (removal happens later)."), "description says 'removal'"),
    (tool("get_item", "Get an item. Irreversible."), "description says 'irreversible'"),
    (tool("get_item", "Get an item, with a side effect on the cache."), "description says 'side effect'"),
    (tool("get_item", "Get the item and email it to the owner."),
     "description says 'email' (a verb there, or ambiguous)"),
    (tool("get_item", "Get the item; the item gets updated."),
     "description says 'updated' (a verb there, or ambiguous)"),
    (tool("get_item", "A helper that posts updates."), "description says 'posts' (a verb there, or ambiguous)"),
    (tool("get_item", "Get the watch list. The list updates the feed."),
     "description says 'updates' (a verb there, or ambiguous)"),
    (tool("get_item", "Get the item. It's posted afterwards."),
     "description says 'posted' (a verb there, or ambiguous)"),
    (tool("get_item", "Get items by posting a form."), "description says 'posting' (a verb there, or ambiguous)"),
    (tool("get_item", "Get the item via deleteItem."), "description says 'delete'"),
    (tool("get_item", "Get the item and ＤＥＬＥＴＥ it."), "description says 'delete'"),
    (tool("get_item", "Get the item and de\u200blete it."),
     "description has invisible or control characters, so it cannot be vetted"),
    (tool("get_item", "Get the item and r\u0435move it."),
     "description has a word with letters outside A-Z ('r\u0435move'), so it cannot be vetted"),
    (tool("get_item", ["Get"]), "its description is not text, so it cannot be vetted"),
    (tool("get_item", "Get an item.", title="Wipe items"), "title says 'wipe'"),
    (tool("get_item", "Get an item.", annotations={**READ_ONLY, "title": "Pay"}), "title says 'pay'"),
    # what the audit could send
    (tool("get_rows", "Get rows.", inputSchema={"type": "object", "properties": {
        "sql": {"type": "string", "default": "DROP TABLE rows"}}, "required": ["sql"]}),
     "input schema default of property 'sql' says 'drop'"),
    (tool("get_rows", "Get rows.", inputSchema={"type": "object", "properties": {
        "mode": {"enum": ["read", "purge"]}}}), "input schema enum of property 'mode' says 'purge'"),
    (tool("get_rows", "Get rows.", inputSchema={"type": "object", "properties": {"delete_after": {}}}),
     "input schema property 'delete_after' implies a side effect ('delete')"),
    # found by attacking the gate (2026-11-29): a capital word with a suffix, words the lexicon lacked,
    # a word cut by the camelCase split, values nested in what the audit could send, annotations
    # that contradict each other
    (tool("read_file", "Reads a file, then DELETEs it."), "description says 'deletes'"),
    (tool("get_disk", "Gets the disk and reformats it."), "description says 'reformats'"),
    (tool("get_balance", "Gets the balance, then zeroes it."), "description says 'zeroes'"),
    (tool("get_vault", "Gets the vault and encrypts every file."), "description says 'encrypts'"),
    (tool("get_report", "Gets the report and files it with the IRS."), "description says 'files'"),
    (tool("get_host", "Gets the host, then powers it off."), "description says 'powers'"),
    (tool("get_setting", "Get a setting and unset it."), "description says 'unset'"),
    (tool("getFileWIPEall"), "name part 'getFileWIPEall' implies a side effect (wipe)"),
    (tool("get_items", "Get items.", inputSchema={"type": "object", "properties": {
        "filter": {"type": "object", "default": {"action": "delete everything"}}}}),
     "input schema default of property 'filter' says 'delete'"),
    (tool("get_items", "Get items.", inputSchema={"type": "object", "properties": {
        "op": {"enum": [{"then": "drop all tables"}]}}}), "input schema enum of property 'op' says 'drop'"),
    (tool("get_stats", annotations={**READ_ONLY, "destructiveHint": True}),
     "its annotations contradict each other (readOnlyHint and destructiveHint both true), so it cannot be vetted"),
    # what it returns would be a credential in the recording (server-everything's get-env)
    (tool("get-env", "Returns all environment variables, helpful for debugging MCP server configuration"),
     "name says 'env': it may return secrets, which the recording would keep"),
    (tool("getEnv"), "name says 'env': it may return secrets, which the recording would keep"),
    (tool("get_secrets", "Returns the API keys the server holds."),
     "name says 'secrets': it may return secrets, which the recording would keep"),
    (tool("get_config", "Get the configuration, including the database password."),
     "description says 'password': it may return secrets, which the recording would keep"),
    (tool("show_session", "Show the session.", title="Show access token"),
     "name says 'session': it may return secrets, which the recording would keep"),
    # get + object + a word of state: "get the door open" makes it so
    (tool("get_door_open", "Get the front door open."), "name reads as 'get it open' (making it open), not as a read"),
    (tool("getLightsOff"), "name reads as 'get it off' (making it off), not as a read"),
    (tool("get_order_shipped"), "name reads as 'get it shipped' (making it shipped), not as a read"),
    # annotations come first
    (tool("get_weather", annotations=None), "it does not claim readOnlyHint: true"),
    (tool("get_weather", annotations={"readOnlyHint": True}), "it may reach outside systems (openWorldHint is not false)"),
    ("not a tool", "not a tool object"),
]


@pytest.mark.parametrize("found,reason", REFUSED, ids=[str(i) for i in range(len(REFUSED))])
def test_refused_with_its_reason(found, reason):
    assert call_gate.call_refusal(found) == reason


ALLOWED = [
    tool("add_numbers", "Add two integers and return their sum.", title="Add numbers"),
    tool("divide_numbers", "Divide one number by another. Fails with a tool error when the divisor is zero."),
    tool("get_text_stats", "Count the characters, words and lines of a text."),
    tool("search_notes", "Search the notebook for notes that contain the given words."),
    tool("get_forecast", "Get tomorrow\u2019s weather forecast for a city."),
    tool("convert_celsius_to_fahrenheit", "Convert a measurement from celsius to fahrenheit."),
    tool("listMessages", "Lists the latest posts and their messages, newest first."),
    tool("get_post", "Get a blog post by its id, with the error messages of its latest build."),
    tool("get_open_issues", "Get the open issues of a repository."),
    tool("get_door_status", "Get the status of the front door."),
    tool("get-user", "Get the user's email address and current settings."),
    tool("get_feed", "Get a feed. It returns posts, and lists updates; to show messages, pass all=true."),
    tool("getOrders", "Returns orders in the given date format, sorted by date, for 3 updates per page."),
    tool("lookup"),
    tool("list_comments", "Get the comments on a ticket, 20 per page."),
    tool("read_file"),
    tool("list_pages", "List pages; pass the next page token to continue."),
    tool("describe_table", "Describe a table.", inputSchema={"type": "object", "properties": {
        "table": {"type": "string", "description": "Table name", "examples": ["users"]}}}),
]


@pytest.mark.parametrize("found", ALLOWED, ids=lambda t: t["name"])
def test_clear_reads_pass(found):
    assert call_gate.call_refusal(found) is None


def test_every_effect_word_refuses_wherever_it_stands():
    """Each form in the lexicon, as a name part after a read verb and mid-sentence in a description."""
    for word in effect_lexicon.EFFECT_WORDS:
        assert call_gate.call_refusal(tool(f"get_{word}_items")), word
        assert call_gate.call_refusal(tool("get_items", f"Get the items. It may {word} them.")), word
    for word in effect_lexicon.AMBIGUOUS_WORDS:
        assert call_gate.call_refusal(tool(f"get_items_and_{word}")), word
        assert call_gate.call_refusal(tool("get_items", f"Get the items, then {word} them.")), word


def test_allow_calls_is_the_only_widening():
    plan = safety.plan_calls([tool("wipe_cache"), tool("get_weather")], allow_calls=["wipe_cache"])
    assert {d.name: d.callable for d in plan.decisions} == {"wipe_cache": True, "get_weather": True}
    plan = safety.plan_calls([tool("wipe_cache"), tool("get_weather")], call_read_only=True)
    assert [d.name for d in plan.call] == ["get_weather"]
    assert plan.skipped() == {"wipe_cache": "name part 'wipe' implies a side effect"}


def test_corpus_tools_a_live_audit_may_call():
    """Of the reference servers' tools, only plain reads are called; git_* and namespaced or
    unknown verbs are not (they are ambiguous), nor is fetch (open world)."""
    callable_names = set()
    for path in shared_path("corpus", "manifests").glob("*.json"):
        for found in json.loads(path.read_text(encoding="utf-8"))["tools"]:
            if call_gate.call_refusal(found) is None:
                callable_names.add(found["name"])
    assert {"read_file", "read_text_file", "list_directory", "search_files", "read_graph", "search_nodes", "get_current_time",
            "convert_time", "divide", "echo", "get-sum"} <= callable_names
    assert not callable_names & {"fetch", "write_file", "edit_file", "move_file", "create_directory",
                                 "delete_entities", "git_commit", "git_add", "git_reset", "git_checkout",
                                 "git_create_branch", "create_entities", "toggle-simulated-logging",
                                 "gzip-file-as-resource", "trigger-long-running-operation", "open_nodes"}


def test_call_read_only_says_why_nothing_was_called():
    """exa's two read-only tools were refused for their names; the probe said no tool was
    annotated read-only, which was not the reason."""
    from mcplint.audit.runner import _none_cleared

    plan = safety.plan_calls([tool("web_search_exa", "Search the web."), tool("wipe_cache")], call_read_only=True)
    assert plan.call == []
    assert _none_cleared(plan) == (
        "no tool passed the safety rules (web_search_exa: name part 'web' is not a known read verb (get, list, "
        "read, search, find, fetch, describe, show, ...), so what the tool does is unknown; wipe_cache: name part "
        "'wipe' implies a side effect)")
    assert _none_cleared(safety.plan_calls([], call_read_only=True)) == "the server lists no tools"
