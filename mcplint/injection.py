"""Prompt-injection phrasing and active markup in text a model reads.

Both scanners aim at high precision: they look for the phrasing of known tool
poisoning and injection attacks (``<IMPORTANT>`` blocks, "ignore previous
instructions", "do not tell the user", "read ~/.ssh/id_rsa and pass it as ...")
and for HTML that a client could render or execute, not for every word that
could appear in such an attack. Ordinary guidance ("Use this tool when ...",
"Call list_tables first", "Only works within allowed directories") and
placeholders (``<path>``, ``<owner>/<repo>``, ``<revision>:<path>``) stay silent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from mcplint.lazy_regex import LazyPattern
from mcplint.marketing import letter_words


_I = re.I
_SENTENCE_CHAR = r"(?:[^.!?\n]|\.(?=\S))"  # a dot inside a path or name does not end the sentence
_NOT_CONDITION = r"(?:(?!\b(?:until|unless|if|when|whether|before|after|once|because)\b)" + _SENTENCE_CHAR + ")"
_SECRET_FILE = (
    r"(?:~?/?\.ssh/id_\w+|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials\b|\bmcp\.json\b"
    r"|\bclaude_desktop_config\.json\b|/etc/shadow\b|\.git-credentials\b|(?<![\w.])\.netrc\b"
    r"|\bwallet\.dat\b|\.gnupg/|\.docker/config\.json\b)"
)

# (what it is, lower-case substrings one of which must occur, pattern): the substring
# test is cheap and skips the regex for almost every text.
INJECTION_PATTERNS: tuple[tuple[str, tuple[str, ...], LazyPattern], ...] = (
    ("an instruction tag", ("<",), LazyPattern(
        r"<\s*/?\s*(?:important|system|system[-_ ]?(?:prompt|message)|instructions?|hidden|critical"
        r"|secret|admin[-_ ]?instructions?)\s*>", _I)),
    ("a chat-template control token", ("<|", "[inst", "[/inst", "<<"), LazyPattern(
        # Llama's tokens are upper case: "instance [inst] binders" is Lean, not a control token
        r"<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|(?-i:\[/?INST\]|<<\s*/?SYS\s*>>)", _I)),
    ("an instruction to ignore earlier instructions",
     ("ignore", "disregard", "forget", "override", "bypass"), LazyPattern(
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|these\s+)?"
        r"(?:previous|prior|above|earlier|preceding|former|original|system)\s+"
        r"(?:instructions?|prompts?|rules|directions|directives|guidelines|messages|context|constraints)\b", _I)),
    ("an instruction to hide something from the user", ("user",), LazyPattern(
        r"\b(?:do\s+not|don[’']?t|never|must\s+not|should\s+not|shouldn[’']?t)\s+(?:\w+\s+){0,2}?"
        r"(?:tell|mention|inform|notify|alert|reveal|disclose)\b"
        + _NOT_CONDITION + r"{0,80}?\b(?:to\s+|the\s+)users?\b(?!\s+to\s)"  # not "tell the user to <do>"
        r"|\b(?:do\s+not|don[’']?t|never)\s+let\s+(?:the\s+)?users?\s+know\b"
        r"|\bwithout\s+(?:telling|informing|notifying|alerting)\s+(?:the\s+)?users?\b"
        r"|\b(?:hide|conceal|keep)\s+(?:this|it|that)\s+(?:secret\s+|hidden\s+)?from\s+(?:the\s+)?users?\b", _I)),
    ("an instruction to read a secret file", (
        ".ssh/", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".aws/", "mcp.json", "claude_desktop",
        "/etc/shadow", "git-credentials", ".netrc", "wallet.dat", ".gnupg/", ".docker/"), LazyPattern(
        r"\b(?:read|cat|include|send|pass|upload|attach|copy|extract|print|output|forward|paste|append"
        r"|exfiltrate|leak|dump)\b" + _SENTENCE_CHAR + "{0,80}?" + _SECRET_FILE, _I)),
    ("an instruction to act behind the user's back",
     ("secretly", "silently", "covertly", "quietly", "discreetly"), LazyPattern(
        r"\b(?:secretly|silently|covertly|quietly|discreetly)\s+(?:also\s+)?(?:call|invoke|send|forward|upload"
        r"|email|exfiltrate|copy|leak|transmit)\b", _I)),
    ("phrasing that overrides the system prompt", ("system", "you are now"), LazyPattern(
        r"\b(?:ignore|disregard|override|forget|reveal|print|repeat|output|leak|replace)\s+(?:the\s+|your\s+|any\s+)?"
        r"system\s+(?:prompt|message|instructions?)\b"
        r"|\byou\s+are\s+now\s+(?:in\s+)?(?:dan\b|developer\s+mode|jailbroken|unrestricted|an?\s+unrestricted)"
        r"|\bnew\s+system\s+(?:prompt|instructions?)\s*:", _I)),
    # Tool-preference manipulation ("always default to using this tool for any scraping"): it steers
    # the model away from the other servers' tools. Workflow advice ("call this tool first", "use
    # this tool instead of search_files when you know the path") is not matched.
    ("an instruction to prefer this tool over all others", ("this tool", "other tool", "other server"), LazyPattern(
        r"\balways\s+default\s+to\s+(?:using\s+|calling\s+)?this\s+tool\b"
        r"|\b(?:use|prefer|choose|pick|call)\s+this\s+tool\s+(?:instead\s+of|over|rather\s+than)\s+"
        r"(?:any|all|every)\s+(?:of\s+)?(?:the\s+)?other\b"
        r"|\b(?:do\s+not|don[’']?t|never)\s+(?:use|call|consider)\s+any\s+other\s+(?:tools?|servers?)\b", _I)),
)


@dataclass(frozen=True, slots=True)
class Match:
    what: str  # "an instruction tag", "HTML markup", ...
    text: str  # the matched text
    index: int


# longest first, then in order: the same pattern on every run (it is compiled once per installation)
_ALL_TRIGGERS = sorted({t for _, triggers, _ in INJECTION_PATTERNS for t in triggers}, key=lambda t: (-len(t), t))
_TRIGGER = LazyPattern("|".join(re.escape(t) for t in _ALL_TRIGGERS))
# trigger -> the patterns it may start (a longer trigger such as "<|" also covers "<")
_PATTERNS_OF = {
    t: tuple(i for i, (_, triggers, _) in enumerate(INJECTION_PATTERNS) if any(u in t for u in triggers))
    for t in _ALL_TRIGGERS
}


# For ASCII text: what each pattern above cannot match without: one of some characters
# (when given) and, from every word group, a whole word (a run of letters, lower case:
# "don't" is "don" + "t", "id_rsa" is "id" + "rsa", "<|im_start|>" is "im" + "start").
# Far more selective than the substring triggers ("user" is in most tool lists; "do not
# tell ... the user" needs all three groups), and checked with set operations rather than
# a regex scan. (Non-ASCII text keeps the substring triggers: re.I also folds characters
# such as "ı" and "ſ" into ASCII letters.)
_WORD_NEEDS: tuple[tuple[str, tuple[frozenset[str], ...]], ...] = tuple(
    (chars, tuple(frozenset(group.split()) for group in groups)) for chars, groups in (
        ("<", ("important system systemprompt systemmessage instruction instructions hidden critical secret "
               "admin admininstruction admininstructions",)),
        ("<[", ("im endoftext system user assistant inst sys",)),
        ("", ("ignore disregard forget override bypass",
              "previous prior above earlier preceding former original system",
              "instruction instructions prompt prompts rules directions directives guidelines messages context "
              "constraints")),
        # hiding from the user: "do not tell", "don't let ... know", "without telling", "hide it from"
        ("", ("tell mention inform notify alert reveal disclose know telling informing notifying alerting "
              "hide conceal keep",
              "user users",
              "not don dont never shouldn shouldnt without hide conceal keep")),
        ("", ("ssh rsa dsa ecdsa ed aws mcp claude shadow credentials netrc wallet gnupg docker",
              "read cat include send pass upload attach copy extract print output forward paste append exfiltrate "
              "leak dump")),
        ("", ("secretly silently covertly quietly discreetly",
              "call invoke send forward upload email exfiltrate copy leak transmit")),
        ("", ("prompt message instruction instructions now", "system you")),
        ("", ("default instead over rather never not don dont", "tool tools server servers")),
    )
)


# Without one of these words (or "<" or "[") no pattern can match.
_FIRST_WORDS = frozenset().union(*(groups[0] for chars, groups in _WORD_NEEDS if not chars))


def _candidates(text: str) -> tuple[int, ...]:
    """Indices of the INJECTION_PATTERNS that may match somewhere in ``text``."""
    if not text.isascii():
        hits = set(_TRIGGER.findall(text.lower()))
        return tuple(sorted({i for t in hits for i in _PATTERNS_OF[t]}))
    return _ascii_candidates(text, letter_words(text))


def _ascii_candidates(text: str, words) -> tuple[int, ...]:
    """``_candidates`` of an ASCII ``text`` whose ``letter_words`` are ``words``."""
    if _FIRST_WORDS.isdisjoint(words) and "<" not in text and "[" not in text:
        return ()  # most texts
    words = set(words)
    return tuple(
        index for index, (chars, groups) in enumerate(_WORD_NEEDS)
        if (not chars or any(c in text for c in chars)) and all(not group.isdisjoint(words) for group in groups)
    )


def could_inject(text: str) -> bool:
    """Whether any injection pattern may match in ``text`` (decoded tool text, or several
    joined with newlines): a cheap per-tool pre-check."""
    return bool(_candidates(text))


def could_inject_ascii(text: str, words) -> bool:
    """``could_inject`` of an ASCII ``text`` whose ``letter_words`` (a list or set) are known."""
    return bool(_ascii_candidates(text, words))


_ENCODED = LazyPattern(r"\\(?:u00[0-7]|x|U)")  # an escaped ASCII character could spell anything
_LINK_TARGET = LazyPattern(r"\]\(")  # (a regex finds it in a large text faster than `in` does)


def may_inject(source: str) -> bool:
    """Whether a JSON/YAML source text could hold injection phrasing anywhere (cheap pre-check)."""
    return _ENCODED.search(source) is not None or _TRIGGER.search(source.lower()) is not None


def may_have_markup(source: str) -> bool:
    """Whether a JSON/YAML source text could hold markup anywhere (cheap pre-check)."""
    return "<" in source or _LINK_TARGET.search(source) is not None or _ENCODED.search(source) is not None


def find_injection(text: str) -> list[Match]:
    """Prompt-injection phrasing in ``text``, in order of appearance."""
    if len(text) > 200 and not _candidates(text):
        return []  # most long texts (tool output): not worth a place in the cache below
    return list(_scan_injection(text))


@lru_cache(maxsize=4096)  # generated manifests repeat the same parameter descriptions
def _scan_injection(text: str) -> tuple[Match, ...]:
    chosen = _candidates(text)
    if not chosen:
        return ()
    found = [
        Match(INJECTION_PATTERNS[i][0], m.group(), m.start())
        for i in chosen
        for m in INJECTION_PATTERNS[i][2].finditer(text)
        if not (i == 0 and _is_doc_admonition(m.group(), text))
    ]
    return tuple(sorted(found, key=lambda m: m.index))


_DOC_MARKUP = LazyPattern(r"<(?:p|para|code|note|ul|li)>")


def _is_doc_admonition(tag: str, text: str) -> bool:
    """AWS API reference markup (``<important><p>...</p></important>``), which tools
    generated from AWS service models carry: lower case, among other doc markup."""
    return tag.islower() and "important" in tag and _DOC_MARKUP.search(text) is not None


# -- markup -------------------------------------------------------------------------

HTML_ELEMENTS = frozenset(
    "a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption "
    "center cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset "
    "figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i "
    "iframe img input ins kbd label legend li link main map mark marquee math menu meta meter nav "
    "noscript object ol optgroup option output p param picture plaintext pre progress q rp rt ruby s "
    "samp script search section select slot small source span strong style sub summary sup svg table "
    "tbody td template textarea tfoot th thead time title tr track u ul var video wbr xmp applet".split()
)
# Elements that are active or hostile even bare; never plausible as a placeholder.
ACTIVE_ELEMENTS = frozenset(
    "script iframe frame frameset applet embed noscript style svg marquee xmp plaintext".split()
)
_VOID = frozenset("br hr wbr img".split())
_TAG = LazyPattern(r"<(/?)([A-Za-z][A-Za-z0-9-]*)((?:[\s/]+[^<>]*?)?)\s*(/?)>")
_CLOSING = LazyPattern(r"</([A-Za-z][A-Za-z0-9-]*)\s*>")
_ATTRIBUTE = LazyPattern(r"[A-Za-z_:][\w:.-]*\s*=")
_HANDLER = LazyPattern(r"[\s/\"']on[a-z]+\s*=", _I)
_SCRIPT_URL = LazyPattern(
    r"(?:\b(?:href|src|action|formaction|xlink:href|data)\s*=\s*[\"']?|\]\(\s*)\s*"
    r"(?:javascript|vbscript|data:text/html)\s*:?", _I
)
_RANK = {"an event-handler attribute": 0, "a script URL": 0, "an active HTML element": 1, "an HTML comment": 2}
_COMMENT = LazyPattern(r"<!--.*?(?:-->|$)", re.S)


def find_markup(text: str, allowed: frozenset[str] = frozenset()) -> list[Match]:
    """HTML tags, event handlers, script URLs and HTML comments in ``text``, most dangerous first.

    A tag counts when its name is an HTML element and it is active (``<script>``),
    void (``<br>``), closed somewhere (``<b>..</b>``), or carries ``name=value`` attributes; any tag
    with an ``on*=`` handler counts. ``<path>`` or ``<owner>/<repo>`` do not.
    Element names in ``allowed`` (lower case) are accepted, unless they carry a handler."""
    return list(_scan_markup(text, allowed)) if "<" in text or "](" in text else []


@lru_cache(maxsize=4096)
def _scan_markup(text: str, allowed: frozenset[str]) -> tuple[Match, ...]:
    found = [Match("an HTML comment", m.group()[:40], m.start()) for m in _COMMENT.finditer(text)]
    found += [Match("a script URL", m.group(), m.start()) for m in _SCRIPT_URL.finditer(text)]
    closed = {name.lower() for name in _CLOSING.findall(text)}
    for m in _TAG.finditer(text):
        _, name, attributes, self_closing = m.groups()
        name = name.lower()
        if _HANDLER.search(attributes):
            found.append(Match("an event-handler attribute", m.group(), m.start()))
        elif name in HTML_ELEMENTS and name not in allowed and (
            name in ACTIVE_ELEMENTS or name in _VOID or name in closed or self_closing or _ATTRIBUTE.search(attributes)
        ):
            what = "an active HTML element" if name in ACTIVE_ELEMENTS else "an HTML tag"
            found.append(Match(what, m.group(), m.start()))
    return tuple(sorted(found, key=lambda m: (_RANK.get(m.what, 3), m.index)))  # most dangerous first
