"""mcplint.unicode_scan: hidden characters, with legitimate uses left alone."""

from __future__ import annotations

import pytest

from mcplint.unicode_scan import char_label, context_before, find_hidden, may_hold_hidden, strip_ansi

TAGS = "".join(chr(0xE0000 + ord(c)) for c in "ignore previous")
SCOTLAND = "\U0001F3F4" + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + "\U000E007F"


@pytest.mark.parametrize("text,index,kind,first", [
    ("pass\u200bword", 4, "invisible", 0x200B),
    ("\ufeffGet the time", 0, "invisible", 0xFEFF),
    ("Get\u2060time", 3, "invisible", 0x2060),
    ("soft\u00ad hyphen", 4, "invisible", 0x00AD),  # not between two letters
    ("co\u00ad\u00adoperate", 2, "invisible", 0x00AD),  # a run of soft hyphens
    ("\u00adstart", 0, "invisible", 0x00AD),
    ("e\u200bmail", 1, "invisible", 0x200B),  # ZWSP between Latin letters
    ("ไฟล์\u200b\u200bใน", 4, "invisible", 0x200B),  # a run of ZWSP, even in Thai
    ("ไฟล์\u200b in", 4, "invisible", 0x200B),  # next to a space
    ("file\u200bไฟล์", 4, "invisible", 0x200B),  # Latin on one side
    ("ក\u200b\u17b4", 1, "invisible", 0x200B),  # next to a Khmer invisible vowel, itself reported
    ("a\u200db", 1, "zero-width joiner", 0x200D),
    ("a\u200cb", 1, "zero-width joiner", 0x200C),
    ("\u200dleading", 0, "zero-width joiner", 0x200D),
    ("admin\u202e txt.exe", 5, "bidi", 0x202E),
    ("x\u2066y\u2069", 1, "bidi", 0x2066),
    ("Latin only\u200e", 10, "bidi", 0x200E),
    ("bell\x07", 4, "control", 0x07),
    ("nul\x00", 3, "control", 0x00),
    ("del\x7f", 3, "control", 0x7F),
    ("c1\x85", 2, "control", 0x85),
    ("over\rwrite", 4, "control", 0x0D),
    ("Add." + TAGS, 4, "tag", 0xE0069),
    ("👍" + "\ufe0f\ufe0e\ufe0f", 1, "variation-selector", 0xFE0F),
    ("Hangul filler\u3164", 13, "invisible", 0x3164),
])
def test_hidden(text, index, kind, first):
    found = find_hidden(text)
    assert found and found[0].index == index and found[0].kind == kind and ord(found[0].text[0]) == first


@pytest.mark.parametrize("text", [
    "Get the weather for a city.\nUnits:\tmetric.\r\nDone.",
    "Family: 👨‍👩‍👧, coder 👩🏽‍💻, heart on fire ❤️‍🔥, red heart ❤️, text heart ❤︎, keycap #️⃣ 1️⃣",
    "Scotland " + SCOTLAND,
    "می‌خواهم",  # Persian ZWNJ between Arabic-script letters
    "क्‍ष",  # Devanagari ZWJ
    "שלום\u200f 123 and \u200eabc",  # marks in text with right-to-left letters
    "漢\U000E0100字",  # one ideographic variation selector
    "ค้นหา\u200bไฟล์\u200bใน\u200bโฟลเดอร์",  # Thai: ZWSP marks word breaks
    "ຄົ້ນຫາ\u200bໄຟລ໌",  # Lao
    "ស្វែងរក\u200bឯកសារ",  # Khmer
    "ဖိုင်\u200bများ\u200bကို\u200bရှာ",  # Burmese, ZWSP after a combining mark
    "co\u00adoperate, Donau\u00addampf\u00adschiff, aujour\u00add'hui",  # hyphenation points
    "",
    "plain ASCII " * 100,
])
def test_legitimate_text(text):
    assert find_hidden(text) == []


def test_tag_runs_are_decoded():
    (hidden,) = find_hidden("Add two numbers." + TAGS)
    assert hidden.decoded == "ignore previous"
    assert hidden.label == "15 tag characters starting with U+E0069 TAG LATIN SMALL LETTER I spelling 'ignore previous'"


def test_variation_selector_smuggling_is_decoded():
    payload = "".join(chr(0xE0100 + b - 16) if b >= 16 else chr(0xFE00 + b) for b in b"hi there")
    (hidden,) = find_hidden("😀" + payload)
    assert hidden.kind == "variation-selector" and hidden.decoded == "hi there"


def test_a_tag_run_that_is_not_a_flag_is_reported():
    assert find_hidden("no flag " + SCOTLAND[1:])[0].kind == "tag"
    assert find_hidden("\U0001F3F4" + TAGS + "\U000E007F")[0].kind == "tag"  # too long, not a subdivision


