"""What a file that is not JSON Lines (nor a JSON array) is, in words that say what to do (sniff.ts is the twin):
a compressed or UTF-16 file is refused from its first bytes, before any line is read as JSON; a text file
without a valid line (CSV, one pretty-printed JSON object) is named from its first line."""
from __future__ import annotations

from typing import Optional

from ..js import trim
from .record import describe_value


class NotJsonTextError(ValueError):
    """A file whose bytes cannot be JSON text: nothing of the read is kept."""

    def __init__(self, file: str, problem: str) -> None:
        super().__init__(f"{file} {problem}")


def not_json_text(head: bytes) -> Optional[str]:
    """Why a file starting with `head` cannot be JSON text, or None."""
    if head.startswith(b"\x1f\x8b"):
        return "is gzip-compressed: decompress it first (e.g. gunzip FILE.jsonl.gz), then load the file inside"
    if head.startswith(b"PK\x03\x04"):
        return "is a zip archive: unzip it, then load the .jsonl or .json file inside"
    # UTF-16 (or UTF-32): a byte-order mark, or the NUL bytes beside each ASCII character ("{" is 7B 00 or 00 7B).
    bom = head.startswith(b"\xff\xfe") or head.startswith(b"\xfe\xff")
    nuls = len(head) >= 4 and ((head[1] == 0 and head[3] == 0) or (head[0] == 0 and head[2] == 0))
    if bom or nuls:
        return "is UTF-16 (or UTF-32) text, not UTF-8: save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8.jsonl), then load that"
    return None


def not_json_lines(first_line: Optional[str]) -> Optional[str]:
    """What a file whose lines were all rejected looks like instead, from its first non-blank line; None when it looks like JSON Lines."""
    if first_line is None:
        return None
    line = trim(first_line)
    if line.startswith("{"):
        if line.endswith("}"):
            return None
        return (
            "it looks like JSON written over several lines (pretty-printed); the app reads one JSON object per line (JSON Lines) "
            "or a JSON array of objects: write one object per line (e.g. jq -c . FILE > FILE.jsonl)"
        )
    if line.startswith("["):
        return None
    what = "TSV (tab-separated)" if "\t" in line else "CSV (comma-separated)" if "," in line else None
    read = "the app reads JSON Lines (one JSON object per line) or a JSON array"
    if what is None:
        return f"it is not JSON: its first line is {describe_value(line)}; {read}"
    sep = ", sep='\\t'" if what.startswith("TSV") else ""
    return f"it looks like {what}, its first line {describe_value(line)}; {read}: convert it, e.g. pandas.read_csv(FILE{sep}).to_json(OUT, orient='records', lines=True)"
