"""What a tool's name and description say it does to the world, and what its
annotations claim. Used by the annotation rules (MCP410-MCP413). Live audits
decide what they may call with a broader lexicon of their own, which fails
closed (``mcplint.audit.call_gate``); this one is tuned against false findings.

The classifier reads the *name* first: it is split into words (snake, kebab,
dot and camelCase) and matched against a small lexicon of effect verbs, in verb
position only. Only when the name implies nothing does it read the
*description*, and then only its leading verb ("Deletes ...", "Permanently
erases ...", "Use this tool to send ..."), never a verb buried in a later
sentence.

Effects, strongest first:

- ``destroy``: deletes, overwrites or resets data (delete, remove, purge, drop,
  truncate, wipe, overwrite, replace, reset, kill, revoke, ...).
- ``pay``: moves money (pay, transfer, charge, refund, purchase, ...).
- ``execute``: runs code or commands, or deploys (execute/run + command, shell,
  script or code; eval, sudo, deploy).
- ``send``: sends or publishes something outside (send, post, publish, email,
  upload, push, notify, ...).
- ``write``: modifies state (write, update, edit, move, rename, commit, set,
  toggle, ...).

The first three are *destructive*. ``send`` and ``write`` only contradict
``readOnlyHint: true``: the spec defines ``destructiveHint: false`` as "performs
only additive updates", and a sent message or an uploaded file adds to the
world without destroying anything (its outward reach is ``openWorldHint``).
Creating and adding (create_directory, add_observations) are not effects here:
``add(a, b)`` and ``create_summary`` are common read-only tools.

Effect words count only as verbs of the name, never as nouns anywhere in it:
in verb position (the first word, or the second when the first is not a verb,
such as a namespace ``git_`` or ``slack_``), after a conjunction
(``update_or_delete_row``), or as the last word of a name with no leading verb
(``github_repo_delete``). So ``slack_post_message`` posts while ``get_post``,
``get_refund_status``, ``list_purchase_orders`` and ``get_deploy_status`` read.
Creating a refund, purchase or transfer (``stripe_create_refund``) moves money.
A destructive verb followed by a content-transform object
(``remove_duplicates``, ``truncate_text``, "Remove whitespace from ...") is a
pure function, not an effect, and a few compounds are not effects either
(``post_process``, ``charge_level``, ``refund_status``).
``run``/``execute``/``exec`` count only with a code object next to them
(``run_command``, ``shell_exec``), not ``run_tests`` or ``execute_query``.
Qualifiers make the rest hypothetical (``can_delete``, ``preview_delete``).

One exception to "the name first": SQL statements named in capitals as what the tool
executes ("Execute an INSERT, UPDATE, or DELETE query", sqlite's ``write_query``) are
effects of the description that a weaker name effect does not hide: DELETE, DROP and
TRUNCATE destroy, INSERT, UPDATE and ALTER write. Only the first clause counts, and a
negation or "read-only" in it cancels them; "Execute a SELECT query" reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from mcplint.regex_cache import regex

DESTRUCTIVE_EFFECTS = ("destroy", "pay", "execute")
EFFECTS = (*DESTRUCTIVE_EFFECTS, "write")

# word -> effect. Words that are verbs even in their base form ("Delete ...", never a noun):
_UNAMBIGUOUS = {
    **dict.fromkeys(
        "delete remove purge destroy overwrite wipe erase uninstall unlink rmdir shred obliterate".split(),
        "destroy",
    ),
    **dict.fromkeys("pay refund purchase withdraw".split(), "pay"),
    **dict.fromkeys("sudo deploy".split(), "execute"),
    **dict.fromkeys("send publish broadcast tweet".split(), "send"),
}
# Every effect verb (they count only in verb position):
_VERB_POSITION = {
    **_UNAMBIGUOUS,
    # replace: the old value is gone, no "additive update" (mobile-mcp's "Read or replace the device clipboard")
    **dict.fromkeys("drop truncate clear reset kill terminate revoke prune discard empty rm del replace".split(),
                    "destroy"),
    **dict.fromkeys("transfer charge buy sell trade swap donate".split(), "pay"),
    **dict.fromkeys("post email mail sms notify forward reply upload push".split(), "send"),
    **dict.fromkeys(
        "write save update edit modify insert rename move patch append upsert commit merge "
        # install adds software (grafana's install_plugin): destructiveHint false, "only additive
        # updates", is a fair claim for it; uninstall destroys
        "set change toggle enable disable restore mkdir store install".split(),
        "write",
    ),
}
# Run code only with one of these objects ("run_command", "Execute a shell command", "eval_js"),
# not "run_tests", "execute_query" or "ha_eval_template" (rendering a template reads state).
_EXEC_VERBS = frozenset("execute exec run spawn eval".split())
_EXEC_OBJECTS = frozenset(
    "command commands cmd shell script scripts code bash sh zsh powershell pwsh process program "
    "binary subprocess terminal python javascript js node ruby perl applescript osascript".split()
)
_SHELL_NAMES = frozenset("bash shell sh zsh terminal powershell pwsh cmd exec execute eval".split())
# Verbs with no side effect: they occupy the verb position, so a following noun is a noun.
_NEUTRAL = frozenset(
    "get list read search find fetch show describe query lookup look view open check count inspect "
    "retrieve browse download export compare diff validate verify preview explain summarize summarise "
    "analyze analyse calculate compute convert echo print watch monitor resolve parse render generate "
    "translate format estimate simulate test ping scan crawl scrape extract load sum add create "
    "make build plan draft map track trace measure detect identify lint review suggest recommend "
    "predict classify tag".split()
)
# A leading word that makes the rest hypothetical: can_delete, preview_delete, dry_run_send.
_QUALIFIERS = frozenset("can is has should check validate verify preview simulate estimate explain "
                        "describe plan dry mock fake draft undo".split())
# Objects of a pure content transform: remove_duplicates, truncate_text.
_PURE_OBJECTS = frozenset(
    "duplicate duplicates dupes whitespace whitespaces spaces blank blanks newline newlines text string "
    "strings accents accent diacritics punctuation emoji emojis formatting markup html markdown tags "
    "stopwords background noise outliers nulls prefix suffix".split()
)
# Compounds where an effect word is not the effect: post_process, charge_level, transfer_learning.
_NOT_AN_EFFECT = {
    "post": frozenset("process processing processor mortem".split()),
    "charge": frozenset("level status state".split()),
    "transfer": frozenset("learning status".split()),
    "drop": frozenset("down".split()),
    **dict.fromkeys("pay refund purchase withdraw deploy publish".split(),
                    frozenset("status state history progress details info".split())),
}
# Words after which the next word is a verb again: update_or_delete_row, fetch_and_delete.
_CONJUNCTIONS = frozenset("and or then".split())
# Creating a refund moves money: stripe_create_refund, create_transfer.
_CREATE_VERBS = frozenset("create make issue initiate start submit".split())
_WORD = regex(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_DESC_PREFIX = regex(
    r"^\s*(?:(?:this|the)\s+tool\s+(?:will\s+|can\s+|lets\s+you\s+|allows\s+you\s+to\s+)?|"
    r"tool\s+(?:that|to|for)\s+|use\s+(?:this\s+)?(?:tool\s+)?to\s+|allows?\s+(?:you\s+)?to\s+|"
    r"lets?\s+you\s+|used\s+to\s+|(?:it\s+)?will\s+)",
    re.I,
)
_DESC_WORD = regex(r"[A-Za-z][A-Za-z'-]*")
_FILLERS = frozenset("a an the all any one or and of arbitrary given single provided specified custom raw".split())
# After an ambiguous base-form word ("Email", "Post", "Update"), one of these shows
# it is an imperative verb ("Email the report") rather than a noun ("Email address").
_OBJECT_START = frozenset(
    "a an the this that these those it them one all any every each multiple some your my its their "
    "new existing specified given selected".split()
)


@dataclass(frozen=True, slots=True)
class Intent:
    """A side effect implied by a tool's name or description."""

    verb: str  # the lexicon word that matched, lower case ("delete")
    effect: str  # one of EFFECTS
    source: str  # "name" | "description"

    @property
    def destructive(self) -> bool:
        return self.effect in DESTRUCTIVE_EFFECTS


