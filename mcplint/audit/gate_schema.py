"""What a tool's schemas and texts tell the call gate (``mcplint.audit.call_gate``) beyond its words.

- ``input_refusal``: every parameter, at any depth, named in ``properties`` or only in ``required``
  (the argument builder sends those too). A parameter whose name holds a switch word (``apply``,
  ``force``, ``dry_run``, ``confirm``: ``effect_lexicon.SWITCH_WORDS``) or an effect word refuses the
  tool, whatever its type: a lax server acts on any truthy value, and on a falsy one for an inverted
  switch. A boolean or untyped parameter is read strictly: an ambiguous word in its name or its
  description refuses too ("email": true, "Apply the plan after showing it"). The values the audit
  could send (``const``, ``enum``, ``default``, ``examples``) are read strictly as well.
- ``output_refusal``: the outputSchema's descriptions and titles ("the rows it deletes").
- ``secret_refusal``: a tool whose name, titles, description or outputSchema is about credentials
  (tokens, passwords, cookies, sessions, keys), or whose texts or values point at a file that
  holds them (``~/.ssh/id_rsa``, ``/proc/self/environ``, ``.env``): its answer would be recorded.

Every function gives the reason shown in the report, or None.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Mapping

from mcplint.audit import call_gate
from mcplint.audit.effect_lexicon import (AMBIGUOUS_WORDS, SECRET_PATHS, SECRET_PHRASES, SECRET_WORDS,
                                          SWITCH_WORDS, TOKEN_NOT_SECRET_AFTER)
from mcplint.regex_cache import regex

MAX_SCHEMA_NODES = 2000
_SECRET_PATH = regex("|".join(SECRET_PATHS), re.I)
_SPLIT = regex(r"[_\-.]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def input_refusal(schema: Any) -> str | None:
    for count, (kind, where, item) in enumerate(_walk(schema)):
        if count > MAX_SCHEMA_NODES:
            return "its input schema is too large to vet"
        if kind == "param":
            said = _parameter_refusal(*item)
        elif kind == "value":
            said = call_gate.value_refusal(item) or _switch_text(item)
        else:
            said = call_gate.text_refusal(item, ambiguous=False)
        if said:
            return f"input schema {where} {said}"
    return None


def output_refusal(schema: Any) -> str | None:
    for count, (kind, where, item) in enumerate(_walk(schema)):
        if count > MAX_SCHEMA_NODES:
            return "its output schema is too large to vet"
        said = call_gate.text_refusal(item, ambiguous=False) if kind == "text" else None
        if said:
            return f"output schema {where} {said}"
    return None


def secret_refusal(tool: Mapping) -> str | None:
    """Credentials named by the tool or its output, or a credential file anywhere in its texts."""
    annotations = tool.get("annotations")
    texts = [("name", tool.get("name")), ("description", tool.get("description")), ("title", tool.get("title")),
             ("title", annotations.get("title") if isinstance(annotations, Mapping) else None)]
    texts += [(f"output schema {where}", item[0] if kind == "param" else item)
              for kind, where, item in _capped(_walk(tool.get("outputSchema")))]
    for field, text in texts:
        found = secret_in(text) if isinstance(text, str) else None
        if found:
            return f"{field} says {found!r}: it may return secrets, which the recording would keep"
    for field, text in texts + [(f"input schema {where}", item[0] if kind == "param" else item)
                                for kind, where, item in _capped(_walk(tool.get("inputSchema")))]:
        found = _SECRET_PATH.search(text) if isinstance(text, str) else None
        if found:
            return f"{field} points at {found.group(0)!r}, a file that holds secrets"
    return None


def secret_in(text: str) -> str | None:
    """The credential word or phrase in ``text`` (names split: ``get_oauth_token``), else None."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", _SPLIT.sub(" ", text))]
    joined = " " + " ".join(words) + " "
    for phrase in SECRET_PHRASES:
        if f" {phrase} " in joined or f" {phrase}s " in joined:
            return phrase
    for index, word in enumerate(words):
        if word in ("token", "tokens") and index and words[index - 1] in TOKEN_NOT_SECRET_AFTER:
            continue
        if word in SECRET_WORDS or word == "environment":
            return word
    return None


