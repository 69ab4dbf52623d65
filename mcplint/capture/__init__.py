"""Traffic captures (JSONL transcripts, HAR files): records, the session model, linting."""