def tool_intent(name: Any, description: Any = None) -> Intent | None:
    """The strongest side effect implied by the name, else by the description's leading verb;
    SQL statements the description says the tool executes count over a weaker name effect."""
    found = _name_intent(name) if isinstance(name, str) else None
    if not isinstance(description, str):
        return found
    if found is None:
        found = _description_intent(description)
    sql = _sql_intent(description) if found is None or not found.destructive else None
    return sql if sql is not None and (found is None or _stronger(sql, found)) else found


def _stronger(one: Intent, other: Intent) -> bool:
    return EFFECTS.index(one.effect) < EFFECTS.index(other.effect)


def destructive_intent(name: Any, description: Any = None) -> str | None:
    """The verb that makes the tool destructive, irreversible or outward, or None."""
    found = tool_intent(name, description)
    return found.verb if found is not None and found.destructive else None


@dataclass(frozen=True, slots=True)
class Hints:
    """Tool annotations with the protocol's defaults filled in (valid values only)."""

    read_only: bool = False
    destructive: bool = True
    idempotent: bool = False
    open_world: bool = True


def effective_hints(annotations: Any) -> Hints:
    """What a client must assume: declared boolean hints, defaults for the rest."""
    if not isinstance(annotations, Mapping):
        return Hints()
    values = {}
    for key, field in (("readOnlyHint", "read_only"), ("destructiveHint", "destructive"),
                       ("idempotentHint", "idempotent"), ("openWorldHint", "open_world")):
        if isinstance(annotations.get(key), bool):
            values[field] = annotations[key]
    return Hints(**values)


