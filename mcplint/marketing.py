"""Marketing, overly friendly and vague phrases in tool, prompt and resource texts (MCP221):
the phrase list, the advice for each kind, and a matcher that searches a text only when it
holds one of a phrase's trigger words."""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Iterable

from mcplint.regex_cache import regex


# label -> (kind, regex, trigger words). Labels are what users name in ``allow-words``;
# a text is searched only when it contains one of the trigger words (a fast prefilter).
# Chosen for precision: words with an ordinary technical sense ("magic bytes",
# "seamless texture", "unmatched brackets", "next-generation sequencing", "great
# circle", "perfect square", "robust") are left out or matched only in phrases.
MARKETING: dict[str, tuple[str, str, str]] = {
    "revolutionary": ("hype", r"revolutionary|revolutioni[sz](?:e|es|ing)",
                      "revolutionary revolutionize revolutionizes revolutionizing revolutionise "
                      "revolutionises revolutionising"),
    "game-changing": ("hype", r"game[- ]chang(?:ing|er)", "game"),
    "groundbreaking": ("hype", r"ground[- ]?breaking", "groundbreaking breaking"),
    "best-in-class": ("hype", r"best[- ]in[- ]class", "best"),
    "world-class": ("hype", r"world[- ]class", "world"),
    "world's best": ("hype", r"world['’]s (?:best|fastest|first|most \w+)", "world"),
    "industry-leading": ("hype", r"industry[- ]leading", "industry"),
    "cutting-edge": ("hype", r"cutting-edge", "cutting"),
    "state-of-the-art": ("hype", r"state-of-the-art", "art"),
    "blazing fast": ("hype", r"blazing(?:ly)?[- ]fast", "blazing blazingly"),
    "lightning fast": ("hype", r"lightning[- ]fast", "lightning"),
    "super fast": ("hype", r"(?:super|ultra|insanely)[- ]fast", "super ultra insanely"),
    "unparalleled": ("hype", r"unparall?eled|unrivall?ed|unbeatable",
                     "unparalleled unparaleled unrivaled unrivalled unbeatable"),
    "seamless": ("hype", r"seamlessly|seamless (?:integration|experience|workflow|access|connectivity)",
                 "seamless seamlessly"),
    "effortless": ("hype", r"effortless(?:ly)?|hassle[- ]free", "effortless effortlessly hassle"),
    "powerful": ("hype", r"(?:super[- ]?|very |extremely |incredibly )?powerful", "powerful superpowerful"),
    "supercharge": ("hype", r"(?:super|turbo)charg(?:e|es|ed|ing)",
                    "supercharge supercharges supercharged supercharging turbocharge turbocharges "
                    "turbocharged turbocharging"),
    "ultimate": ("hype", r"the ultimate (?:tool|solution|way|platform|experience|assistant|companion|guide)",
                 "ultimate"),
    "amazing": ("hype", r"amazing(?:ly)?|awesome|fantastic|incredible|incredibly|mind[- ]blowing|"
                        r"jaw[- ]dropping|breathtaking",
                "amazing amazingly awesome fantastic incredible incredibly blowing jaw breathtaking"),
    "magic": ("hype", r"magical(?:ly)?|like magic", "magical magically magic"),
    "hey there": ("friendly", r"(?:hey|hi|hello) there", "hey hi hello"),
    "happy to help": ("friendly", r"(?:happy|glad|delighted) to help|happy (?:coding|hacking)",
                      "happy glad delighted"),
    "we'd love to": ("friendly", r"(?:we|i)['’]d love to", "love"),
    "!!": ("friendly", r"!!+(?![\w(])", "!!"),
    ":)": ("friendly", r"(?<!\S)[:;]-?[)D](?!\w)", ":) :D ;) :-) ;-) :-D"),
    "and more": ("vague", r"and (?:much |so much |many )?more(?=\s*(?:[.,;:!?)\]]|$))", "more"),
    "etc.": ("vague", r"etc\.?", "etc"),
    "and so on": ("vague", r"and so (?:on|forth)", "so"),
    "stuff": ("vague", r"stuff", "stuff"),
    "various things": ("vague", r"(?:various|many|some|other|all sorts of|lots of) things", "things"),
    "a bunch of": ("vague", r"a bunch of", "bunch"),
}

