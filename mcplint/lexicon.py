"""Word lists and word helpers for the naming and description rules.

- ``IMPERATIVE_VERBS``: the curated verbs a tool description may start with
  (MCP211; users extend it with the rule's ``extra-verbs`` option).
- ``imperative_of`` / ``verb_of_gerund``: "Gets" -> "get", "Fetching" -> "fetch".
- ``opening_problem`` / ``reads_as_english``: how a description opens (MCP211), and
  whether it is in the one language the lexicon knows.
- ``count_words``: words in a text, also in scripts written without spaces (MCP212).
- ``MARKETING`` / ``MarketingMatcher``: hype, overly friendly and vague phrases (MCP221),
  are in mcplint.marketing.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import islice
from typing import Iterable

from mcplint.regex_cache import regex


# -- verbs --------------------------------------------------------------------------

# Verbs in their base (imperative) form, lowercase. Deliberately broad: a first word
# missing from here is reported, so every common action in tool descriptions belongs in.
_VERBS = """
    abort accept access accumulate acknowledge acquire activate adapt add adjust advance advise aggregate alert
    align allocate allow alter amend analyse analyze animate annotate announce anonymize
    answer append apply approve approximate archive arrange ask assemble assert assess assign assist
    associate attach attempt audit augment authenticate authorize autocomplete autofill average
    await backfill backup ban batch beautify begin benchmark bind bisect blacklist blame block
    blur book bookmark boost bootstrap brainstorm branch break broadcast browse buffer
    build bump bundle buy cache calculate calibrate call cancel capitalize caption
    capture cast catalog categorize center centre chain change charge chart chat check
    checkout checkpoint choose chunk cite claim clarify classify clean cleanse cleanup
    clear click clip clone close cluster collaborate collapse collect combine comment
    commence commit compact compare compile complete compose compress compute concatenate conduct
    configure confirm connect consider consolidate construct consume contact continue contrast
    contribute control converse convert copy correct correlate count crawl create crop curate customize
    cut deactivate debug decide declare decline decode decompress decrement decrypt
    dedupe deduplicate define delegate delete deliver demonstrate deny deploy deposit
    deprecate derive describe deserialize design destroy detach detect determine
    diagnose dial diff differentiate digest disable disarm discard disconnect discover dismiss
    dispatch display dispose distribute divide do download downvote draft drag draw drop
    dump duplicate echo edit elicit email embed emit emphasize empty emulate enable
    encode encourage encrypt end enforce enhance enlist enqueue enrich ensure enter
    enumerate erase escalate escape establish estimate evaluate evict examine exchange exclude
    exec execute exit expand expire explain explore export expose extend extract fail
    feed fetch fill filter finalize find finish fit fix flag flatten flip flush focus fold
    follow force forecast forget fork format forward freeze fuzz gain gather gauge generate
    geocode get give go grab grade grant greet grep group guarantee guess guide halt handle
    hash help hide highlight hint hold hover hunt identify ignore illustrate import
    improve include increase increment index infer inform ingest initialize initiate inject
    insert inspect install instantiate integrate interact intercept interpolate
    interpret interrupt introspect invalidate invert investigate invite invoice invoke
    issue iterate join judge jump keep kick kill label launch learn leave let lift like
    limit link lint list listen load localize locate lock log login logout look lookup
    make manage map mark mask match materialize maximize measure memorize mention merge
    message migrate minify minimize mint mirror mix mock moderate modify monitor mount
    move multiply mutate mute navigate negotiate normalize notarize notify obfuscate
    observe obtain offer onboard open operate optimize orchestrate order organize
    outline overlay override overwrite pack package page pair paginate paint pan parametrize
    paraphrase parse partition pass paste patch pause pay peek perform persist pick pin ping
    pivot place plan play plot poll populate post predict prefetch preload prepare
    prepend preprocess present preserve press pretty-print preview print prioritize
    probe proceed process produce profile promote prompt pronounce proofread propose
    protect prove provide provision proxy prune publish pull purchase purge push put
    quantize query queue quit quote raise randomize rank rate reach react read reason
    rebase reboot rebuild recalculate recall receive recognize recommend reconcile record
    recover redact redeem redirect redo reduce refactor refine reflect reformat refresh
    refund regenerate register reindex reject relay release reload remember remind remix
    remove rename render renew reopen reorder reorganize repair repeat rephrase replace
    replay reply report repost reproduce request require rerank rerun resample rescan
    reschedule research resend reserve reset resize resolve respond restart restore
    restrict restructure resume retag retire retrieve retry return retweet reveal
    reverse revert review revise revoke rewind rewrite roll rollback rotate round route
    run sample sanitize save say scaffold scale scan schedule scope score scrape
    screenshot scroll search secure see seed seek segment select sell send serialize
    serve set settle setup share sharpen shift shorten show shrink shuffle shutdown sift sign
    signal signup simplify simulate sketch skim skip sleep slice smooth snapshot sniff snip
    snooze solve sort spawn speak specify spell spellcheck spin split squash stage stamp
    standardize star start stash stat step stop store stream strip stub study submit
    subscribe substitute subtract suggest sum summarise summarize supply suspend swap
    sweep swipe switch sync synchronize synthesize tabulate tag tail take talk tally tap
    tear teardown tell terminate test think throttle tidy tile tint toggle tokenize touch
    trace track trade train transcode transcribe transfer transform transition translate
    transliterate transmit transpose trash traverse treat triage trigger trim truncate
    trust tune turn tweak tweet type unarchive unblock undo unfollow uninstall unlink
    unlock unmute unpack unpin unset unshare unstar unsubscribe unwatch unwrap unzip update
    upgrade upload upscale upsert upvote use utilize vacuum validate vectorize verify
    vet view visit visualize vote wait wake walk warn watch weigh whitelist wipe withdraw
    wrap write zip zoom
    allowlist blocklist checksum debounce defragment denylist geolocate hydrate lemmatize pinpoint pipe
    postpone rasterize rebalance rehydrate replicate reshard stem troubleshoot tunnel warm
