"""mcplint.risk: what a tool's name and description say it does (used by MCP410/MCP411; the audit's
call gate is tested in test_hostile_calls.py)."""

from __future__ import annotations

import pytest

from mcplint.risk import Hints, Intent, destructive_intent, effective_hints, name_words, tool_intent


@pytest.mark.parametrize("name,verb,effect", [
    ("delete_file", "delete", "destroy"),
    ("deleteFile", "delete", "destroy"),
    ("DELETE-FILE", "delete", "destroy"),
    ("github_repo_delete", "delete", "destroy"),  # the last word is the verb when none leads
    ("soft_delete", "delete", "destroy"),
    ("password_reset", "reset", "destroy"),  # ambiguous verbs count after a namespace word
    ("git_reset", "reset", "destroy"),
    ("drop_table", "drop", "destroy"),
    ("truncate_table", "truncate", "destroy"),
    ("clear_cache", "clear", "destroy"),
    ("kill_process", "kill", "destroy"),
    ("send_email", "send", "send"),
    ("sendEmail", "send", "send"),
    ("slack_post_message", "post", "send"),
    ("email_send", "email", "send"),
    ("git_push", "push", "send"),
    ("upload_file", "upload", "send"),
    ("pay_invoice", "pay", "pay"),
    ("transfer_funds", "transfer", "pay"),
    ("stripe_create_refund", "refund", "pay"),
    ("execute_command", "execute", "execute"),
    ("run_command", "run", "execute"),
    ("shell_exec", "exec", "execute"),
    ("run_python_code", "run", "execute"),
    ("ssh_execute_command", "execute", "execute"),
    ("code_execute", "execute", "execute"),
    ("bash", "bash", "execute"),
    ("eval_js", "eval", "execute"),
    ("eval", "eval", "execute"),
    ("browser_eval_javascript", "eval", "execute"),
    ("deploy_app", "deploy", "execute"),
    ("write_file", "write", "write"),
    ("edit_file", "edit", "write"),
    ("move_file", "move", "write"),
    ("git_commit", "commit", "write"),
    ("set_timezone", "set", "write"),
    ("toggle-simulated-logging", "toggle", "write"),
    ("update_or_delete_row", "delete", "destroy"),  # the strongest effect wins
])
def test_names_with_effects(name, verb, effect):
    assert tool_intent(name) == Intent(verb, effect, "name")


@pytest.mark.parametrize("name", [
    # corpus tools without side effects, or whose effects are additive
    "read_file", "read_text_file", "git_diff", "git_diff_unstaged", "git_status", "git_log", "git_show",
    "git_add", "git_create_branch", "git_checkout", "create_directory", "create_entities", "add_observations",
    "add", "divide", "text_stats", "convert_temperature", "get_current_time", "convert_time", "fetch",
    "echo", "get-env", "gzip-file-as-resource", "trigger-long-running-operation", "simulate-research-query",
    "sequentialthinking", "search_nodes", "open_nodes", "list_allowed_directories", "directory_tree",
    "ha_eval_template",  # Home Assistant renders a Jinja2 template against the current states: a read
    # effect words used as nouns or in pure transforms
    "get_post", "list_posts", "list_emails", "get_email", "get_transfer_status", "remove_duplicates",
    "drop_duplicates", "truncate_text", "remove_background", "run_tests", "execute_query", "undelete_file",
    "list_deleted_items", "get_process_run_history", "get_refund_status", "list_purchase_orders",
    "get_deploy_status", "refund_status", "get_payment_refund", "search_published_posts", "exec_stats", "post_process_image", "charge_level",
    # hypothetical effects
    "can_delete", "preview_delete", "dry_run_send", "simulate_payment", "draft_email",
    "", "___",
])
def test_names_without_effects(name):
    assert tool_intent(name) is None


@pytest.mark.parametrize("description,verb,effect", [
    ("Deletes a file.", "delete", "destroy"),
    ("Permanently erases the record.", "erase", "destroy"),
    ("This tool deletes the selected rows.", "delete", "destroy"),
    ("Use this tool to send an email to a recipient.", "send", "send"),
    ("Posts a message to a channel.", "post", "send"),
    ("Email the report to a recipient.", "email", "send"),
    ("Pushes the branch to origin.", "push", "send"),
    ("Run a shell command on the host.", "run", "execute"),
    ("Execute arbitrary shell commands.", "execute", "execute"),
    ("Overwrite the file with new content.", "overwrite", "destroy"),
    ("Update files in place.", "update", "write"),
    ("Replies to a thread.", "reply", "send"),
])
def test_description_leading_verb(description, verb, effect):
    assert tool_intent("tool", description) == Intent(verb, effect, "description")


@pytest.mark.parametrize("description", [
    "Echoes back the input string",
    "Fetches a URL from the internet and optionally extracts its contents as markdown.",
    "Records changes to the repository",  # git_commit: the name decides, not this
    "Simulates a deep research operation. If 'ambiguous' is true, sends an elicitation request.",
    "Remove duplicates from the returned list.",
    "Email address lookup for a user.",
    "Post metadata for a blog entry.",
    "Run the test suite.",
    "Execute a SQL query against the read replica.",
    "Get the weather. Deletes nothing.",  # only the leading verb counts
    "",
])
def test_descriptions_without_effects(description):
    assert tool_intent("tool", description) is None


def test_the_name_decides_before_the_description():
    assert tool_intent("write_file", "Deletes a file.").verb == "write"
    assert tool_intent("cleanup", "Deletes temporary files.").source == "description"
    assert tool_intent(None, "Deletes temporary files.").verb == "delete"
    assert tool_intent(42, None) is None


def test_destructive_intent_excludes_plain_writes():
    assert destructive_intent("delete_file") == "delete"
    assert destructive_intent("send_email") is None  # additive: destructiveHint: false is right for it
    assert destructive_intent("write_file") is None
    assert destructive_intent("read_file") is None
    assert destructive_intent("cleanup", "Wipes the cache directory.") == "wipe"


def test_name_words():
    assert name_words("getHTTPResponse_v2") == ["get", "http", "response", "v", "2"]
    assert name_words("git-diff.staged") == ["git", "diff", "staged"]


def test_effective_hints_apply_the_protocol_defaults():
    assert effective_hints(None) == Hints(read_only=False, destructive=True, idempotent=False, open_world=True)
    assert effective_hints({"readOnlyHint": True}) == Hints(read_only=True)
    assert effective_hints({"readOnlyHint": "true", "destructiveHint": False}) == Hints(destructive=False)
    assert effective_hints(["readOnlyHint"]) == Hints()