ADVICE = {
    "hype": "state what the tool does, not how good it is",
    "friendly": "keep the tone neutral and factual",
    "vague": "name the specific things instead",
    "banned": "this wording is banned by the project's configuration",
}

# ASCII bytes -> themselves for a-z, lower case for A-Z, a space for everything else.
_ASCII_LETTERS = bytes.maketrans(
    bytes(range(128)), bytes(c if 97 <= c <= 122 else c + 32 if 65 <= c <= 90 else 32 for c in range(128))
)


_QUOTED = regex('"[^"\n]{1,300}"|\u201c[^\u201d\n]{1,300}\u201d')


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _QUOTED.finditer(text)]


# An open ending ("etc.", "and so on", "and more") after values shown as examples ends a list of
# examples, not a vague account of what a tool does: two or more quoted or code-span values ('Can be
# "guide", "report", "person", etc.': basic-memory's note_type), a list inside parentheses ('protected
# branches (main, master, production, etc.)', '(1 for first parent, 2 for second, etc.)': git-mcp-
# server), a list after "e.g.", "such as", "like" or "including", a list of names mid-sentence ("in
# German, French, Japanese, etc.") or one of words between slashes ("a flowchart / sequence / etc."). A bare 'orders, invoices, etc.' stays vague, and so
# does 'stuff' anywhere. A quoted value may be followed by what it means ("Use 'hour' for very recent
# news, 'day' for today's updates, etc.": perplexity's search_recency_filter); single quotes count
# only where no letter touches them (not the apostrophes of "don't, can't, etc.").
# A call shown as an example ('ha_get_domain_docs("input_button")') counts as a quoted value.
_CALL = r"""\b[A-Za-z_][\w.]{0,60}\([^()\n]{0,80}\)"""
_QUOTED_VALUE = (r"""(?:"[^"\n]{1,80}"|`[^`\n]{1,80}`|\u201c[^\u201d\n]{1,80}\u201d"""
                 r"""|\u2018[^\u2019\n]{1,80}\u2019|(?<![\w'])'[^'\n]{1,80}'(?![\w'])|""" + _CALL + ")")
_EXPLAINED_VALUE = rf"""{_QUOTED_VALUE}(?:[ \t]+[^,;:()"`\n]{{1,80}}?)?"""  # 'day' for today's updates
_INDEX_VALUE = r"(?:\[[^\]\n]{1,20}\]|\b\d{1,9})"  # a sequence goes on: nothing vague about its end
_EXAMPLES_BEFORE = regex(
    rf"(?:{_EXPLAINED_VALUE}\s*,\s*)+{_EXPLAINED_VALUE}\s*,?\s*$"  # "a", "b", etc.; 'a' for x, 'b' for y, etc.
    rf"|(?:{_INDEX_VALUE}\s*,\s*)+{_INDEX_VALUE}\s*,?\s*$"  # [0], [1], etc. (desktop-commander); 1, 2, 3, etc.
    r"|\([^()\n]{1,300}?,\s*(?:and\s+|or\s+)?$"  # (a, b, etc.)
    rf"|{_CALL}\s*,\s*$"  # use: ha_get_domain_docs("input_number"), etc.
    rf"|\b(?:e\.\s?g\.|such\s+as|like|including|for\s+(?:example|instance))[:,]?\s+(?:{_CALL}|[^.;:()\n]){{1,300}}?"
    r"(?:,\s*|\s+)$"
    r"|(?:\b[^\W\d_][\w-]{0,40}[ \t]*/[ \t]*){2,}$"  # a flowchart / architecture / sequence / etc.
    r"|(?-i:(?<=[a-z][ \t])(?:[A-Z][\w-]{0,40}[ \t]*,[ \t]*){2,})$",  # in German, French, etc.: names
    re.I)
_OPEN_ENDINGS = ("etc", "and so", "and more", "and many more", "and much more")
MAX_EXAMPLE_LOOKS = 32  # per text: a hostile text of a million "etc." costs 32 looks back (< 1 ms each)


def _after_example_values(phrase: str, text: str, start: int) -> bool:
    return phrase.lower().startswith(_OPEN_ENDINGS) and \
        _EXAMPLES_BEFORE.search(text, max(0, start - 400), start) is not None