def name_words(name: str) -> list[str]:
    """``deleteFile`` / ``delete-file`` / ``DELETE_FILE`` -> ["delete", "file"]."""
    return [w.lower() for w in _WORD.findall(name)]


def _name_intent(name: str) -> Intent | None:
    words = name_words(name)
    if not words or words[0] in _QUALIFIERS:
        return None
    if len(words) == 1 and words[0] in _SHELL_NAMES:
        return Intent(words[0], "execute", "name")
    if _KNOWN.isdisjoint(words):
        return None  # no effect word at all: most names
    verb_at = 0 if _is_verb(words[0]) else 1
    verbs = _verb_positions(words, verb_at)
    best: Intent | None = None
    for index, word in enumerate(words):
        if word in _EXEC_VERBS and _runs_code(words, index, verb_at):
            effect = "execute"
        elif index in verbs:
            effect = _VERB_POSITION.get(word)
        elif index - 1 in verbs and words[index - 1] in _CREATE_VERBS and _VERB_POSITION.get(word) == "pay":
            effect = "pay"
        else:
            effect = None
        if effect is None or _not_an_effect(word, effect, words[index + 1:index + 2]):
            continue
        if best is None or EFFECTS.index(effect) < EFFECTS.index(best.effect):
            best = Intent(word, effect, "name")
    return best


def _is_verb(word: str) -> bool:
    return word in _VERB_POSITION or word in _NEUTRAL or word in _EXEC_VERBS


def _verb_positions(words: list[str], verb_at: int) -> set[int]:
    """Where a word of the name is its verb: the verb position, after a conjunction, and
    the last word when nothing before it is a verb (github_repo_delete, soft_delete)."""
    positions = {verb_at} | {i + 1 for i, w in enumerate(words[:-1]) if w in _CONJUNCTIONS}
    last = len(words) - 1
    if last > verb_at and words[last] in _UNAMBIGUOUS and not any(_is_verb(w) for w in words[:last]):
        positions.add(last)
    return positions


def _not_an_effect(verb: str, effect: str, next_word: list[str]) -> bool:
    """remove_duplicates, truncate_text, post_process: the word is not an effect here."""
    if not next_word:
        return False
    return (effect == "destroy" and next_word[0] in _PURE_OBJECTS) or next_word[0] in _NOT_AN_EFFECT.get(verb, ())


def _runs_code(words: list[str], index: int, verb_at: int) -> bool:
    """run/execute with a code object: run_command, run_python_code, or, at the end,
    shell_exec; not get_process_run_history."""
    if index == verb_at and any(w in _EXEC_OBJECTS for w in words[index + 1:index + 3]):
        return True
    return index == len(words) - 1 and index > 0 and words[index - 1] in _EXEC_OBJECTS