"""
IMPERATIVE_VERBS: frozenset[str] = frozenset(
    {*_VERBS.split(), *(v[:-3] + "ise" for v in _VERBS.split() if v.endswith("ize"))}
)

# Third-person forms that the regular rules in ``imperative_of`` get wrong.
_IRREGULAR = {"has": "have", "does": "do", "goes": "go", "is": "be", "says": "say"}

# Prefixes that make a new verb from a known one: "unstage", "reindex", "precompute".
_PREFIXES = ("re", "un", "pre", "de", "dis", "auto", "bulk", "batch", "multi")


def is_verb(word: str, extra: Iterable[str] = ()) -> bool:
    """Whether ``word`` (any case) is a base-form verb: in the lexicon, in ``extra``,
    a known prefix plus a lexicon verb, or a hyphenated phrase ending in one."""
    word = word.lower()
    if word in IMPERATIVE_VERBS or word in extra:
        return True
    if "-" in word:
        return is_verb(word.replace("-", ""), extra) or is_verb(word.rsplit("-", 1)[1], extra)
    if not word.startswith(_PREFIXES):  # the common case, without a loop
        return False
    return any(
        word.startswith(p) and len(word) - len(p) >= 4 and word[len(p):] in IMPERATIVE_VERBS
        for p in _PREFIXES
    )


def imperative_of(word: str, extra: Iterable[str] = ()) -> str | None:
    """The base verb of a third-person singular form ("Gets" -> "get", "Queries" ->
    "query", "Searches" -> "search", "Does" -> "do"), or None when it is not one."""
    lower = word.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower] if is_verb(_IRREGULAR[lower], extra) else None
    if not lower.endswith("s") or lower.endswith("ss") or is_verb(lower, extra):
        return None
    candidates = [lower[:-3] + "y"] if lower.endswith("ies") else []
    candidates.append(lower[:-1])
    if lower.endswith("es"):
        candidates.append(lower[:-2])
    return next((c for c in candidates if len(c) > 1 and is_verb(c, extra)), None)


def verb_of_gerund(word: str, extra: Iterable[str] = ()) -> str | None:
    """The base verb of an -ing form ("Fetching" -> "fetch", "Creating" -> "create",
    "Getting" -> "get"), or None."""
    lower = word.lower()
    if not lower.endswith("ing") or len(lower) < 6 or is_verb(lower, extra):
        return None
    stem = lower[:-3]
    candidates = [stem, stem + "e"]
    if len(stem) > 2 and stem[-1] == stem[-2]:
        candidates.append(stem[:-1])
    return next((c for c in candidates if is_verb(c, extra)), None)


# -- how a description opens ---------------------------------------------------------

# Markup before the first word: whitespace, Markdown, quotes, bullets, a list number ("1. "), and
# the pictographs a structured description puts before its headings ("🎯 Purpose:"; MCP220's).
_MARKUP = regex(r"(?:[\s#*_>`\"'“”‘’«»•·+=~|-]|\d{1,2}[.)](?=\s)|[\u2190-\u2bff\ufe0f\U0001f000-\U0001faff])+")
# A tag or label before the text: "[beta]", "(admin)", "NOTE:", or a section heading on its own line
# ("Purpose" then a newline), skipped when it is one of _LABELS or written in capitals.
_TAG = regex(r"(?:\[[^\]\n]{1,40}\]|\([^)\n]{1,40}\)|(?P<label>[A-Za-z]+)(?::(?=\s)|[ \t]*(?=\n)))\s*")
_LABELS = {"note", "deprecated", "beta", "alpha", "experimental", "important", "warning",
           "caution", "new", "preview", "internal", "admin", "legacy", "info", "nb",
           "purpose", "summary", "description", "overview"}  # (section headings of structured descriptions)
# A vendor tag or a feature name before the verb: "Notion | Retrieve a user", "Goal Seek: change
# the cell ...", "GitHub - Create an issue". Up to four words, then ':', '|' or a spaced dash.
_LABEL_PHRASE = regex(r"[^\W_][\w.&'’/+-]{0,24}(?: [^\W_][\w.&'’/+-]{0,24}){0,3}"
                           r"\s*(?::|\s\||\s[-–—])\s+")
_PLACEHOLDER = regex(r"\{\{?[^{}\n]*\}\}?|<[^<>\n]+>|\$\{?\w+\}?|%[sd]")
_WORD_AT = regex(r"[^\W_]+(?:['’-][^\W_]+)*")
_FILLERS = {"also", "just", "then", "first"}
NON_VERB_OPENERS = frozenset(
    "a an the this that these those it its you your we our i my they their here there "
    "when if for with in on of to from by as and or all any each every some".split()
)

# Openings that describe the tool instead of saying what it does: (regex, label).
_PREAMBLES = (
    (r"(?:this|the) (?:mcp )?(?:tool|function|endpoint|method|command|action|api|operation|"
     r"utility|plugin)\b", "This tool"),
    (r"an? (?:[\w-]+ ){0,3}?(?:tool|function|endpoint|method|command|utility|helper|wrapper|"
     r"api|plugin|service)\b", "A tool that"),
    (r"(?:tool|function|utility|helper|endpoint) (?:to|for|that|which)\b", "Tool to"),
    (r"helps\b(?: (?:you|users?|the (?:user|model|assistant|agent|llm)))?(?: to)?|help you(?: to)?",
     "Helps you"),
    (r"(?:allows|lets|enables|permits) (?:you|users?|one|the (?:user|model|assistant|agent|llm))"
     r"(?: to)?|allows to", "Allows you to"),
    (r"(?:(?:is|can be) )?used (?:to|for)\b", "Used to"),
    (r"use (?:this|the) (?:tool|function)\b(?: (?:to|for|when))?", "Use this tool to"),
    (r"(?:you|we|i|it) (?:can|may|will|should|allows?|lets?)\b", "You can"),
)


@cache
def preambles() -> tuple[tuple[re.Pattern, str], ...]:
    """The _PREAMBLES regexes, compiled when a text first opens like one (most runs: never)."""
    return tuple((regex(source, re.I), label) for source, label in _PREAMBLES)


# Matches exactly where one of _PREAMBLES does: one regex call rules them all out at once.
_ANY_PREAMBLE = regex("|".join(f"(?:{source})" for source, _ in _PREAMBLES), re.I)
_LINKING = {"that", "which", "to", "for", "will", "can", "you", "users", "user", "the", "model",
            "is", "used", "lets", "allows", "helps", "help", "be", "when"}


# Gestures written as two words, the first no verb of its own (mobile-mcp's "Long press ...").
_GESTURE_MODIFIERS = frozenset({"long", "double", "triple", "single", "right", "left", "middle"})
_GESTURES = frozenset({"press", "presses", "click", "clicks", "tap", "taps"})


def _skippable(word: str) -> bool:
    """A filler or an adverb before the verb: "also", "Recursively"."""
    lower = word.lower()
    return lower in _FILLERS or (lower.endswith("ly") and len(word) > 3)


def _first_words(text: str, count: int) -> list[str]:
    """``_WORD_AT.findall(text)[:count]``, without scanning past the last word wanted."""
    return [match.group() for match in islice(_WORD_AT.finditer(text), count)]


def _base_verb(word: str, extra: Iterable[str]) -> str | None:
    if is_verb(word, extra):
        return word.lower()
    return imperative_of(word, extra) or verb_of_gerund(word, extra)


def opening_problem(text: str, extra: Iterable[str] = (), *, labels: bool = True
                    ) -> tuple[str, str, str | None] | None:
    """Why ``text`` (a tool description) does not open with an action verb, as
    ``(kind, what it opens with, suggested verb or None)``, or None when it does.
    Kinds: ``preamble`` ("This tool ..."), ``gerund`` ("Getting"), ``not-verb`` (what it
    opens with is then the first word, or an adverb and the word after it: "Manually frobnicate").
    An imperative ("Get") and a third-person form ("Gets", "Fetches") are both
    action verbs. Leading markup, quotes, pictographs, list numbers, ``[TAG]``/``(tag)``,
    ``NOTE:``-style labels and section headings ("Purpose:"), and adverbs ("Recursively
    search") are skipped, and so is a short label
    followed by ':', '|' or a dash ("Notion | Retrieve", "Goal Seek: change") when a
    verb, a gerund or a preamble follows it. A template placeholder
    at the start ("{verb} the record") is not judged, and neither is a text that
    does not read as English (see ``reads_as_english``): the lexicon is English."""
    rest = text
    for _ in range(5):
        markup = _MARKUP.match(rest)
        if markup:
            rest = rest[markup.end():]
        tag = _TAG.match(rest)
        if not tag or (tag["label"] and tag["label"].lower() not in _LABELS and not tag["label"].isupper()):
            break
        rest = rest[tag.end():]
    if not rest or _PLACEHOLDER.match(rest):
        return None
    for pattern, label in preambles() if _ANY_PREAMBLE.match(rest) else ():
        found = pattern.match(rest)
        if found and not (rest[found.end():found.end() + 1].isalnum()):
            words = [w for w in _first_words(rest[found.end():found.end() + 80], 4)
                     if w.lower() not in _LINKING]
            return "preamble", found.group(0), _base_verb(words[0], extra) if words else None
    first = _WORD_AT.match(rest, 0, 200)  # (the first of the words below, when at the start)
    if first and is_verb(first.group(), extra):
        return None  # the common case, decided without finding the next words
    label = _LABEL_PHRASE.match(rest, 0, 200) if labels else None
    if label and label.end() < len(rest):
        # Judge what follows the label (once: no label chains). After a label, a noun phrase is
        # still reported by the text's own first word: "Weather alerts: a list" opens with "Weather".
        after = opening_problem(rest[label.end():], extra, labels=False)
        if after is None or after[0] != "not-verb":
            return after
    if first and not _skippable(first.group()):
        words = [first.group()]  # nothing to skip: the first word is the one to judge
    else:
        words = _first_words(rest[:200], 4)
    if not words:
        return None
    skipped = 0
    while (skipped < 2 and len(words) > skipped + 1 and not is_verb(words[skipped], extra)
           and _skippable(words[skipped]) and _base_verb(words[skipped + 1], extra)):
        skipped += 1
    word = words[skipped]
    if is_verb(word, extra) or imperative_of(word, extra):
        return None  # "Get" and "Gets" both say what the tool does
    if word.lower() in _GESTURE_MODIFIERS:  # "Long press on the screen", "Double click the cell": a verb of two words
        following = words[skipped + 1:skipped + 2] or _first_words(rest[:200], 2)[1:]
        if following and following[0].lower() in _GESTURES:
            return None
    base = verb_of_gerund(word, extra)
    if base:
        return "gerund", word, base
    if not reads_as_english(rest, extra):
        return None  # another language: the English lexicon cannot judge its first word
    if _skippable(word) and len(words) > skipped + 1:
        following = words[skipped + 1]
        if following.isalpha() and following.lower() not in NON_VERB_OPENERS and not _skippable(following):
            # "Manually initiate": the adverb is no verb; the word after it is the one to judge
            # (and the one that extra-verbs would need).
            return "not-verb", f"{word} {following}", None
    return "not-verb", word, None


# -- which language a description is written in ------------------------------------

# The commonest English function words, and nouns common in tool descriptions: with
# the lexicon's verbs, the evidence that a text is English.
ENGLISH_WORDS = frozenset("""
    a an the this that these those of to for in on at by with from into onto over under
    about above after before between through during without within via per around across
    against along among behind below beside beyond near off out up down and or but nor
    not no yes if when while whether than then so as is are was were be been being it
    its you your we our they their them he she his her which what who whom whose how
    where why all any each every some many more most other such only also can may will
    would should must shall could might do does did has have had using based given etc one
    two new current specified optional
    file data number value name id text string user static first second total path directory
    folder content result error time city weather token region item key field object argument
    parameter request response server client tool image url repository branch row column event
    task project email account details status summary title settings amount size default
""".split())
# The commonest function words of other Latin-script languages (German, French, Spanish,
# Italian, Portuguese, Dutch) that are not English words: evidence of another language.
FOREIGN_WORDS = frozenset("""
    de der die das den dem des ein eine einen einem einer und oder mit für von zu zum zur
    auf aus bei nach über unter ist sind wird werden nicht alle im ins vom le la les un
    une du et ou avec pour dans sur par est sont pas aux au ces cette el los las una
    unos unas y o con para en del al por es son sus lo il gli di della delle dei nel
    nella che è sono non da uma um os dos das na em é não het een van voor op met
    niet zijn wordt naar bij uit ook
""".split())
_ENGLISH_SHARE = 0.25  # of the words, at least this many known to be English
_SAMPLE_WORDS = 40


def _latin_letter(char: str) -> bool:
    """A letter of the Latin script (Basic Latin to Latin Extended-B, Latin Extended Additional)."""
    code = ord(char)
    return code < 0x250 or 0x1E00 <= code <= 0x1EFF


def reads_as_english(text: str, extra: Iterable[str] = ()) -> bool:
    """Whether ``text`` reads as English, the only language the verb lexicon knows.

    Script first: most of its letters must be Latin (Chinese, Japanese, Korean, Thai,
    Cyrillic, Arabic... text is not English). Then words, among the first 40 (numbers
    left out): at least a quarter of them must be English function words or nouns common
    in tool descriptions (``ENGLISH_WORDS``, also in the plural) or forms of a lexicon
    verb ("alerts", "fetching"), and they must outnumber two to one the words that show
    another language: the commonest function words of German, French, Spanish, Italian,
    Portuguese and Dutch (``FOREIGN_WORDS``) and words with accented letters ("météo")."""
    letters = [c for c in text[:400] if c.isalpha()]
    if not letters or sum(map(_latin_letter, letters)) * 2 <= len(letters):
        return False
    words = _first_words(text, _SAMPLE_WORDS)
    english = foreign = 0
    words = [word for word in words if not any(c.isdigit() for c in word)]  # "8601", "v2": no language
    for word in words:
        lower = word.lower()
        if not lower.isascii() or lower in FOREIGN_WORDS:
            foreign += 1
        elif lower in ENGLISH_WORDS or lower.rstrip("'’s") in ENGLISH_WORDS or _base_verb(lower, extra):
            english += 1
    return english > 2 * foreign and english >= _ENGLISH_SHARE * len(words)


# -- counting words -------------------------------------------------------------------

_WORD_TOKEN = regex(r"[^\W_]+(?:['’.-][^\W_]+)*")
# Scripts written without spaces between words, and about how many letters make a word:
# Han and kana (a Chinese or Japanese word is mostly two characters), Thai, Lao, Khmer
# and Burmese (about four letters; vowel signs and other marks are not counted).
_UNSPACED_SOURCE = (
    "(?P<cjk>[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+)"
    "|(?P<sea>[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff\ua9e0-\ua9ff\uaa60-\uaa7f]+)"
)
_LETTERS_PER_WORD = {"cjk": 2, "sea": 4}


@cache
def _unspaced() -> re.Pattern:
    """Compiled when a text is not ASCII (its character ranges take a while to compile)."""
    return regex(_UNSPACED_SOURCE)


def count_words(text: str, enough: int | None = None) -> int:
    """The number of words in ``text``: runs of letters and digits (with inner
    apostrophes, dots and hyphens); a run of a script written without spaces counts
    one word per two Han or kana characters, or per four Thai, Lao, Khmer or Burmese
    letters, rounded to nearest, at least one (a zero-width space between such words ends a run). Counting
    stops once ``enough`` words are found."""
    if text.isascii() or not _unspaced().search(text):
        count = 0
        for _ in _WORD_TOKEN.finditer(text):
            count += 1
            if count == enough:
                break
        return count
    count = 0
    for run in _unspaced().finditer(text):  # (the runs hold their scripts' vowel signs and marks)
        letters = sum(1 for c in run.group() if c.isalpha())
        per_word = _LETTERS_PER_WORD[run.lastgroup]
        count += max(1, (letters + per_word // 2) // per_word) if letters else 0
        if enough is not None and count >= enough:
            return count  # a long text need not be scanned to its end
    return count + count_words(_unspaced().sub(" ", text), None if enough is None else max(enough - count, 1))
