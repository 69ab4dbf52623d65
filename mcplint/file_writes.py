"""Where a tool writes (MCP414): a tool annotated read-only whose destination parameter
(output_path, filename, save_to) or description says it saves, writes, exports or stores to a
file or path it is given. Sentences that deny it or point at another tool prove nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from mcplint.regex_cache import regex
from mcplint.risk import name_words

# A parameter whose name ends in one of these names a place (file_path, output_dir, save_to);
# "output", "out" and "destination" alone do too. output_format, output_type do not.
_PLACE_WORDS = frozenset(
    "path paths file filename filepath fname outfile outpath outdir dir directory folder location "
    "destination dest".split()
)
_PLACE_ALONE = frozenset("output out destination dest outfile outpath outdir savepath".split())
_PLACE_AFTER = frozenset("to as into".split())  # save_to, save_as, write_into (two words or more)
# Active forms of the verbs that put data in a place. "dump" is left out: "heap dump file".
_WRITE_ACTIVE = frozenset(
    "save saves saving write writes writing export exports exporting store stores storing "
    "persist persists persisting".split()
)
# Participles count only as a passive ("is saved to", "will be written to"), not as an
# adjective ("a saved file", "the exported report").
_WRITE_PARTICIPLES = frozenset("saved written exported stored persisted".split())
_PASSIVE = frozenset("is are be been being gets get got".split())
# The verb used as a noun: "the store", "write access", "export format".
_NOUN_BEFORE = frozenset("the a an this its your their our app".split())
_NOUN_AFTER = frozenset(
    "access permission permissions mode lock locks protected protection format formats operation "
    "operations tool tools api endpoint".split()
)
_INTO = frozenset("to into as in at under".split())
# What a description writes to: "to the given path", "to a PNG file", "to disk".
_PLACE_NOUNS = frozenset(
    "file files path filename filepath disk folder directory dir location destination filesystem".split()
)
# Places only a caller names: without a parameter to give one, "can save to a path" speaks of
# another mode or deployment of the tool (gitlab's remote mode has no local_path), not of this listing.
_CALLER_PLACES = frozenset("path filename filepath location destination".split())
# A sentence that says what the tool does NOT do ("never writes to disk") proves nothing.
_NEGATION = regex(r"\b(?:not|never|no|nothing|none|without|cannot|neither|nor|instead)\b|n't\b|\brather than\b", re.I)
_SENTENCE = regex(r"(?<=[.!?;])\s+|\n+")
_TEXT_WORD = regex(r"[A-Za-z0-9_'-]+")
# snake_case names in prose: another tool's name unless it is this tool's or one of its parameters.
_IDENTIFIER = regex(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")
_OTHER_TOOL = regex(r"\b(?:use|call|try|see)\s+(?:the\s+)?[\w`'\"-]+(?:\s+[\w`'\"-]+)?\s+tool\b", re.I)


@dataclass(frozen=True, slots=True)
class WriteEvidence:
    """Why a tool looks like it writes: the sentence and, if any, the parameter it writes to."""

    quote: str  # the sentence that says so, trimmed
    parameter: str | None  # the destination parameter, when there is one
    source: str  # "description" | "parameter description"


def writes_to_place(tool: Mapping[str, Any]) -> WriteEvidence | None:
    """The tool saves, writes, exports or stores to a file or path: a destination parameter
    (output_path, filename, save_to) that its description or the parameter's own description
    says it writes to, or a description that says so of a file, path or disk."""
    description = tool.get("description")
    description = description if isinstance(description, str) else ""
    places = place_parameters(tool.get("inputSchema"))
    if not places and not any(noun in description.lower() for noun in _PLACE_NOUNS):
        return None  # no place to write to is named: the sentence walk below cannot find one
    own_names = _own_identifiers(tool)
    for name, schema in places:
        own = schema.get("description")
        if isinstance(own, str):
            for sentence in _sentences(own, own_names):
                if _write_verb_at(_words(sentence)) is not None:
                    return WriteEvidence(_trim(sentence), name, "parameter description")
    targets = _PLACE_NOUNS | {name.lower() for name, _ in places} if places else _PLACE_NOUNS - _CALLER_PLACES
    for sentence in _sentences(description, own_names):
        words = _words(sentence)
        at = _write_verb_at(words)
        if at is not None and _writes_into(words, at, targets):
            named = next((n for n, _ in places if n.lower() in words), None)
            return WriteEvidence(_trim(sentence), named, "description")
    return None


def place_parameters(input_schema: Any) -> list[tuple[str, dict]]:
    """The input parameters whose name says they are a place: a path, a file, an output."""
    if not isinstance(input_schema, Mapping) or not isinstance(input_schema.get("properties"), Mapping):
        return []
    found = []
    for name, schema in input_schema["properties"].items():
        if not isinstance(name, str) or not isinstance(schema, dict) or "enum" in schema or "const" in schema:
            continue
        kind = schema.get("type")
        if kind is not None and kind != "string" and not (isinstance(kind, list) and "string" in kind):
            continue  # a boolean "output" or an integer "path_depth" is not a place
        words = name_words(name)
        if not words:
            continue
        if (len(words) == 1 and words[0] in _PLACE_ALONE) or words[-1] in _PLACE_WORDS or (
            len(words) > 1 and words[-1] in _PLACE_AFTER
        ):
            found.append((name, schema))
    return found


def _sentences(text: str, own_names: frozenset[str]) -> list[str]:
    """The sentences that can speak for this tool: not a denial, not a pointer to another
    tool ("Use save_screenshot to save it to a file", "call the export tool")."""
    return [
        s for s in _SENTENCE.split(text)
        if s.strip() and not _NEGATION.search(s) and not _OTHER_TOOL.search(s)
        and own_names.issuperset(w.lower() for w in _IDENTIFIER.findall(s))
    ]


def _own_identifiers(tool: Mapping[str, Any]) -> frozenset[str]:
    """The tool's name and parameter names, which its sentences may mention."""
    names = [tool.get("name")]
    schema = tool.get("inputSchema")
    if isinstance(schema, Mapping) and isinstance(schema.get("properties"), Mapping):
        names.extend(schema["properties"])
    return frozenset(n.lower() for n in names if isinstance(n, str))