@pytest.mark.parametrize("text,sequence", [
    ("\x1b[31mred\x1b[0m", "\x1b[31m"),
    ("\x1b[2K\x1b[1G", "\x1b[2K"),
    ("\x1b]0;title\x07rest", "\x1b]0;title\x07"),
    ("\x1b]8;;https://evil.example\x1b\\link", "\x1b]8;;https://evil.example\x1b\\"),
    ("\x9b31m", "\x9b31m"),
])
def test_ansi_sequences_are_one_finding_each(text, sequence):
    found = find_hidden(text)
    assert found[0].kind == "ansi" and found[0].text == sequence
    assert found[0].label.startswith("ANSI escape sequence '\\x1b") or found[0].label.startswith("ANSI escape sequence '\\x9b")


def test_lone_escape_is_a_control_character():
    (hidden,) = find_hidden("a\x1b")
    assert hidden.kind == "control" and hidden.label == "U+001B ESCAPE"


def test_word_breaks_are_hidden_in_identifiers():
    """A tool name is no prose: "get\u00adweather" shows as "getweather"."""
    assert [h.index for h in find_hidden("get\u00adweather", prose=False)] == [3]
    assert [h.index for h in find_hidden("ไฟล์\u200bใน", prose=False)] == [4]
    assert find_hidden("get\u00adweather") == [] and find_hidden("ไฟล์\u200bใน") == []


def test_every_occurrence_is_reported_in_order():
    found = find_hidden("a\u200bb\u200bc\x07")
    assert [h.index for h in found] == [1, 3, 5]


def test_char_label_names_controls():
    assert char_label("\x00") == "U+0000 NULL"
    assert char_label("\x1b") == "U+001B ESCAPE"
    assert char_label("\x7f") == "U+007F DELETE"
    assert char_label("\x9b") == "U+009B CONTROL SEQUENCE INTRODUCER"
    assert char_label("\x90") == "U+0090 C1 CONTROL CHARACTER"
    assert char_label("\u200b") == "U+200B ZERO WIDTH SPACE"


def test_helpers():
    assert strip_ansi("\x1b[1mbold\x1b[0m") == "bold"
    assert context_before("Get the weather now\u200b", 19, width=11) == "weather now"
    assert context_before("x\ny\u200b", 3) == "x\\ny"


def test_clean_text_takes_one_regex_search(monkeypatch):
    # (What it costs is benchmarks/'s business; what is checked here is that clean text,
    # nearly all text, never reaches the per-character loop.)
    from mcplint import unicode_scan

    searches = []

    class Counting:
        def search(self, *args):
            searches.append(args)
            return real.search(*args)

    real = unicode_scan._CANDIDATE
    monkeypatch.setattr(unicode_scan, "_CANDIDATE", Counting())
    assert find_hidden("Read the complete contents of a file from the file system as text. " * 20) == []
    assert len(searches) == 1
    assert find_hidden("a\u200bb") and len(searches) > 2  # text with a candidate is walked


@pytest.mark.parametrize("source,expected", [
    ('{"description": "Get the time."}', False),
    ('{"description": "Line one\\nline two \\"quoted\\" C:\\\\\\\\path"}\r\n', False),  # \n \" \\ escapes, CRLF
    ('{"description": "Café ☕ 漢字"}', False),  # non-ASCII but nothing hidden
    ('{"description": "a\u200bb"}', True),  # raw zero-width space
    ('{"description": "a\\u200bb"}', True),  # escaped: could be anything
    ('description: "bell \\a"', True),  # YAML escape
    ("description: tab\there", False),
    ('{"d": "👨\u200d👩"}', True),  # candidates are judged per text later, not here
])
def test_may_hide_prefilters_whole_documents(source, expected):
    from mcplint.unicode_scan import may_hide

    assert may_hide(source) is expected


@pytest.mark.parametrize("source,expected", [
    ('{"d": "rocket \\ud83d\\ude80, caf\\u00e9, \\u201cquoted\\u201d, \\u2014"}', False),  # json.dumps(ensure_ascii)
    ('{"d": "a\\u200Bb"}', True),
    ('{"d": "tag \\udb40\\udc49"}', True),
    ('{"d": "esc \\u001b[31m"}', True),
    ('{"d": "bs \\b"}', True),
    ('{"d": "crlf \\r\\n"}', True),  # conservative: judged per text later
    ('d: "\\x1b"', True),
    ('{"d": "C:\\\\\\\\u200b is a path"}', False),  # an escaped backslash, then plain text
])
def test_may_hide_reads_escapes(source, expected):
    from mcplint.unicode_scan import may_hide

    assert may_hide(source) is expected


def test_may_hold_hidden_is_a_necessary_condition_of_find_hidden():
    """False only where find_hidden finds nothing: every ASCII character and a few others,
    alone and inside text, for prose and identifiers."""
    chars = [chr(i) for i in range(0x100)] + ["\u200b", "\u202e", "\U000e0041", "\ufe0f", "\u00e9"]
    for char in chars:
        for text in (char, f"a{char}b", f"line one\n\tline {char}two\r\n"):
            if find_hidden(text) or find_hidden(text, prose=False):
                assert may_hold_hidden(text), repr(text)
    assert not may_hold_hidden("12 passed in 0.4s\n\tno warnings")
    assert may_hold_hidden("\x1b[32m12 passed\x1b[0m") and may_hold_hidden("a\rb") and may_hold_hidden("caf\u00e9")
