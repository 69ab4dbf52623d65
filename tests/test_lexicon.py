"""mcplint.lexicon (verb forms, description openings, marketing phrases) and mcplint.identifiers (styles)."""

from __future__ import annotations

import time

import pytest

from mcplint.identifiers import matches_style, split_words, to_style
from mcplint.lexicon import (
    IMPERATIVE_VERBS, count_words, imperative_of, is_verb, opening_problem, reads_as_english, verb_of_gerund,
)
from mcplint.marketing import MAX_EXAMPLE_LOOKS, MarketingMatcher


def test_lexicon_is_lowercase_base_forms():
    assert len(IMPERATIVE_VERBS) > 500
    assert all(v == v.lower() and " " not in v for v in IMPERATIVE_VERBS)
    for verb in ("get", "list", "create", "search", "fetch", "read", "write", "update", "delete",
                 "run", "execute", "send", "calculate", "convert", "find", "return", "retrieve",
                 "generate", "add", "remove", "set", "check", "validate", "query", "open", "close",
                 "move", "copy", "rename", "summarize", "translate", "analyze", "summarise", "analyse",
                 "initiate", "initialize", "begin", "start", "launch", "trigger", "kick", "peek", "preview"):
        assert verb in IMPERATIVE_VERBS, verb


@pytest.mark.parametrize("word,base", [
    ("Gets", "get"), ("Returns", "return"), ("Retrieves", "retrieve"), ("Searches", "search"),
    ("Lists", "list"), ("Fetches", "fetch"), ("Applies", "apply"), ("Queries", "query"),
    ("Does", "do"), ("Goes", "go"), ("Echoes", "echo"), ("Uses", "use"), ("Deletes", "delete"),
    ("Processes", "process"), ("Caches", "cache"), ("Unstages", "unstage"), ("Switches", "switch"),
])
def test_imperative_of_third_person(word, base):
    assert imperative_of(word) == base


@pytest.mark.parametrize("word", ["Get", "Process", "Access", "Address", "News", "Status", "Is", "Has", "This"])
def test_imperative_of_non_third_person(word):
    assert imperative_of(word) is None


def test_extra_verbs():
    assert not is_verb("frobnicate")
    assert is_verb("Frobnicate", {"frobnicate"})
    assert imperative_of("Frobnicates", {"frobnicate"}) == "frobnicate"


def test_prefixed_and_hyphenated_verbs():
    assert is_verb("reindex") and is_verb("unsubscribe") and is_verb("re-index") and is_verb("dry-run")
    assert not is_verb("delet")  # "de" + "let" is too short to count


@pytest.mark.parametrize("word,base", [("Fetching", "fetch"), ("Creating", "create"), ("Getting", "get"),
                                       ("Running", "run"), ("String", None), ("Ping", None)])
def test_verb_of_gerund(word, base):
    assert verb_of_gerund(word) == base


@pytest.mark.parametrize("text,expected", [
    ("Get the weather.", None),
    ("get the weather", None),
    ("**Search** the web", None),
    ("[BETA] Create an issue", None),
    ("DEPRECATED: Use read_text_file instead.", None),
    ("Recursively search for files", None),
    ("{verb} the record", None),
    ("Gets the weather", None),  # the third person is an action verb too
    ("Fetches a page and returns it", None),
    ("Ruft das Wetter für eine Stadt ab", None),  # not English: not judged
    ("天気予報を取得します", None),
    ("Fetching data", ("gerund", "Fetching", "fetch")),
    ("This tool searches files", ("preamble", "This tool", "search")),
    ("A tool that lists users", ("preamble", "A tool", "list")),
    ("Allows you to send mail", ("preamble", "Allows you to", "send")),
    ("Helps analyze problems", ("preamble", "Helps", "analyze")),
    ("Note: this tool is slow", ("preamble", "this tool", None)),
    ("Weather for a city", ("not-verb", "Weather", None)),
    # Verbs of starting and looking (workspace's start_google_auth, chroma's peek_collection).
    ("Initiate the OAuth flow for the user and return the URL to open.", None),
    ("Manually initiate the OAuth flow for the user, then return the URL to open.", None),
    ("Peek at documents in a collection.", None),
    ("Begin a new session for the user.", None),
    ("Optionally return the raw HTML of the page.", None),
    # After an adverb, the word that follows is judged (and named): "Manually" is no verb to add.
    ("Manually frobnicate the widget for the user.", ("not-verb", "Manually frobnicate", None)),
    ("Only the owner of the file may see it.", ("not-verb", "Only", None)),
])
def test_opening_problem(text, expected):
    assert opening_problem(text) == expected


@pytest.mark.parametrize("text,english", [
    ("Weather alerts for a US state.", True),
    ("The weather forecast for a city.", True),
    ("Kubernetes pod logs", True),  # "logs": a form of a lexicon verb
    ("Wrapper around the GitHub API.", True),
    ("Current thought number (numeric value, e.g., 1, 2, 3)", True),  # numbers are no evidence
    ("Static document file exposed from /docs: architecture.md", True),  # common nouns
    ("Crée une page de configuration", False),  # English-looking nouns, French articles
    ("Ruft die aktuelle Wettervorhersage für eine Stadt ab.", False),
    ("Erstellt ein neues Issue im Repository.", False),  # one English noun, one German article
    ("Zoek bestanden in een map", False),  # Dutch: "in" is outnumbered
    ("Récupère la météo actuelle pour une ville donnée.", False),
    ("Envía un correo a un contacto", False),
    ("获取指定城市的天气预报。", False),
    ("Получает прогноз погоды для города.", False),
    ("Wetter", False),  # no evidence either way: not judged
])
def test_reads_as_english(text, english):
    assert reads_as_english(text) is english


