"""Whether a live audit may call a tool: only when everything about it says it only reads.

The gate fails closed. A tool is called (without ``--allow-calls``) only when all of these hold,
and the first that does not is the reason it is not:

1. Its annotations claim ``readOnlyHint: true`` and ``openWorldHint: false``. With
   ``--call-read-only`` (the user's consent to reach outside systems through read-only tools),
   the valid-argument call may go to a read-only tool whose ``openWorldHint`` is true or absent
   (``open_world_ok``); every other check below still applies. Annotations that contradict
   each other (``destructiveHint: true`` beside ``readOnlyHint: true``) cannot be vetted.
2. Its name is plain (``A-Z a-z 0-9 _ - .``) and starts with a read verb (``get``, ``list``,
   ``search``, ...; ``add`` only for numbers). After ``and``/``or``/``then`` the next part must be
   a read verb too. No part is an effect word (``wipe``, ``pay``, ``deleteUser``), however it is
   inflected, prefixed (``reformat``, ``unset``) or run together (``forcedelete``,
   ``getFileWIPEall``). Verbs outside the list (``check``, ``validate``,
   ``test``, ``query``, a namespace such as ``github_``) are unknown, so ambiguous. ``get`` with an
   object and then a word of state (``get_door_open``, ``get_order_shipped``) may mean "make it so".
3. Its description and titles, every sentence of them, contain no effect word, no red flag
   ("permanently", "side effect"), and no ambiguous word (post, email, update, order, ...) except
   as a noun: after an article, a preposition or a read verb ("Lists the messages"). Where a clause
   starts (a sentence, or after "and", "then", "it") and an object follows, its verb must be a known
   read or harmless verb ("Returns", "Supports"): "and takes down production", "Routes all traffic",
   "and logs you out" are verbs the gate does not know, so it fails closed.
   Words in other scripts, and invisible characters, cannot be vetted: not called.
4. Its input schema (``mcplint.audit.gate_schema``): no parameter, at any depth and also when only
   named in ``required``, is an action switch (``apply``, ``force``, ``dry_run``, ``confirm``) or
   names an effect; a boolean or untyped parameter has no ambiguous verb in its name or
   description; the values the audit could send hold no effect or ambiguous verb, and no shell or
   SQL metacharacters, device or kernel file, or URL of a private, loopback or metadata host; no
   other description or title holds an effect word or a red flag.
5. Its outputSchema's descriptions and titles hold no effect word ("the rows it deletes").
6. Its name, titles, description and outputSchema do not say it returns secrets or the server's
   environment (tokens, passwords, cookies, sessions, keys, "environment variables"), and no
   text or value of it points at a file that holds them (``~/.ssh/id_rsa``, anything under ``/proc/``,
   ``prod.env``, key files, shell histories, the cloud metadata service): its answer would be written into the recording, and a read is not harmless when what
   it reads is a credential.

Annotations are untrusted hints, and so are names and descriptions: the gate cannot stop a server
that lies, only one that says what it does. Its lexicon (``effect_lexicon``) is separate from the
one the annotation rules judge by (``mcplint.risk``), so widening it changes no finding.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterator, Mapping

from mcplint.audit.effect_lexicon import (AMBIGUOUS_WORDS, ARITHMETIC_OBJECTS, ARITHMETIC_VERB, DETERMINERS,
                                          EFFECT_WORDS, EMBEDDED_STEMS, HARMLESS_PHRASAL, HARMLESS_VERBS,
                                          NOUN_MODIFIERS, NUMBER_WORDS, OBJECT_STARTS, PARTICLES, PREPOSITIONS,
                                          READ_FORMS, READ_VERBS, RED_FLAG_PAIRS, RED_FLAGS, STATE_COMPLEMENTS,
                                          UNSAFE_VALUES, VERB_PREFIXES)
from mcplint.regex_cache import regex
from mcplint.risk import effective_hints

_PLAIN_NAME = regex(r"[A-Za-z0-9_.-]{1,128}")
_NAME_PART = regex(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
# Words (with a possessive or contraction), numbers, and punctuation that ends a clause.
_TOKEN = regex(r"[^\W\d_]+(?:'[^\W\d_]+)?|\d+|[.,;:!?()\[\]{}\"]", re.UNICODE)
_CONJUNCTIONS = frozenset("and or then also plus after before".split())
# A read verb is a verb (so the word after it is its object) only where a verb can stand:
# "Lists posts", "It returns orders", "and lists updates"; not "the list updates".
_BEFORE_A_VERB = _CONJUNCTIONS | frozenset("to it tool that which will can".split())
# "it's" is "it is", not a possessive.
_IS_CONTRACTIONS = frozenset("it that what there here he she who where this which let".split())
# A pronoun between a verb and its particle: "powers it off", "zeroes them out".
_OBJECTS = frozenset("it them this that everything all".split())


def call_refusal(tool: Any, open_world_ok: bool = False) -> str | None:
    """Why a live audit must not call ``tool``, or None when everything says it only reads.
    ``open_world_ok``: a read-only tool may reach outside systems (the user passed --call-read-only)."""
    if not isinstance(tool, Mapping):
        return "not a tool object"
    hints = effective_hints(tool.get("annotations"))
    if not hints.read_only:
        return "it does not claim readOnlyHint: true"
    annotations = tool.get("annotations")
    if isinstance(annotations, Mapping) and annotations.get("destructiveHint") is True:
        return "its annotations contradict each other (readOnlyHint and destructiveHint both true), so it cannot be vetted"
    if hints.open_world and not open_world_ok:
        return "it may reach outside systems (openWorldHint is not false)"
    return (name_refusal(tool.get("name")) or gate_schema.secret_refusal(tool) or texts_refusal(tool)
            or gate_schema.input_refusal(tool.get("inputSchema")) or gate_schema.output_refusal(tool.get("outputSchema")))


def name_refusal(name: Any) -> str | None:
    if not isinstance(name, str) or not _PLAIN_NAME.fullmatch(name):
        return "its name has characters other than A-Z, a-z, 0-9, '_', '-' and '.', so it cannot be vetted"
    parts = [part.lower() for part in _NAME_PART.findall(name)]
    for index, part in enumerate(parts):
        found = effect_word(part)
        if found and not _arithmetic(part, parts[index + 1:]):
            return f"name part {part!r} implies a side effect{_base_note(part, found)}"
    for segment in re.split(r"[_.-]+", name):  # "getFileWIPEall": the camelCase split cuts the word
        found = effect_word(segment.lower()) if len(_NAME_PART.findall(segment)) > 1 else None
        if found:
            return f"name part {segment!r} implies a side effect ({found})"
    for index, part in enumerate(parts):
        if index == 0 or parts[index - 1] in _CONJUNCTIONS:
            if part in AMBIGUOUS_WORDS:
                return f"name part {part!r} is a verb there that may have a side effect"
            if not _read_verb(part, parts[index + 1:]):
                return (f"name part {part!r} is not a known read verb (get, list, read, search, find, fetch, "
                        f"describe, show, ...), so what the tool does is unknown")
            if part == "get" and _causative(parts[index + 1:]):
                return f"name reads as 'get it {parts[-1]}' (making it {parts[-1]}), not as a read"
    return None


def _causative(rest: list[str]) -> bool:
    """``get`` + an object + a word of state ("get_door_open"): get there makes it so."""
    if len(rest) < 2 or any(part in _CONJUNCTIONS for part in rest):
        return False
    last = rest[-1]
    return last in STATE_COMPLEMENTS or (last in AMBIGUOUS_WORDS and last != AMBIGUOUS_WORDS[last]
                                          and last.endswith(("ed", "en", "t")))


def texts_refusal(tool: Mapping) -> str | None:
    """The description and the titles, every word of them."""
    annotations = tool.get("annotations")
    texts = [("description", tool.get("description")), ("title", tool.get("title")),
             ("title", annotations.get("title") if isinstance(annotations, Mapping) else None)]
    for field, text in texts:
        if text is None:
            continue
        if not isinstance(text, str):
            return f"its {field} is not text, so it cannot be vetted"
        said = text_refusal(text, ambiguous=True, clauses=True)
        if said:
            return f"{field} {said}"
    return None


def text_refusal(text: str, ambiguous: bool, clauses: bool = False) -> str | None:
    """What in free text implies an effect: 'says ...', or why the text cannot be vetted.
    ``clauses``: prose that says what the tool does, so each clause's verb must be a known read."""
    if any(unicodedata.category(ch) in ("Cf", "Co", "Cs") or (unicodedata.category(ch) == "Cc" and ch not in "\t\n\r")
           for ch in text):
        return "has invisible or control characters, so it cannot be vetted"
    words = _words(text)
    for index, word in enumerate(words):
        if word in _PUNCTUATION:
            continue
        if not word.isascii():
            return f"has a word with letters outside A-Z ({word!r}), so it cannot be vetted"
        following = words[index + 1] if index + 1 < len(words) else ""
        after_object = words[index + 2] if following in _OBJECTS and index + 2 < len(words) else ""
        if word in RED_FLAGS or (word, following) in RED_FLAG_PAIRS or (word, after_object) in RED_FLAG_PAIRS:
            return f"says {_phrase(words, index)!r}"
        found = effect_word(word)
        if found and not _arithmetic(word, words[index + 1:]):
            return f"says {_phrase(words, index)!r}"
        if ambiguous and word in AMBIGUOUS_WORDS and not _noun_context(words, index) and not _harmless(words, index):
            return f"says {_phrase(words, index)!r} (a verb there, or ambiguous)"
    for whole in _joined_words(text):  # "DELETEs", "WIPEall": the camelCase split cuts the word
        if effect_word(whole):
            return f"says {whole!r}"
    return _clause_refusal(words) if clauses else None


