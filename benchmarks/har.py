"""A HAR file of any length, for the capture benchmark: the session of benchmarks/transcript.py,
one entry per client POST with the server's answer (JSON, an SSE stream when progress comes
first, or 202 for a notification); one JSON answer in 40 is labelled text/plain, so the
findings grow with the size."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import transcript


def _headers(headers: dict) -> list[dict]:
    return [{"name": k, "value": v} for k, v in headers.items()]


def _entry(request: dict, answers: list[dict], odd: bool = False) -> dict:
    body = json.dumps(request["message"])
    reply = answers[-1] if answers else {"message": None, "http": {"status": 202, "headers": {}}}
    messages = [a["message"] for a in answers if a["message"] is not None]
    headers = dict(reply["http"]["headers"])
    if len(messages) > 1:  # progress before the result: an SSE stream
        headers["Content-Type"] = "text/event-stream"
        text = "".join(f"event: message\r\ndata: {json.dumps(m)}\r\n\r\n" for m in messages)
    else:
        text = json.dumps(messages[0]) if messages else ""
    if odd and text and len(messages) == 1:  # a finding every so often, so findings grow with the size
        headers["Content-Type"] = "text/plain"
    mime = headers.get("Content-Type", "") if text else ""
    return {
        "startedDateTime": "2026-11-20T09:00:00Z", "time": 3,
        "request": {"method": "POST", "url": request["http"]["url"], "httpVersion": "HTTP/1.1", "cookies": [],
                    "headers": _headers(request["http"]["headers"]), "queryString": [], "headersSize": -1,
                    "bodySize": len(body), "postData": {"mimeType": "application/json", "text": body}},
        "response": {"status": reply["http"]["status"], "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [],
                     "headers": _headers(headers), "content": {"size": len(text), "mimeType": mime, "text": text},
                     "redirectURL": "", "headersSize": -1, "bodySize": len(text)},
        "cache": {}, "timings": {"send": 0, "wait": 2, "receive": 1},
    }


def write(path: Path, messages: int, seed: int = 7) -> Path:
    with tempfile.NamedTemporaryFile("r", suffix=".jsonl", encoding="utf-8") as session:
        transcript.write(Path(session.name), messages, seed)
        entries, request, answers = [], None, []
        for line in session:
            record = json.loads(line)
            if record["from"] == "client":
                if request is not None:
                    entries.append(_entry(request, answers, len(entries) % 40 == 39))
                request, answers = record, []
            else:
                answers.append(record)
        if request is not None:
            entries.append(_entry(request, answers))
    har = {"log": {"version": "1.2", "creator": {"name": "mcplint-benchmark", "version": "1"}, "entries": entries}}
    path.write_text(json.dumps(har, indent=1), "utf-8")
    return path


if __name__ == "__main__":
    import sys

    target = write(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 20_000)
    print(f"{target}: {target.stat().st_size / 1e6:.1f} MB")