@lru_cache(maxsize=4096)  # generated tool lists repeat descriptions
def _description_intent(description: str) -> Intent | None:
    prefix = _DESC_PREFIX.match(description)
    start = prefix.end() if prefix else 0
    opening = description[start:start + 120].lower()
    first = _DESC_WORD.search(opening)
    if first is None:
        return None
    word = first.group()
    listed = _listed_verbs(opening[first.start():])
    if len(listed) > 1:  # "Create, delete, or restore backups": the strongest of the verbs listed
        effects = [(verb, _VERB_POSITION[verb]) for verb in listed if verb in _VERB_POSITION]
        if effects:
            verb, effect = min(effects, key=lambda pair: EFFECTS.index(pair[1]))
            return Intent(verb, effect, "description")
    if not (word.endswith("ly") and len(word) > 4) and _base_form(word) not in _KNOWN:
        return None  # most descriptions: the leading word alone rules out every effect
    words = _DESC_WORD.findall(opening)
    while words and words[0].endswith("ly") and len(words[0]) > 4:  # "Permanently deletes"
        words.pop(0)
    if not words:
        return None
    verb = _base_form(words[0])
    following = [w for w in words[1:6] if w not in _FILLERS]
    if verb in _EXEC_VERBS:
        return Intent(verb, "execute", "description") if any(w in _EXEC_OBJECTS for w in following[:3]) else None
    effect = _VERB_POSITION.get(verb)
    if effect is None or _not_an_effect(verb, effect, following[:1]):
        return None
    if verb == words[0] and verb not in _UNAMBIGUOUS:  # ambiguous base form: needs an object
        after = words[1] if len(words) > 1 else ""
        if after not in _OBJECT_START and not (after.endswith("s") and not after.endswith("ss")):
            return None
    return Intent(verb, effect, "description")


# A description opening with a list of verbs: "Create, delete, or restore backups", "Delete and
# restart failed runs" (each verb in its base or third-person form).
_VERB_LIST = regex(r"([a-z]+)((?:\s*,\s*[a-z]+){0,4}),?\s+(?:and|or|and/or|&)\s+([a-z]+)\b")


def _listed_verbs(opening: str) -> list[str]:
    """The verbs of a list the description opens with ([] when it opens with no such list)."""
    match = _VERB_LIST.match(opening)
    if match is None:
        return []
    words = [match.group(1), *(w.strip() for w in match.group(2).split(",") if w.strip()), match.group(3)]
    from mcplint.lexicon import IMPERATIVE_VERBS  # only for a description opening with a list

    verbs = [_base_form(word) for word in words]
    return verbs if all(verb in _KNOWN or verb in IMPERATIVE_VERBS for verb in verbs) else []


_KNOWN = frozenset(_VERB_POSITION) | _EXEC_VERBS
NAME_INTENT_WORDS = _KNOWN | _SHELL_NAMES  # a name implies an effect only through one of these words

# SQL statements a tool says it executes: in capitals, as SQL is written ("an INSERT, UPDATE,
# or DELETE query"); lower-case "update" or "delete" after "run" is too often English.
_SQL_EFFECTS = {"DELETE": "destroy", "DROP": "destroy", "TRUNCATE": "destroy",
                "INSERT": "write", "UPDATE": "write", "ALTER": "write"}
_SQL_WORD = regex(r"\b(?:DELETE|DROP|TRUNCATE|INSERT|UPDATE|ALTER)\b")
_SQL_OPENING = regex(r"\s*(?:[A-Za-z]+ly\s+)?(?:execute|exec|run|perform|issue)s?\b", re.I)
_SQL_CLAUSE = regex(r"[^.;:!?\n]{0,160}")  # the first clause: later sentences are not what it does
_SQL_NEGATION = regex(r"\b(?:no|not|never|without|except|excluding|only|read-?only|rejected|refused|"
                           r"blocked|forbidden|disallowed|prohibited)\b|n't\b", re.I)


@lru_cache(maxsize=4096)
def _sql_intent(description: str) -> Intent | None:
    """"Execute an INSERT, UPDATE, or DELETE query": the strongest statement executed."""
    if not _SQL_WORD.search(description, 0, 400):
        return None  # almost every description
    prefix = _DESC_PREFIX.match(description)
    opening = _SQL_OPENING.match(description, prefix.end() if prefix else 0)
    if opening is None:
        return None
    clause = _SQL_CLAUSE.match(description, opening.end()).group()
    if _SQL_NEGATION.search(clause):
        return None
    words = _SQL_WORD.findall(clause)
    if not words:
        return None
    word = min(words, key=lambda w: EFFECTS.index(_SQL_EFFECTS[w]))
    return Intent(word.lower(), _SQL_EFFECTS[word], "description")


def _base_form(word: str) -> str:
    """deletes -> delete, pushes -> push, copies -> copy (only forms the lexicon needs)."""
    known = _KNOWN
    if word in known:
        return word
    for suffix, replacement in (("ies", "y"), ("es", ""), ("s", "")):
        if word.endswith(suffix) and word[: -len(suffix)] + replacement in known:
            return word[: -len(suffix)] + replacement
    return word
