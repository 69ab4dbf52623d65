"""Traffic captures (JSONL transcripts, HAR files): records, the session model, linting."""

# Here, not in capture.lint: telling a manifest from a capture by its name must not import
# the capture linter (and its JSON parser) for every manifest.
CAPTURE_SUFFIXES = {".jsonl": "transcript", ".ndjson": "transcript", ".har": "har"}


def capture_kind(path: str) -> str | None:
    """The capture a path names by its suffix ("transcript" or "har"), or None."""
    from pathlib import PurePath

    return CAPTURE_SUFFIXES.get(PurePath(path).suffix.lower())
