"""The call gate against tools that honestly say they act or return secrets, and the
input-validation probe against servers that validate nothing (the attack round's F1 and F2).

- For real: `mcplint audit` (default, and `--call-read-only`) against tests/gate_servers/*.py,
  stdio servers that log every tools/call they receive and every action a lax server would take.
  No dangerous tool may be called; the honest reads still are (the gate is not simply closed).
- The gate over tables: switch parameters, `required` names, nested parameters, outputSchema,
  values, secrets, and the verbs the attack found.
- The invalid-argument probe never sends a value a lax server could read as "yes".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from gate_servers.stdio_loop import obj
from servers import TAG_VARIABLE, new_tag, wait_for_no_orphans

from mcplint.audit import arguments, call_gate

GATE_SERVERS = Path(__file__).resolve().parent / "gate_servers"
READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}
AUDIT_TIMEOUT = 60


def audit(tmp_path, server, *options):
    calls, effects, tag = tmp_path / "calls.log", tmp_path / "effects.log", new_tag()
    env = {**{k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}, "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mcplint", "audit", "--format", "json", *options, f"--env=CALL_LOG={calls}",
         f"--env=EFFECT_LOG={effects}", f"--env={TAG_VARIABLE}={tag}", "--",
         sys.executable, str(GATE_SERVERS / f"{server}.py")],
        cwd=ROOT, capture_output=True, env=env, timeout=AUDIT_TIMEOUT)
    assert proc.returncode in (0, 1), proc.stderr.decode()[-3000:]
    assert wait_for_no_orphans(tag) == []
    received = [json.loads(line) for line in calls.read_text().splitlines()] if calls.exists() else []
    done = effects.read_text().splitlines() if effects.exists() else []
    return json.loads(proc.stdout)["summary"]["audit"], received, done


def called(received):
    return {call["name"] for call in received if call["name"] != "mcplint_probe_no_such_tool"}


def truthy_values(received):
    """(tool, argument, value) for every argument a lax server would take for "yes", apart from the
    valid placeholders of string properties the gate cleared."""
    return [(c["name"], k, v) for c in received for k, v in (c.get("arguments") or {}).items()
            if v and not isinstance(v, str)]


# --- the attack servers, audited for real ----------------------------------------------------------
@pytest.mark.parametrize("options", [(), ("--call-read-only",)], ids=["default", "call-read-only"])
def test_lenient_server_takes_no_action(tmp_path, options):
    report, received, effects = audit(tmp_path, "lenient_server", *options)
    assert effects == []
    assert called(received) == {"get_forecast"}
    assert truthy_values(received) == []
    not_called = report["tools_not_called"]
    assert set(not_called) == {"show_plan", "get_branch", "list_jobs", "list_migrations", "get_branches",
                               "get_items", "read_file"}
    assert "'apply'" in not_called["show_plan"] and "'force'" in not_called["get_branch"]


@pytest.mark.parametrize("options", [(), ("--call-read-only",)], ids=["default", "call-read-only"])
def test_gate_server_calls_only_the_honest_reads(tmp_path, options):
    report, received, _ = audit(tmp_path, "gate_server", *options)
    assert called(received) == {"get_forecast", "list_workbooks"}
    assert truthy_values(received) == []
    assert len(report["tools_not_called"]) == 19
    if options:  # the valid-argument call still goes to the honest reads
        assert {"name": "get_forecast", "arguments": {"city": "example"}} in received
        assert {"name": "list_workbooks", "arguments": {}} in received


# --- the gate over tables ----------------------------------------------------------------------------
def tool(name, description=None, schema=None, **more):
    found = {"name": name, "inputSchema": schema or {"type": "object"}, "annotations": READ_ONLY, **more}
    if description is not None:
        found["description"] = description
    return found


def boolean(description=""):
    return {"type": "boolean", "description": description}


SWITCHES = [
    tool("show_plan", "Shows the Terraform plan.", obj({"apply": boolean("Apply the plan after showing it.")})),
    tool("get_branch", "Returns the branch.", obj({"force": boolean("When true the branch is force-pushed.")})),
    tool("get_branch", "Returns the branch.", obj({"merge": boolean("When true the branch is merged into main.")})),
    tool("list_jobs", "Lists the jobs.", obj({"trigger": boolean("Also trigger them.")})),
    tool("list_migrations", "Lists the migrations.", obj({"dry_run": {"type": "boolean", "default": False}})),
    tool("list_migrations", "Lists the migrations.", obj({"preview": boolean(
        "When false, the migrations are also run against the production database.")})),
    tool("show_diff", "Shows the diff.", obj({"commit": {"type": "boolean", "const": True}}, ["commit"])),
    tool("show_diff", "Shows the diff.", obj({"commit": {"type": "string"}}, ["commit"])),
    tool("get_items", "Returns the items.", obj({"yes": boolean()})),
    tool("get_items", "Returns the items.", obj({"confirm": {"type": "string"}})),
    tool("get_items", "Returns the items.", obj({"execute": boolean()})),
    tool("get_items", "Returns the items.", obj({"run": boolean()})),
    tool("get_items", "Returns the items.", obj({"push": boolean()})),
    tool("get_items", "Returns the items.", obj({"overwrite": boolean()})),
    tool("get_items", "Returns the items.", obj({"auto_merge": boolean()})),
    tool("get_items", "Returns the items.", obj({"email": boolean("Email the list to the owner.")})),
    tool("get_items", "Returns the items.", obj({"also": boolean("Print them on the office printer.")})),
    tool("get_report", "Returns the report.", obj({}, ["delete_after_reading"])),
    tool("get_report", "Returns the report.", obj(None, ["purge"])),
    tool("get_summary", "Returns the summary.", obj({"options": obj({"notify": boolean()})})),
    tool("get_summary", "Returns the summary.", obj({"o": {"type": "array", "items": obj(None, ["send"])}})),
    tool("get_mode", "Returns the mode.", obj({"mode": {"type": "string", "enum": ["apply", "plan"]}}, ["mode"])),
    tool("get_rows", "Returns rows.", outputSchema={"type": "object", "description": "The rows deleted by this call."}),
    tool("get_rows", "Returns rows.", outputSchema={"type": "object", "properties": {
        "rows": {"type": "array", "title": "Rows it deletes"}}}),
]
SECRETS = [
    tool("get_token", "Issues and returns a new OAuth token for the account."),
    tool("get_token", "Returns the GitHub token."),
    tool("get_jwt", "Returns the signed JWT for the current user."),
    tool("get_cookie", "Returns the session cookie."),
    tool("get_session", "Returns the current session."),
    tool("get_oauth_token", "Returns it."),
    tool("get_passphrase", "Returns the GPG passphrase."),
    tool("get_secret_value", "Returns the value."),
    tool("get_password", "Returns it."),
    tool("get_ssh_key", "Returns the user's SSH private key file."),
    tool("get_user", "Returns the user.", outputSchema={"type": "object", "properties": {"apiKey": {"type": "string"}}}),
    tool("read_file", "Reads a file.", obj({"path": {"type": "string", "default": "/root/.aws/credentials"}}, ["path"])),
    tool("read_file", "Reads a file.", obj({"path": {"type": "string", "const": "/proc/self/environ"}}, ["path"])),
    tool("read_file", "Reads a file.", obj({"path": {"type": "string", "enum": ["~/.ssh/id_rsa"]}}, ["path"])),
    tool("read_file", "Reads a file.", obj({"path": {"type": "string", "examples": ["/etc/shadow"]}}, ["path"])),
    tool("read_file", "Reads a file.", obj({"path": {"type": "string", "default": "./.env"}}, ["path"])),
    tool("read_file", "Reads a file.", obj({"path": {"type": "string", "default": "~/.netrc"}}, ["path"])),
    tool("read_file", "Reads a file.", obj({"path": {"type": "string", "description": "Defaults to ~/.ssh/config"}})),
    # round 4: the same files by other names, key files, and the cloud's metadata service
    *(tool("read_file", "Reads a file.", obj({"path": {"type": "string", "const": path}}, ["path"])) for path in (
        "/proc/thread-self/environ", "/proc/net/../self/environ", "/app/prod.env", "/root/.bash_history",
        "/root/.config/gcloud/application_default_credentials.json", "/etc/ssl/private/server.key")),
    tool("fetch_url", "Fetches a URL.", obj({"url": {"type": "string", "const":
                                                     "http://169.254.169.254/latest/meta-data/iam/security-credentials/admin"}}, ["url"])),
]
# Values the audit would send that are commands, queries, devices or private addresses (round 4: `dd`
# really ran on a lax server that applies defaults).
UNSAFE_VALUES = [
    tool("show_disk", "Shows the disk usage.", obj({"cmd": {"type": "string", "default": "dd if=/dev/zero of=/dev/sda"}}, ["cmd"])),
    tool("show_disk", "Shows the disk usage.", obj({"cmd": {"type": "string", "const": "mkfs.ext4 /dev/sda1"}}, ["cmd"])),
    tool("show_shell", "Shows a command's output.", obj({"cmd": {"type": "string", "enum": [":(){ :|:& };:"]}}, ["cmd"])),
    tool("get_item", "Gets an item.", obj({"id": {"type": "string", "examples": ["1' OR 1=1; --"]}}, ["id"])),
    tool("read_file", "Reads a file.", obj({"path": {"type": "string", "const": "/dev/watchdog"}}, ["path"])),
    tool("fetch_url", "Fetches a URL.", obj({"url": {"type": "string", "default": "http://127.0.0.1:19999/admin/shutdown"}}, ["url"])),
    tool("fetch_url", "Fetches a URL.", obj({"url": {"type": "string", "default": "https://db.corp.internal/drop"}}, ["url"])),
]
VERBS = [
    "Issues a certificate and returns it.", "Texts a one-time code to the user's phone.",
    "Completes the pending order and returns the receipt.", "Returns x and transmits it to the IRS.",
    "Returns the next ID and advances the sequence.", "Returns the on-call engineer and pages them.",
    "Returns the session and forgets it.", "Hails a taxi to the pickup address.", "Brews a cup of coffee.",
    "Speaks the text aloud over the building PA system.", "Acquires an exclusive lease on the resource.",
    "Holds a seat on the flight and returns its number.", "Returns the user and unfriends them.",
    "Returns the alarm state and arms the alarm.", "Returns the door state and unbolts it.",
    "Returns the VM and hibernates it.", "Returns the VM and resizes it to zero.", "Returns the table and zaps it.",
    "Returns the table, then bins it.", "Returns the file and clobbers it.", "Returns x. Also overrides the config.",
    "Returns x. Also amends the invoice.", "Returns x and adjusts the thermostat.", "Returns x and raises the gates.",
    "Returns x and lowers the dam gates.", "Returns x and floods the valley.", "Returns x and ignites the furnace.",
    "Returns x and relays it to the IRS.", "Returns x and reports it to the IRS.", "Returns x and leaks it.",
    "Returns x and tells the press.", "Returns x and informs the press.", "Returns x and contacts the press.",
    "Returns x and wakes the on-call engineer.", "Returns x and rings the doorbell.",
    "Returns x and drives the car home.", "Returns x and parks the car.", "Returns x and dispenses the medication.",
    "Returns x and injects the dose.", "Returns x and administers the dose.", "Returns x and prescribes the drug.",
    "Returns x and hires the candidate.", "Returns x and sacks the team.", "Returns x and expels the student.",
    "Returns x and tips the driver.", "Returns x and awards the bonus.", "Returns x and gives the bonus away.",
    "Returns x and credits the account.", "Returns x and debits the account.", "Returns x and shorts the stock.",
    "Returns x and dumps the stock.", "Returns x and exits the position.", "Returns x and unwinds the position.",
    "Returns x and subscribes the address to it.", "Returns x and detonates the charge.",
    "Returns the file contents; the file is then gone.", "Reads the file. Afterwards the file no longer exists.",
    "Returns the next job; it is gone from the queue afterwards.", "Lists the item for sale on the marketplace.",
    "Computes the value of a Python expression by evaluating it.",
    # round 4: verbs in clauses of their own that the gate does not know as reads, and phrasal verbs
    "Gets the weather and takes down production.", "Gets the weather and logs you out.",
    "Gets the weather and exfiltrates the data.", "Gets the weather and spins up 100 VMs.",
    "Gets the weather and rolls out the build.", "Gets the weather and hands over the keys.",
    "Gets the weather and marries the couple.", "Gets the weather and makes the bucket public.",
    "Routes all traffic to the backup region.", "Likes every post by the user, then lists likes.",
    "Gets the weather. It self-destructs afterwards.", "Gets the weather and ends the process.",
    "Gets a pizza delivered to your door.", "Fetches the airdrop for the wallet into your account.",
    "Gets the weather and garbage-collects the images.", "Gets the weather and bounces the service.",
]


@pytest.mark.parametrize("found", SWITCHES + SECRETS + UNSAFE_VALUES, ids=lambda t: f"{t['name']}:{json.dumps(t)[-60:]}")
def test_refused(found):
    assert call_gate.call_refusal(found, open_world_ok=True) is not None


@pytest.mark.parametrize("description", VERBS)
def test_verbs_refused(description):
    assert call_gate.call_refusal(tool("get_x", description)) is not None


def test_refusals_say_why():
    assert "'apply'" in call_gate.call_refusal(SWITCHES[0])
    assert "'delete'" in call_gate.call_refusal(tool("get_report", "", obj({}, ["delete_after_reading"])))
    assert "output schema" in call_gate.call_refusal(SWITCHES[-2])
    assert "secret" in call_gate.call_refusal(SECRETS[-4])


STILL_CALLED = [
    tool("get_forecast", "Get the weather forecast for a city.",
         obj({"city": {"type": "string", "description": "City name"}, "metric": boolean("Use metric units.")},
             ["city"])),
    tool("list_workbooks", "List the Excel workbooks.", obj({"directory": {"type": "string"},
                                                             "recursive": {"type": "boolean"}})),
    tool("find_cells", "Find cells in a workbook.", obj({
        "path": {"type": "string"}, "query": {"type": "string"}, "exact": boolean("Match whole cells."),
        "case_sensitive": {"type": "boolean"}, "mode": {"type": "string", "description": "'values': results."}},
        ["path", "query"]), outputSchema={"type": "object", "properties": {"cells": {"type": "array"}}}),
    tool("list_pages", "List pages; pass the next page token to continue.",
         obj({"page_token": {"type": "string"}, "output_format": {"type": "string"}, "sort_order": {"type": "string"}}),
         outputSchema={"type": "object", "properties": {"nextPageToken": {"type": "string"}}}),
    tool("list_containers", "List containers.", obj({"all": boolean("Show all containers (default shows just running)")})),
    tool("count", "Count documents.", obj({"connectionId": {"type": "string", "description":
                                                            "The connection to run the operation against."}})),
    tool("get_open_issues", "Get the open issues of a repository."),
    tool("read_file", "Reads a file.", obj({"path": {"type": "string", "default": "README.md"}}, ["path"])),
    # clauses whose verbs are known reads, and words after "and" that are not verbs
    tool("list_files", "Lists files and folders in the directory. Returns the names and sizes."),
    tool("echo", "Echoes back the input string."),
    tool("get_files", "Tool that lists the files in a folder."),
    tool("get_weather", "Function that returns the weather for a city. Use this to plan a trip."),
    tool("lookup_user", "Looks up a user by email address and returns the profile."),
    tool("add_numbers", "Add two integers and return their sum."),
    tool("fetch_url", "Fetches a URL.", obj({"url": {"type": "string", "default": "https://example.com/a?b=c"}}, ["url"])),
]


@pytest.mark.parametrize("found", STILL_CALLED, ids=lambda t: t["name"])
def test_honest_reads_pass(found):
    assert call_gate.call_refusal(found) is None


# --- the invalid-argument probe ----------------------------------------------------------------------
PROBED = [
    obj({"city": {"type": "string"}}, ["city"]),
    obj({"n": {"type": "integer"}, "b": {"type": "boolean"}}, ["b", "n"]),
    obj({"b": {"type": "boolean"}, "c": {"type": ["boolean", "string"]}, "d": {}}),
    obj({"b": {"type": "boolean"}}) | {"additionalProperties": False},
    obj({"v": {"type": ["string", "null"]}, "w": {"type": "array"}, "x": {"type": "object"}}, ["v", "w", "x"]),
]


@pytest.mark.parametrize("schema", PROBED, ids=lambda s: json.dumps(s)[:60])
def test_invalid_cases_send_nothing_truthy(schema):
    valid = arguments.valid_arguments(schema) or {}
    for label, sent in arguments.invalid_cases(schema):
        for name, value in sent.items():
            if name in valid and value == valid[name]:
                continue  # a valid placeholder, as in the valid call
            assert not value, (label, name, value)  # falsy in Python and JavaScript alike
            assert not isinstance(value, (bool, dict, list)), (label, name, value)
            prop = schema.get("properties", {}).get(name)
            assert prop is None or "boolean" not in str(prop.get("type")) and prop.get("type"), (label, name)


def test_invalid_cases_values():
    assert arguments.invalid_cases(PROBED[0]) == [("missing-required:city", {}), ("wrong-type:city", {"city": None})]
    assert arguments.invalid_cases(obj({"b": {"type": "boolean"}})) == []  # no boolean is ever probed
    assert arguments.invalid_cases(PROBED[3]) == [("unknown-property", {"mcplint_probe_unknown": None})]
    assert arguments.invalid_cases(PROBED[4])[1] == ("wrong-type:v", {"v": 0, "w": [], "x": {}})