# Where a clause starts, so that its first word may be its verb: after these words ("... and takes
# down production", "It ends the process", "which routes ...") and after punctuation.
_CLAUSE_OPENERS = frozenset("and then also plus it which".split())
_UNSAFE_VALUE = regex("|".join(UNSAFE_VALUES))


def _clause_refusal(words: list[str]) -> str | None:
    """A verb the gate does not know as a read, where a clause starts and an object follows it
    ("Routes all traffic", "and logs you out", "and spins up 100 VMs"), or ``get`` + an object + a
    participle ("Gets a pizza delivered"): what it does is unknown, so the tool is not called."""
    for index, word in enumerate(words[:-1]):
        before = words[index - 1] if index else "."
        if not (before in _PUNCTUATION or before in _CLAUSE_OPENERS or (before in ("tool", "server", "function")
                and index > 1 and words[index - 2] in ("this", "the"))):
            continue
        following = words[index + 1]
        if following not in OBJECT_STARTS and following not in PARTICLES and not following.isdigit():
            continue  # no object: "Find cells whose ...", "Results are paged", "and folders in it"
        base = _verb_base(word)
        if following in PARTICLES:
            if (base, following) not in HARMLESS_PHRASAL:
                return f"says {word + ' ' + following!r}, which may act"
        elif not (base in READ_VERBS or word in READ_FORMS or base in HARMLESS_VERBS or word in _NOT_VERBS
                  or _arithmetic(base, words[index + 1:])):
            return f"says {word + ' ' + following!r}: a verb it does not know as a read"
        if base == "get" and _participle_after_object(words, index + 1):
            return f"says {' '.join(words[index:index + 4])!r} (getting it done, not reading it)"
    return None