@pytest.mark.parametrize("text,count", [
    ("Search", 1), ("List Git branches", 3), ("**Ping** — !!", 1), ("don't re-index v1.2", 3),
    ("搜索", 1), ("搜索文件", 2), ("获取指定城市的天气预报。", 6),
    ("ค้นหาไฟล์", 2),  # Thai vowel signs and marks are not letters of their own
    ("ស្វែងរក\u200bឯកសារ", 2),  # Khmer words split by ZWSP
    ("GitHub上的issue", 3), ("도시의 날씨 예보를", 3),
])
def test_count_words(text, count):
    assert count_words(text) == count


def test_count_words_stops_at_enough():
    assert count_words("one two three four five", enough=3) == 3
    assert count_words("获取指定城市的天气预报 and more words", enough=3) >= 3


@pytest.mark.parametrize("text,kinds", [
    ("Blazing fast and powerful", ["hype", "hype"]),
    ("Hey there! Happy to help!!", ["friendly", "friendly", "friendly"]),
    ("Files, folders, etc.", ["vague"]),
    ("Files, folders and more.", ["vague"]),
    ("Read /etc/hosts", []),
    ("etcd keys", []),
    ("and more than ten", []),
    ("magic bytes, seamless texture, unmatched brackets", []),
    ("!!value is a double negation", []),
    # An open ending after values shown as examples ends a list of examples (basic-memory, git-mcp-server).
    ('Can be "guide", "report", "person", etc.', []),
    ("Formats: `json`, `csv` and more.", []),
    ("on protected branches (main, master, production, etc.)", []),
    ("(1 for first parent, 2 for second, etc.)", []),
    ("Find files, e.g. logs, configs, etc.", []),
    ('Can be "guide", etc.', ["vague"]),  # one value is not a list
    ('Values "x", "y", or stuff', ["vague"]),  # only the open endings
    ("Look up (orders) invoices, etc.", ["vague"]),  # the list is not inside the parentheses
    # Single-quoted values, each followed by what it means (perplexity's search_recency_filter).
    ("Use 'hour' for very recent news, 'day' for today's updates, 'week' for this week, etc.", []),
    ('Sort with "asc" for oldest first, "desc" for newest first, etc.', []),
    ("Use 'hour' for very recent news, etc.", ["vague"]),  # one value is not a list
    ("Files you don't own, folders you can't read, etc.", ["vague"]),  # apostrophes are not quotes
])
def test_marketing_matcher(text, kinds):
    assert [kind for kind, _ in MarketingMatcher().findall(text)] == kinds


def test_marketing_matcher_options():
    pattern = MarketingMatcher(extra=["synergy"], allow=["powerful"])
    assert pattern.findall("Powerful synergy") == [("banned", "synergy")]
    assert MarketingMatcher(extra=["+++"]).findall("Done+++ now") == [("banned", "+++")]
    assert MarketingMatcher().findall("A super fast, very powerful tool") == [("hype", "super fast"), ("hype", "very powerful")]


def test_extra_phrases_are_looked_up_by_their_words_in_a_row():
    """A phrase of several words is found by its words in a row, not by a regex per phrase run on
    every text holding one of its words: 15,000 `the word<i>` phrases made each text containing
    "the" run them all (70 s on 3,000 tools, attack round 5)."""
    matcher = MarketingMatcher(extra=[f"the word{i}" for i in range(15_000)] + ["next level", "très rapide"])
    assert matcher.phrases[("the", "word")]  # word<i>: the letters only, every regex behind one lookup
    assert matcher.findall("Takes it to the NEXT\n level, très  rapide.") == [("banned", "NEXT\n level"),
                                                                              ("banned", "très  rapide")]
    assert matcher.findall("Next-level") == []  # the words are there, the phrase is not: the regex decides
    assert matcher.findall("Get the word12 of it") == [("banned", "the word12")]
    started = time.monotonic()
    for i in range(3_000):
        assert matcher.findall(f"Get the item number {i} from the store.") == []
    assert time.monotonic() - started < 10  # a bound, not a speed target: linear is well under a second


def test_marketing_matcher_is_linear_in_quotes_and_phrases():
    """Thousands of quoted values and vague phrases in one text: each phrase finds its quote by
    bisection and looks back for examples at most MAX_EXAMPLE_LOOKS times (a scan of every quote
    for every phrase took 16 s on this text)."""
    text = ('"aaaa" ,' * 50 + " etc. ") * 2000
    started = time.monotonic()
    found = MarketingMatcher().findall(text)
    assert time.monotonic() - started < 3
    assert len(found) == 2000 - MAX_EXAMPLE_LOOKS  # the first ones end lists of examples; past the cap, reported


@pytest.mark.parametrize("name,snake", [
    ("getUser", "get_user"), ("get-user", "get_user"), ("Get_User", "get_user"),
    ("getHTTPResponse", "get_http_response"), ("listS3Buckets", "list_s3_buckets"),
    ("get_v2_data", "get_v2_data"),
])
def test_to_snake(name, snake):
    assert to_style(name, "snake_case") == snake


def test_styles():
    assert all(matches_style(n, "snake_case") for n in ("get_v2_data", "list_s3_buckets", "search"))
    assert not any(matches_style(n, "snake_case") for n in ("getUser", "get-user", "Get_User", "_x", "a__b"))
    assert matches_style("getUser", "camelCase") and not matches_style("GetUser", "camelCase")
    assert matches_style("get-user", "kebab-case") and not matches_style("get_user", "kebab-case")
    assert matches_style("Any Thing!", "any")
    assert to_style("get_user_by_id", "camelCase") == "getUserById"
    assert to_style("getUserById", "kebab-case") == "get-user-by-id"
    assert split_words("GZip") == ["g", "zip"]
