"""Which format a file is, from its content (detect.ts is the twin)."""
from __future__ import annotations

from typing import List, Optional

from .chat_batch import is_chat_output, is_chat_request
from .grouped import is_grouped
from .lm_eval import is_lm_eval


def object_kind(obj: dict) -> str:
    if is_chat_output(obj):
        return "chat-output"
    if is_chat_request(obj):
        return "chat-request"
    if is_lm_eval(obj):
        return "lm-eval"
    if "gen_text" in obj or "generated_full_text" in obj:
        return "candidates"
    return "grouped" if is_grouped(obj) else "candidates"


def file_format(layout: str, kind: Optional[str]) -> str:
    if kind == "lm-eval":
        return "lm-eval"
    if layout == "array":
        return "json-array"
    if kind in ("chat-output", "chat-request"):
        return "chat-batch"
    return kind or "candidates"


def joined_format(kinds: List[Optional[str]]) -> str:
    chat = all(k in ("chat-request", "chat-output") for k in kinds) and "chat-output" in kinds and "chat-request" in kinds
    return "chat-batch" if chat else "multi-file"
