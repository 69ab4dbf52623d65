"""Find real emoji in text, without an emoji data dependency.

An emoji here is what renders as a coloured pictograph: a character whose default
presentation is emoji (🚀, ⭐, ✅), any symbol followed by the emoji variation selector
U+FE0F (❤️, ⚠️, ✓️), a keycap (1️⃣), a flag (🇫🇷, 🏴 tag sequences), with its skin-tone
modifiers and ZWJ-joined parts (👍🏽, 👨‍👩‍👧) reported as one cluster.

Not emoji: text symbols such as °, €, →, ✓, ✔, ©, ™, ⚠ (without U+FE0F), letters of
any script (é, 日本語), math symbols, box drawing, arrows, dingbats with text
presentation. Code point data follows Unicode's emoji-data.txt (Emoji_Presentation and
Extended_Pictographic) for the blocks that matter.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right

from mcplint.regex_cache import regex

VS16 = "\ufe0f"  # emoji presentation selector
VS15 = "\ufe0e"  # text presentation selector
ZWJ = "\u200d"
KEYCAP = "\u20e3"

# Characters shown as emoji by default (Emoji_Presentation=Yes), as ranges.
_PRESENTATION = (
    # BMP
    (0x231A, 0x231B), (0x23E9, 0x23EC), (0x23F0, 0x23F0), (0x23F3, 0x23F3),
    (0x25FD, 0x25FE), (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F),
    (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE),
    (0x26C4, 0x26C5), (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA),
    (0x26F2, 0x26F3), (0x26F5, 0x26F5), (0x26FA, 0x26FA), (0x26FD, 0x26FD),
    (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728), (0x274C, 0x274C),
    (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
    (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
    # Mahjong, playing cards, enclosed alphanumerics and ideographs
    (0x1F004, 0x1F004), (0x1F0CF, 0x1F0CF), (0x1F18E, 0x1F18E), (0x1F191, 0x1F19A),
    (0x1F1E6, 0x1F1FF),  # regional indicators (flags come in pairs)
    (0x1F201, 0x1F201), (0x1F21A, 0x1F21A), (0x1F22F, 0x1F22F), (0x1F232, 0x1F236),
    (0x1F238, 0x1F23A), (0x1F250, 0x1F251),
    # pictograph blocks: every character in them is an emoji or reserved for one
    (0x1F300, 0x1F64F),  # Misc Symbols and Pictographs, Emoticons
    (0x1F680, 0x1F6FF),  # Transport and Map Symbols
    (0x1F7E0, 0x1F7EB), (0x1F7F0, 0x1F7F0),  # coloured circles and squares
    (0x1F90C, 0x1F9FF),  # Supplemental Symbols and Pictographs
    (0x1FA70, 0x1FAFF),  # Symbols and Pictographs Extended-A
)

# Emoji with text presentation by default: emoji only with U+FE0F or a skin tone.
# Listed for the non-symbol ones (ℹ is a letter, ‼ ⁉ 〰 〽 punctuation); any other
# symbol followed by U+FE0F counts too.
_TEXT_DEFAULT_NON_SYMBOLS = frozenset("\u203c\u2049\u2139\u3030\u303d")

_MODIFIERS = (0x1F3FB, 0x1F3FF)  # skin tones
_TAGS = (0xE0020, 0xE007F)  # subdivision flag tags (🏴 + tags + cancel tag)

_STARTS = "".join(
    re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
    for a, b in _PRESENTATION
)
# Where an emoji may start: a presentation character, or anything before U+FE0F /
# a keycap / a skin tone. Cheap to search; the exact check is in find_emoji().
_CANDIDATE = regex(f"[{_STARTS}]|.(?=[\ufe0f\u20e3\U0001F3FB-\U0001F3FF])", re.S)


_FIRSTS = [a for a, _ in _PRESENTATION]  # (the ranges are sorted and disjoint: bisect them)
_LASTS = [b for _, b in _PRESENTATION]


def _is_presentation(ch: str) -> bool:
    index = bisect_right(_FIRSTS, ord(ch)) - 1
    return index >= 0 and ord(ch) <= _LASTS[index]


def _emoji_capable(ch: str) -> bool:
    """A character that U+FE0F (or a skin tone) turns into an emoji."""
    return ch in _TEXT_DEFAULT_NON_SYMBOLS or unicodedata.category(ch).startswith("S")


def _cluster_end(text: str, i: int) -> int:
    """End of the emoji cluster whose base character is at ``i``: variation
    selectors, skin tones, tags and ZWJ-joined emoji are absorbed."""
    n = len(text)
    j = i + 1
    if 0x1F1E6 <= ord(text[i]) <= 0x1F1FF and j < n and 0x1F1E6 <= ord(text[j]) <= 0x1F1FF:
        return j + 1  # a flag: two regional indicators
    while j < n:
        cp = ord(text[j])
        if text[j] in (VS16, KEYCAP) or _MODIFIERS[0] <= cp <= _MODIFIERS[1] or _TAGS[0] <= cp <= _TAGS[1]:
            j += 1
        elif text[j] == ZWJ and j + 1 < n and (_is_presentation(text[j + 1]) or _emoji_capable(text[j + 1])):
            j += 2
        else:
            break
    return j


def find_emoji(text: str) -> list[str]:
    """The emoji in ``text``, one string per cluster, in order of appearance."""
    if text.isascii():
        return []
    found: list[str] = []
    pos = 0
    for match in _CANDIDATE.finditer(text):
        i = match.start()
        if i < pos:
            continue
        ch = text[i]
        follower = text[i + 1] if i + 1 < len(text) else ""
        if _is_presentation(ch):
            if follower == VS15:  # explicitly asked for text presentation
                continue
        elif ch in "0123456789#*":
            if not (follower == KEYCAP or (follower == VS16 and text[i + 2:i + 3] == KEYCAP)):
                continue
        elif not _emoji_capable(ch):
            continue
        end = _cluster_end(text, i)
        found.append(text[i:end])
        pos = end
    return found


_ESCAPE = regex(r"\\[uU]")  # (a regex finds it in a large text faster than `in` does)


def may_contain_emoji(source: str) -> bool:
    """False when a whole JSON or YAML source text can hold no emoji at all: it is
    ASCII and has no ``\\u``/``\\U`` escape that could spell one. A fast pre-check."""
    return not source.isascii() or _ESCAPE.search(source) is not None


def strip_emoji(text: str) -> str:
    """``text`` with its emoji removed."""
    for cluster in find_emoji(text):
        text = text.replace(cluster, "", 1)
    return text