def _words(sentence: str) -> list[str]:
    return [w.lower().strip("'-") for w in _TEXT_WORD.findall(sentence)]


WRITE_WORDS = _WRITE_ACTIVE | _WRITE_PARTICIPLES  # writes_to_place finds nothing in a text without one


def may_write(text: str) -> bool:
    """A cheap pre-check: False when no sentence of ``text`` can say it writes (no write word)."""
    return not WRITE_WORDS.isdisjoint(_words(text))


def _write_verb_at(words: list[str]) -> int | None:
    """Where the sentence uses a write verb as a verb, or None."""
    for index, word in enumerate(words):
        before = words[index - 1] if index else ""
        after = words[index + 1] if index + 1 < len(words) else ""
        if word in _WRITE_ACTIVE and before not in _NOUN_BEFORE and after not in _NOUN_AFTER:
            return index
        if word in _WRITE_PARTICIPLES and (before in _PASSIVE or words[index - 2:index - 1] == ["be"]):
            return index
    return None


def _writes_into(words: list[str], at: int, targets: frozenset[str] | set[str]) -> bool:
    """After the verb, within a few words, "to/into/as/in" and then a place: "save it to the given path"."""
    for index in range(at + 1, min(len(words), at + 8)):
        if words[index] in _INTO and any(w in targets for w in words[index + 1:index + 6]):
            return True
    return False


def _trim(sentence: str, limit: int = 80) -> str:
    sentence = " ".join(sentence.split())
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"