# Words that open a clause and take an object without being verbs there.
_NOT_VERBS = frozenset("for with from in on of to by at as if when where whether while all each every both "
                       "only just not also either neither optionally or and but so than nor plus e g i "
                       "eg ie etc tool tools function endpoint helper utility api method service server "
                       "resource wrapper".split()) | DETERMINERS  # "Tool that lists ...": a noun


def _verb_base(word: str) -> str:
    """'routes' -> 'route', 'tidies' -> 'tidy', 'echoes' -> 'echo', 'takes' -> 'take'."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    for suffix in ("ches", "shes", "sses", "xes", "zes", "oes"):
        if word.endswith(suffix):
            return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def _participle_after_object(words: list[str], at: int) -> bool:
    """"a pizza delivered", "the car washed": a determiner, a noun, then an -ed or -en form."""
    if at + 2 >= len(words) or words[at] not in DETERMINERS:
        return False
    last = words[at + 2]
    return len(last) > 4 and last.endswith(("ed", "en")) and last not in READ_FORMS


def value_refusal(text: str) -> str | None:
    """Why a value the audit would send is unsafe to send (``UNSAFE_VALUES``), or None."""
    found = _UNSAFE_VALUE.search(text)
    if found is None:
        return None
    shown = text if len(text) <= 60 else text[:57] + "..."
    return f"holds {shown!r}: a command, a query, a device or a private address ({found.group(0)!r})"


def effect_word(word: str) -> str | None:
    """The effect a single lower-case word names, directly, after a verb prefix ("reformats",
    "unsets": an ambiguous verb counts there), or run together with others."""
    if word in EFFECT_WORDS:
        return EFFECT_WORDS[word]
    if word in AMBIGUOUS_WORDS or word in READ_VERBS or word in READ_FORMS:
        return None
    if word[:2] in VERB_PREFIXES and len(word) > 4:
        rest = word[2:]
        base = EFFECT_WORDS.get(rest) or AMBIGUOUS_WORDS.get(rest)
        if base is not None:
            return word[:2] + base
    return next((stem for stem in EMBEDDED_STEMS if stem in word), None)


def words_of(text: str) -> list[str]:
    """The lower-case words of a text or a name (camelCase and snake_case split), no punctuation."""
    return [word for word in _words(text) if word not in _PUNCTUATION]


# -- helpers ------------------------------------------------------------------------------------
_PUNCTUATION = frozenset(".,;:!?()[]{}\"")
# "(default shows just running)": a word of state after such an adverb describes, it does not act.
_STATE_ADVERBS = frozenset("just only currently still already".split())


def _harmless(words: list[str], index: int) -> bool:
    """"Set to true to ...": the argument, not the tool, is set. "just running": a state."""
    word, before = words[index], words[index - 1] if index else ""
    following = words[index + 1] if index + 1 < len(words) else ""
    return (word in ("set", "sets") and following == "to") or (word in STATE_COMPLEMENTS and before in _STATE_ADVERBS)


def _read_verb(part: str, rest: list[str]) -> bool:
    if part == ARITHMETIC_VERB:
        return _arithmetic(part, rest)
    return part in READ_VERBS


def _arithmetic(word: str, rest: list[str]) -> bool:
    """add_numbers, "Add two integers": arithmetic, not adding a record."""
    if EFFECT_WORDS.get(word) != ARITHMETIC_VERB:
        return False
    following = [w for w in rest[:4] if w not in NUMBER_WORDS and not w.isdigit()]
    return bool(following) and following[0] in ARITHMETIC_OBJECTS


def _words(text: str) -> list[str]:
    """Lower-case words, camelCase and snake_case split, punctuation kept as clause breaks."""
    text = unicodedata.normalize("NFKC", text.replace("\u2019", "'"))  # fullwidth and styled letters -> ASCII
    words: list[str] = []
    for token in _TOKEN.findall(text):
        if token[0].isalpha():
            stem = token.split("'")[0]
            parts = _NAME_PART.findall(stem) if stem.isascii() else [stem]
            words += [p.lower() for p in parts] or [stem.lower()]
            if token.lower().endswith("'s"):
                words.append("is" if stem.lower() in _IS_CONTRACTIONS else "'s")  # a possessive: a noun follows
        else:
            words.append(token)
    return words


def _joined_words(text: str) -> Iterator[str]:
    """Each word the camelCase split would cut into parts, whole and lower-cased."""
    for token in _TOKEN.findall(unicodedata.normalize("NFKC", text)):
        if token[0].isalpha() and token.isascii() and len(_NAME_PART.findall(token)) > 1:
            yield token.split("'")[0].lower()


def _noun_context(words: list[str], index: int) -> bool:
    """The word right before makes it a noun: "the post", "Lists messages", "by email"; a gerund or
    participle only after a determiner ("the updated rows", never "by updating", "gets updated")."""
    if index == 0:
        return False
    before, word = words[index - 1], words[index]
    if before in DETERMINERS or before.isdigit():
        return True
    base = AMBIGUOUS_WORDS[word]
    noun_form = word in (base, base + "s", base + "es", base[:-1] + "ies")
    if not noun_form:
        return False
    if before in READ_FORMS:
        return index < 2 or words[index - 2] in _PUNCTUATION or words[index - 2] in _BEFORE_A_VERB
    return before in PREPOSITIONS or before in NOUN_MODIFIERS


def _phrase(words: list[str], index: int) -> str:
    """The word, with the adverb before it or the word after a red flag: 'permanently remove'."""
    start, end = index, index + 1
    if index and words[index - 1].endswith("ly") and len(words[index - 1]) > 4:
        start -= 1
    elif words[index] in RED_FLAGS | {"side"} and index + 1 < len(words) and words[index + 1] not in _PUNCTUATION:
        end += 1
    return " ".join(words[start:end])


def _base_note(part: str, base: str) -> str:
    return "" if part == base else f" ({base})"


def strings_in(value: Any) -> Iterator[str]:
    """The strings of a JSON value, keys too, depth first ({"action": "delete everything"})."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            yield node
        elif isinstance(node, Mapping):
            for key, item in node.items():
                yield str(key)
                stack.append(item)
        elif isinstance(node, list):
            stack.extend(node)


from mcplint.audit import gate_schema  # noqa: E402  (it reads texts with the functions above)
