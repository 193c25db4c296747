"""A file's lines as the app splits them (src/engine/data/lines.ts): LF or CRLF endings, a last line without a
newline, a BOM at the start of any line dropped, lines over the limit skipped unread."""
from __future__ import annotations

DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024


def _decode(raw: bytes):
    try:
        return raw.decode("utf-8"), False
    except UnicodeDecodeError:
        return raw.decode("utf-8", "replace"), True


def iter_lines(data: bytes, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES):
    """(line number, text or None if too long, byte length, invalid UTF-8) for every line: LF or CRLF
    endings, a last line without a newline counts, a BOM at the start of any line is dropped."""
    parts = data.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()
    for k, raw in enumerate(parts):
        number = k + 1
        if len(raw) > max_line_bytes:
            yield number, None, len(raw), False
            continue
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        text, bad = _decode(raw)
        # A BOM starts the file, and also a later line where files were joined (`cat a.jsonl b.jsonl`).
        if text.startswith("\ufeff"):
            text = text[1:]
        yield number, text, len(raw), bad
