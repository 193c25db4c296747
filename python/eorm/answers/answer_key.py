"""The canonical key of a final answer, as the app's src/engine/data/answers/answerKey.ts: answers a grader would call
equal share a key where one canonical spelling exists (numbers by exact value, collections by their elements'
keys, words without case, expressions as one linear LaTeX), and different ones never do; equal answers
written as different expressions are joined by the equality rule (answer_equality.py)."""
from __future__ import annotations

from typing import Optional

from .answer_form import form_of
from .answer_unwrap import unwrap
from ..js import utf16_len
from ..js_regex import js_re

MAX_EXAMINED_CHARS = 65_536

_MULTIPLE_CHOICE = [js_re(r"^\(([A-Ea-e])\)(?:\s|$)"), js_re(r"^([A-Ea-e])\)?$")]


def answer_key(raw: str) -> Optional[str]:
    """Canonical key of an answer, or None if nothing is left or it is longer than MAX_EXAMINED_CHARS (see the
    app's answerKey)."""
    if utf16_len(raw) > MAX_EXAMINED_CHARS:
        return None
    s = unwrap(raw)
    if s == "":
        return None
    for pattern in _MULTIPLE_CHOICE:
        m = pattern.match(s)
        if m is not None:
            return m.group(1).upper()
    f = form_of(s, 0)
    return None if f is None else f.key
