"""Credentials in text: private keys, cloud keys, API tokens and JWTs.

Every pattern keys on something only that credential has: a fixed prefix
(``AKIA``, ``ghp_``, ``glpat-``, ``xoxb-``, ``sk_live_``), an embedded marker
(OpenAI keys carry ``T3BlbkFJ``, base64 for "OpenAI"), a PEM armour line followed
by key material, a labelled assignment (``aws_secret_access_key = ...``,
``AccountKey=...``), or a JWT whose first segment decodes to a JSON header with
``alg``. Nothing is reported for entropy alone, so UUIDs, hex digests, base64
images and random identifiers stay silent, and so do the documented placeholder
keys (``AKIAIOSFODNN7EXAMPLE`` and friends).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass

from mcplint.lazy_regex import LazyPattern
from mcplint.regex_cache import regex

# A token must not continue a run of letters and digits on either side: inside a hash or
# an identifier a prefix such as "AKIA" is just four letters.
_B = r"(?<![A-Za-z0-9_-])"
_E = r"(?![A-Za-z0-9_-])"

# (what it is, pattern). The group named "key" (if any) is the secret itself. Compiled on first
# use (LazyPattern): most runs never meet a trigger, and compiling them all cost 5 ms of every start.
_PATTERN_SOURCES: tuple[tuple[str, str], ...] = (
    ("a private key", (  # the armour line, with key material after it (not a "..." placeholder)
        r"-----BEGIN (?:RSA |DSA |EC |OPENSSH |ENCRYPTED |PGP |SSH2 )?PRIVATE KEY(?: BLOCK)?-----"
        r"(?=[\s\S]{0,400}?[A-Za-z0-9+/]{40})")),
    ("an AWS access key ID", _B + r"(?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[A-Z0-9]{16}" + _E),
    ("an AWS secret access key", (
        r"(?i:aws_?secret_?access_?key|secret_?access_?key)[\"']?\s*[:=]\s*[\"']?(?P<key>[A-Za-z0-9/+]{40})" + _E)),
    ("a Google API key", _B + r"AIza[0-9A-Za-z_-]{35}" + _E),
    ("a Google OAuth client secret", _B + r"GOCSPX-[A-Za-z0-9_-]{28}" + _E),
    ("a Google OAuth access token", _B + r"ya29\.[0-9A-Za-z_-]{30,}" + _E),
    ("an Azure storage account key", r"AccountKey=(?P<key>[A-Za-z0-9+/]{86}==)"),
    ("an Azure shared access signature", (
        r"[?&;]sv=\d{4}-\d\d-\d\d&[^\s\"'<>]*?\bsig=(?P<key>[A-Za-z0-9%+/]{30,}={0,2}(?:%3[Dd]){0,2})")),
    ("an Azure AD client secret", _B + r"[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}" + _E),
    ("a GitHub token", _B + r"(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})" + _E),
    ("a GitLab token", _B + r"gl(?:pat|dt|rt|cbt|ptt|oas)-[A-Za-z0-9_-]{20,}" + _E),
    ("a Slack token", _B + r"(?:xox[abposre]-(?:[0-9]+-){1,3}[0-9A-Za-z]{16,}|xapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{32,})" + _E),
    ("a Slack webhook URL", (
        r"https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/(?P<key>[A-Za-z0-9]{24})")),
    ("a Stripe secret key", _B + r"(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{24,}" + _E),
    ("an OpenAI API key", (
        _B + r"sk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,}" + _E)),
    ("an Anthropic API key", _B + r"sk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{80,}" + _E),
    ("an npm token", _B + r"npm_[A-Za-z0-9]{36}" + _E),
    ("a PyPI token", _B + r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}" + _E),
    ("a JSON Web Token", _B + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}" + _E),
)

# One of these must occur for any pattern above to match: clean text costs one search.
_TRIGGER = regex(
    r"PRIVATE KEY|AKIA|ASIA|ABIA|ACCA|AROA|AIDA|(?i:secret_?access_?key)|AIza|GOCSPX-|ya29\.|AccountKey="
    r"|sig=|Q~|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|cbt|ptt|oas)-|xox|xapp-|hooks\.slack\.com"
    r"|[sr]k_(?:live|test)_|T3BlbkFJ|sk-ant-|npm_|pypi-|eyJ"
)

# Placeholders from vendors' documentation: showing one is not a leak.
_PLACEHOLDER_SOURCE = r"EXAMPLE|XXXXXXXX|xxxxxxxx|0000000000000000|1234567890abcdef|your[_-]?(?:api[_-]?)?key"


_PATTERNS = tuple((what, LazyPattern(source)) for what, source in _PATTERN_SOURCES)
_PLACEHOLDER = LazyPattern(_PLACEHOLDER_SOURCE, re.I)


@dataclass(frozen=True, slots=True)
class Secret:
    what: str  # "an AWS access key ID"
    index: int  # where the secret starts in the text
    text: str  # the secret itself

    @property
    def redacted(self) -> str:
        """The first few characters, enough to recognise the credential, not to use it."""
        keep = 10 if self.text.startswith("-----") else 4
        return self.text[:keep] + "…"


# Every credential above holds a run of 16 or more characters without a space, and
# prose rarely does: this check is several times cheaper than the trigger search.
_TOKEN_CHARS = "A-Za-z0-9_~.+/=%-"
_LONG_TOKEN = regex(f"[{_TOKEN_CHARS}]{{16}}")
# The same test for ASCII text, in C without the regex engine (several times faster on prose,
# a tool result of a few hundred words): token characters become "a", the rest a space.
_TOKEN_TABLE = bytes(0x61 if re.fullmatch(f"[{_TOKEN_CHARS}]", chr(i)) else 0x20 for i in range(256))
_RUN = b"a" * 16


def has_long_token(text: str) -> bool:
    """Whether ``text`` holds 16 token characters in a row (which every credential does)."""
    if text.isascii():
        return _RUN in text.encode("ascii").translate(_TOKEN_TABLE)
    return _LONG_TOKEN.search(text) is not None


def may_hold_secret(text: str) -> bool:
    """A cheap pre-check: False when no pattern can match."""
    return has_long_token(text) and _TRIGGER.search(text) is not None


def find_secrets(text: str) -> list[Secret]:
    """Every credential in ``text``, in order of appearance (overlaps reported once)."""
    if not may_hold_secret(text):
        return []
    found: list[Secret] = []
    for what, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            start, secret = (match.start("key"), match.group("key")) if "key" in pattern.groupindex \
                else (match.start(), match.group())
            if _PLACEHOLDER.search(secret) or (what == "a JSON Web Token" and not _is_jwt(secret)):
                continue
            found.append(Secret(what, start, secret))
    found.sort(key=lambda s: (s.index, -len(s.text)))
    kept: list[Secret] = []
    for secret in found:
        if kept and secret.index < kept[-1].index + len(kept[-1].text):
            continue  # inside one already found (a JWT inside a URL, say)
        kept.append(secret)
    return kept


def new_secret(text: str, reported: set[str]) -> tuple[Secret, str] | None:
    """The first secret in ``text`` not in ``reported`` and " (and N more)" for the other new
    ones, all added to ``reported`` (one finding per text, each secret said once)."""
    if not may_hold_secret(text):
        return None
    found = [s for s in find_secrets(text) if s.text not in reported]
    if not found:
        return None
    reported.update(s.text for s in found)
    return found[0], f" (and {len(found) - 1} more)" if len(found) > 1 else ""


def _is_jwt(token: str) -> bool:
    """The first segment is a JSON object header naming an algorithm."""
    head = token.split(".", 1)[0]
    try:
        header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return False
    return isinstance(header, dict) and isinstance(header.get("alg"), str)