# -- parameters ---------------------------------------------------------------------------------------
def _parameter_refusal(name: str, schema: Any) -> str | None:
    words = call_gate.words_of(name)
    for word in words:
        if word in SWITCH_WORDS:
            return f"is an action switch ({word!r})"
        found = call_gate.effect_word(word)
        if found:
            return f"implies a side effect ({found!r})"
    if not _switch_typed(schema):
        return None
    for word in words:
        if word in AMBIGUOUS_WORDS:
            return f"is a yes/no switch named with a verb that may act ({word!r})"
    for key in ("description", "title"):
        text = schema.get(key) if isinstance(schema, Mapping) else None
        said = _switch_text(text) if isinstance(text, str) else None
        if said:
            return f"is a yes/no switch whose {key} {said}"
    return None


def _switch_text(text: str) -> str | None:
    """Strict: ambiguous verbs count, and so do the switch words ("Preview only", "force")."""
    said = call_gate.text_refusal(text, ambiguous=True)
    if said:
        return said
    found = next((w for w in call_gate.words_of(text) if w in SWITCH_WORDS), None)
    return f"says {found!r}" if found else None


def _switch_typed(schema: Any, depth: int = 0) -> bool:
    """Boolean, boolean-valued, or untyped (a server may read it as a boolean): a yes/no switch."""
    if not isinstance(schema, Mapping):
        return True
    if depth > 8:
        return True
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
    if "boolean" in kinds:
        return True
    values = [schema.get("const"), schema.get("default")] + (schema["enum"] if isinstance(schema.get("enum"), list) else [])
    if any(isinstance(v, bool) for v in values):
        return True
    options = [o for key in ("anyOf", "oneOf", "allOf") if isinstance(schema.get(key), list) for o in schema[key]]
    if options:
        return any(_switch_typed(o, depth + 1) for o in options if o is not None)
    return not kinds and not any(key in schema for key in ("enum", "const", "$ref", "properties", "items", "format"))


def _capped(items: Iterator) -> Iterator:
    for count, item in enumerate(items):
        if count > MAX_SCHEMA_NODES:
            return
        yield item


def _walk(schema: Any) -> Iterator[tuple[str, str, Any]]:
    """("param", where, (name, schema)) for every parameter, ("text", where, text) for descriptions and
    titles, ("value", where, text) for the strings of values the audit could send; depth first."""
    stack = [(schema, "")]
    while stack:
        node, at = stack.pop()
        if isinstance(node, list):
            stack.extend((item, at) for item in node)
            continue
        if not isinstance(node, Mapping):
            continue
        properties = node.get("properties") if isinstance(node.get("properties"), Mapping) else {}
        required = node.get("required") if isinstance(node.get("required"), list) else []
        for name in [*properties, *(n for n in required if isinstance(n, str) and n not in properties)]:
            yield "param", f"property {str(name)!r}", (str(name), properties.get(name))
        for key, value in node.items():
            if key == "properties" and isinstance(value, Mapping):
                stack.extend((sub, f"property {str(prop)!r}") for prop, sub in value.items())
            elif key in ("description", "title") and isinstance(value, str):
                yield "text", f"{key} of {at or 'the schema'}", value
            elif key in ("const", "default"):
                yield from (("value", f"{key} of {at or 'the schema'}", t) for t in call_gate.strings_in(value))
            elif key in ("enum", "examples") and isinstance(value, list):  # the builder sends the first
                yield from ((("value" if i == 0 else "text"), f"{key} of {at or 'the schema'}", t)
                            for i, v in enumerate(value) for t in call_gate.strings_in(v))
            elif isinstance(value, (Mapping, list)):
                stack.append((value, at))
