"""mcplint.emoji: real emoji are found, text symbols and letters are not."""

from __future__ import annotations

import pytest

from mcplint.emoji import find_emoji, strip_emoji


@pytest.mark.parametrize("text", [
    "Temperature in °C",
    "Price in € or £",
    "Café, naïve, Ærø",
    "Maps a → b, a ⇒ b, ← back",
    "日本語のテキストを翻訳する",
    "한국어 텍스트",
    "Tick ✓ when done, cross ✗",
    "Heavy check ✔ and warning ⚠ in text presentation",
    "Copyright © 2025, Acme™, Registered®",
    "Math: ∑ ∫ √ ≤ ≥ ≠ ∞ π",
    "Box drawing ─│┌┐ and bullets • ◦ ▪",
    "Chess ♔ and card suits ♠ ♣",
    "Digits 1 2 3, # and * alone",
    "Text-presentation watch ⌚\ufe0e",
    "",
])
def test_no_emoji(text):
    assert find_emoji(text) == []


@pytest.mark.parametrize("text,expected", [
    ("Deploy fast 🚀", ["🚀"]),
    ("We ❤️ tools", ["❤️"]),
    ("Nice 👍🏽 work", ["👍🏽"]),
    ("Made in 🇫🇷", ["🇫🇷"]),
    ("Step 1️⃣ then 2️⃣", ["1️⃣", "2️⃣"]),
    ("Family 👨‍👩‍👧 plan", ["👨‍👩‍👧"]),
    ("Rainbow flag 🏳️‍🌈", ["🏳️‍🌈"]),
    ("Scotland 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", ["🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"]),
    ("Done ✅ and ⭐ and ✨", ["✅", "⭐", "✨"]),
    ("Careful ⚠️ here", ["⚠️"]),
    ("Tick ✓️ with the emoji selector", ["✓️"]),
    ("Pointing ☝🏽 up", ["☝🏽"]),
    ("Smile 😀😀", ["😀", "😀"]),
    ("Info ℹ️", ["ℹ️"]),
    ("Coloured 🟢 circle", ["🟢"]),
    ("Newer 🫠 emoji", ["🫠"]),
])
def test_emoji(text, expected):
    assert find_emoji(text) == expected


def test_strip_emoji():
    assert strip_emoji("🚀 Deploy ❤️ now 👨‍👩‍👧") == " Deploy  now "
    assert strip_emoji("°C → °F") == "°C → °F"
