"""mcplint.secrets: credentials are found, look-alikes (UUIDs, digests, base64 images) are not.

The sample credentials are assembled at run time from harmless pieces, so this file
holds nothing a secret scanner would (rightly) complain about."""

from __future__ import annotations

import base64
import hashlib
import json
import uuid

import pytest

from mcplint.secrets import _LONG_TOKEN, find_secrets, has_long_token, may_hold_secret

ALNUM = "aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zC"  # 32 mixed characters to build tokens from


def _fill(n: int, alphabet: str = ALNUM) -> str:
    return (alphabet * (n // len(alphabet) + 1))[:n]


def _jwt(header: dict, claims: dict) -> str:
    def part(obj):
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")
    return f"{part(header)}.{part(claims)}.{_fill(43)}"


PEM_BODY = "\n".join(_fill(64, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC") for _ in range(3))

FOUND = {
    "pem private key": ("-----BEGIN RSA " + "PRIVATE KEY-----\n" + PEM_BODY + "\n-----END RSA PRIVATE KEY-----",
                        "a private key"),
    "openssh private key": ("key:\n-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"
                            + _fill(60) + "\n-----END OPENSSH PRIVATE KEY-----", "a private key"),
    "aws access key id": ("aws_access_key_id = " + "AKIA" + "Z7Q3N5W2J4K6L8M2", "an AWS access key ID"),
    "aws secret key": ("aws_secret_access_key=" + _fill(40, "wJalrXUtnFEMIK7MDENGbPxRfiCY"), "an AWS secret access key"),
    "google api key": ("key=" + "AIza" + _fill(35), "a Google API key"),
    "google oauth token": ("Bearer " + "ya29." + _fill(60), "a Google OAuth access token"),
    "azure storage key": ("DefaultEndpointsProtocol=https;AccountName=x;" + "AccountKey=" + _fill(86) + "==",
                          "an Azure storage account key"),
    "azure sas": ("https://x.blob.core.windows.net/c?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-01-01&" + "sig="
                  + _fill(43) + "%3D", "an Azure shared access signature"),
    "github classic token": ("token " + "ghp_" + _fill(36), "a GitHub token"),
    "github fine-grained token": ("github_pat_" + _fill(22) + "_" + _fill(59), "a GitHub token"),
    "gitlab token": ("PRIVATE-TOKEN: " + "glpat-" + _fill(20), "a GitLab token"),
    "slack bot token": ("xoxb-" + "123456789012-1234567890123-" + _fill(24), "a Slack token"),
    "slack webhook": ("https://hooks.slack.com/services/" + "T0AB1CD2E/B0FG3HI4J/" + _fill(24), "a Slack webhook URL"),
    "stripe live key": ("sk_live_" + _fill(24), "a Stripe secret key"),
    "openai key": ("OPENAI_API_KEY=" + "sk-proj-" + _fill(20) + "T3BlbkFJ" + _fill(20), "an OpenAI API key"),
    "anthropic key": ("sk-ant-" + "api03-" + _fill(93), "an Anthropic API key"),
    "jwt": ("Authorization: Bearer " + _jwt({"alg": "HS256", "typ": "JWT"}, {"sub": "42", "name": "Ada"}),
            "a JSON Web Token"),
}


@pytest.mark.parametrize("name", sorted(FOUND))
def test_credential_found(name):
    text, what = FOUND[name]
    assert may_hold_secret(text)
    found = find_secrets(text)
    assert [s.what for s in found] == [what], found
    assert found[0].redacted.endswith("…") and len(found[0].redacted) <= 11


SILENT = {
    "uuid": str(uuid.UUID(int=0x1234_5678_9ABC_DEF0_1234_5678_9ABC_DEF0)),
    "sha256": hashlib.sha256(b"mcplint").hexdigest(),
    "git sha": "commit " + hashlib.sha1(b"x").hexdigest(),
    "base64 png": "iVBORw0KGgoAAAANSUhEUgAAABQAAAAUCAYAAACNiR0NAAAKsGlDQ1BJQ0MgUHJvZmlsZQAASImVlwdUU+kSgOfe9JDQEiIg"
                  + "AKIA" + _fill(16).upper() + "eyJhbGciOiJIUzI1NiJ9" + _fill(200),
    "aws documentation example": "AKIAIOSFODNN7EXAMPLE and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "pem placeholder": "-----BEGIN " + "PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
    "public key": "-----BEGIN PUBLIC KEY-----\n" + PEM_BODY + "\n-----END PUBLIC KEY-----",
    "three-part token that is not a JWT": "eyJ" + _fill(20) + ".eyJ" + _fill(20) + "." + _fill(30),
    "stripe publishable key": "pk_live_" + _fill(24),
    "prose about keys": "Set GITHUB_TOKEN (ghp_...) or an AWS key (AKIA...) in your environment.",
    "short prefix words": "The sk-learn estimator; glpat- tokens; xoxb- tokens expire.",
    "timestamps and paths": "2026-11-22T03:11:02+01:00 /srv/sample/notes/todo.md",
}


@pytest.mark.parametrize("name", sorted(SILENT))
def test_look_alike_silent(name):
    assert find_secrets(SILENT[name]) == []


def test_clean_text_skips_the_patterns():
    assert not may_hold_secret("The sum of 2 and 3 is 5.")


@pytest.mark.parametrize("text", [
    "a" * 15, "a" * 16, "x " + "A1_~.+/=%-" * 2, "fifteen-chars!!" + "a" * 15, "a" * 15 + "\t" + "b" * 15,
    "key: " + "Z" * 8 + "\u00e9" + "Z" * 8, "caf\u00e9 " + "k" * 16, "caf\u00e9 " + "k" * 15, "",
    "ghp_" + "0" * 12, "tab\x0bseparated" + "q" * 15, "\x7f" * 20, "(" + "a" * 16 + ")",
])
def test_long_token_check_is_the_regex(text):
    # has_long_token's ASCII path translates bytes instead of running _LONG_TOKEN: same answer.
    assert has_long_token(text) is (_LONG_TOKEN.search(text) is not None)


def test_several_in_order_and_overlaps_once():
    jwt = _jwt({"alg": "RS256"}, {"sub": "1"})
    text = f"first ghp_{_fill(36)} then https://example.test/cb?token={jwt} and AKIA{_fill(16).upper()}"
    assert [s.what for s in find_secrets(text)] == ["a GitHub token", "a JSON Web Token", "an AWS access key ID"]