_WORDS = regex(r"[^\W_]+")
_SENTENCE_END = regex(r"[.!?;](?=\s)|\n")


def value_words(value: str) -> str:
    """A value's words, lower case, one space between them ('academic-papers' -> 'academic papers')."""
    return " ".join(_WORDS.findall(value.lower()))


def ends_named_values(phrase: str, text: str, start: int, values: frozenset[str]) -> bool:
    """Whether the open ending ``phrase`` at ``start`` follows two or more of ``values`` (a
    parameter's enum, as ``value_words``) named in the text before it: "hour, day, week, etc." of
    an enum of hour ... year stands for the enum's other values, which the schema lists."""
    if not values or not phrase.lower().startswith(_OPEN_ENDINGS):
        return False
    begin = max(0, start - 400)
    begin = max((m.end() for m in _SENTENCE_END.finditer(text, begin, start)), default=begin)  # its sentence
    words = value_words(text[begin:start])
    single = values & set(words.split())  # one-word values: a set intersection
    if len(single) >= 2:
        return True
    before = f" {words} "
    named = len(single)
    for value in values:
        if " " in value and f" {value} " in before:
            named += 1
            if named == 2:
                return True
    return False


def _closes_parenthesis(text: str, start: int) -> bool:
    """An emoticon's ')' at ``start`` + 1 or 2 closes a '(' opened in the 200 characters before it."""
    before = text[max(0, start - 200):start]
    return before.count("(") > before.count(")")


def letter_words(text: str) -> list[str]:
    """The runs of letters in ``text``, lower-cased: ``_LETTERS.findall(text.lower())``
    ("don't" -> don, t). ASCII text takes a byte-level translate and split instead of
    the regex: several times faster, with the same result."""
    if text.isascii():
        return text.encode("ascii").translate(_ASCII_LETTERS).decode("ascii").split()
    return _LETTERS.findall(text.lower())


_BEFORE = r"(?<![\w\-/.])"  # not inside a word, a hyphenated word or a path ("/etc")
_AFTER = r"(?![\w\-/])"
_LETTERS = regex(r"[a-z]+")


def _bounded(source: str, phrase: str) -> str:
    """``source`` that only matches as whole words where ``phrase`` starts or ends with one
    (not for CJK and other scripts written without spaces, from U+2E80 on)."""
    before = _BEFORE if phrase[0].isalnum() and phrase[0] < "\u2e80" else ""
    after = _AFTER if (phrase[-1].isalnum() and phrase[-1] < "\u2e80") or phrase[-1] == "." else ""
    return f"{before}(?:{source}){after}"


