"""Which format a file is, from its content (detect.ts is the twin)."""
from __future__ import annotations

from typing import List, Optional

from .table import OBJECT_KINDS, kind_of


def object_kind(obj: dict) -> str:
    """The first kind of the table (table.py) whose detection holds; anything else is read as candidates."""
    return next((k.kind for k, _ in OBJECT_KINDS if k.detect(obj)), "candidates")


def file_format(layout: str, kind: Optional[str]) -> str:
    found = kind_of(kind)
    if found is not None and found[1].named_in_array:
        return found[1].name
    if layout == "array":
        return "json-array"
    return found[1].name if found is not None else "candidates"


def joined_format(kinds: List[Optional[str]]) -> str:
    chat = all(k in ("chat-request", "chat-output") for k in kinds) and "chat-output" in kinds and "chat-request" in kinds
    return "chat-batch" if chat else "multi-file"