class MarketingMatcher:
    """Finds marketing, overly friendly and vague phrases: the built-in ones minus the
    labels in ``allow``, plus the ``extra`` words (kind ``banned``). Each phrase's
    regex runs only on texts that contain one of its trigger words, and is compiled
    the first time one does (most runs meet few of them)."""

    def __init__(self, extra: Iterable[str] = (), allow: Iterable[str] = ()) -> None:
        allowed = {a.strip().lower() for a in allow}
        self.phrases: dict[tuple[str, ...], list[tuple[str, str]]] = {}  # extra phrases of 2+ words, by their words
        entries = [(kind, _bounded(source, label), triggers.split())
                   for label, (kind, source, triggers) in MARKETING.items() if label not in allowed]
        for phrase in (w.strip() for w in extra if w.strip()):
            source = r"\s+".join(map(re.escape, phrase.split()))
            words = tuple(_LETTERS.findall(phrase.lower()))
            if len(words) > 1:  # by its words in a row: triggering on each ("the") ran 15,000 regexes a text (70 s)
                self.phrases.setdefault(words, []).append(("banned", _bounded(source, phrase)))
                continue
            entries.append(("banned", _bounded(source, phrase), list(words) or [phrase]))
        self.by_word: dict[str, list[tuple[str, str]]] = {}  # trigger -> (kind, regex source)
        self.by_symbol: dict[str, list[tuple[str, str]]] = {}
        self._compiled: dict[str, re.Pattern] = {}
        for kind, source, triggers in entries:
            compiled = (kind, source)
            for trigger in triggers:
                # letter_words() yields ASCII words only: other triggers are searched as text
                table = self.by_word if trigger.isascii() and trigger.isalpha() else self.by_symbol
                table.setdefault(trigger, []).append(compiled)
        self._cache: dict[str, list[tuple[str, str]]] = {}  # texts repeat across tools
        self.phrase_lengths = sorted({len(words) for words in self.phrases})
        self.phrase_starts = frozenset(words[0] for words in self.phrases)
        longest_first = sorted(self.by_symbol, key=len, reverse=True)
        self.symbols = re.compile("|".join(map(re.escape, longest_first)) or "(?!)")
        self.symbol_starts = "".join({symbol[0] for symbol in self.by_symbol})  # cheap `in` tests first

    def findall(self, text: str) -> list[tuple[str, str]]:
        """``(kind, matched text)`` for every phrase found, in text order."""
        return [(kind, phrase) for kind, phrase, _ in self.found_at(text)]

    def found_at(self, text: str) -> list[tuple[str, str, int]]:
        """``(kind, matched text, its offset)`` for every phrase found, in text order."""
        cached = self._cache.get(text)
        if cached is None:
            if len(self._cache) > 4096:
                self._cache.clear()
            cached = self._cache[text] = self._findall(text)
        return cached

    def may_match(self, text: str) -> bool:
        """False when ``findall`` finds nothing in ``text`` nor in any of the texts it was
        joined from with newlines (a cheap pre-check: one pass over many texts)."""
        return self.may_match_words(text, letter_words(text))

    def may_match_words(self, text: str, words) -> bool:
        """``may_match`` of a ``text`` whose ``letter_words`` (a list or set) are known."""
        if not self.by_word.keys().isdisjoint(words) or not self.phrase_starts.isdisjoint(words):
            return True
        for start in self.symbol_starts:
            if start in text:
                return self.symbols.search(text) is not None
        return False

    def _findall(self, text: str) -> list[tuple[str, str, int]]:
        listed = letter_words(text)
        words = self.by_word.keys() & set(listed)
        symbols = self.symbols.findall(text) if self.by_symbol else ()
        phrases = self._phrases_in(listed) if self.phrases else ()
        if not words and not symbols and not phrases:
            return []
        candidates = dict.fromkeys(phrases)
        for trigger in (*words, *symbols):
            candidates.update(dict.fromkeys(self.by_word.get(trigger) or self.by_symbol[trigger]))
        found = sorted((m.start(), -m.end(), kind, m.group(0))
                       for kind, source in candidates for m in self._pattern(source).finditer(text))
        quoted = _quoted_spans(text) if '"' in text or "\u201c" in text else []
        opens = [a for a, _ in quoted]  # the spans do not overlap: the one a match may be in is found by bisection
        result, covered, looked = [], -1, 0
        for start, neg_end, kind, phrase in found:
            at = bisect_left(opens, start) - 1
            if at >= 0 and start < quoted[at][1]:
                continue  # a quoted example of what a user says ("find authentication stuff")
            if kind == "vague" and looked < MAX_EXAMPLE_LOOKS:
                looked += 1
                if _after_example_values(phrase, text, start):
                    continue
            if phrase[-1] == ")" and _closes_parenthesis(text, start):
                continue  # "(statements separated by ;)": the ')' closes the parenthesis, no wink
            if start >= covered:  # drop matches inside a longer one ("super fast" / "fast")
                result.append((kind, phrase, start))
                covered = -neg_end
        return result

    def _phrases_in(self, listed: list[str]) -> list[tuple[str, str]]:
        """The extra phrases whose words stand in a row among the text's words (what their regexes
        need to match): one dict lookup per word and phrase length."""
        found, starts, phrases = [], self.phrase_starts, self.phrases
        for i, word in enumerate(listed):
            if word in starts:
                for length in self.phrase_lengths:
                    found += phrases.get(tuple(listed[i:i + length]), ())
        return found

    def _pattern(self, source: str) -> re.Pattern:
        pattern = self._compiled.get(source)
        if pattern is None:
            pattern = self._compiled[source] = re.compile(source, re.I | re.M)
        return pattern
