"""Final answers for majority voting and labels, as the app's src/engine/data/answers.ts: the answer a reader
takes from a chain of thought (answer_extract.py) and its canonical key (answer_key.py), for a candidate and
for a gold answer."""
from __future__ import annotations

import re
from typing import Optional

from .answer_extract import extract_answer
from .answer_key import MAX_EXAMINED_CHARS, answer_key
from .js import trim

__all__ = ["MAX_EXAMINED_CHARS", "answer_key", "extract_answer", "candidate_answer_key", "gold_answer_key", "matches_gold"]


def candidate_answer_key(answer_field: Optional[str], gen_text: str) -> Optional[str]:
    """The voting key of a candidate: its `answer` field when given (and not blank), else the answer
    extracted from its text."""
    if answer_field is not None and trim(answer_field) != "":
        return answer_key(answer_field)
    extracted = extract_answer(gen_text)
    return None if extracted is None else answer_key(extracted)


_WORKED_SOLUTION = re.compile(r"####|\\boxed|\\fbox")


def gold_answer_key(gold: str) -> Optional[str]:
    """The key of a gold answer: a bare answer as it is, a worked solution by its final answer."""
    if not _WORKED_SOLUTION.search(gold):
        return answer_key(gold)
    extracted = extract_answer(gold)
    return None if extracted is None else answer_key(extracted)


def matches_gold(candidate_key: Optional[str], gold: Optional[str]) -> Optional[bool]:
    """Whether a candidate's answer key is the gold answer's (no answer is wrong); None without a gold key."""
    g = None if gold is None else gold_answer_key(gold)
    if g is None:
        return None
    return candidate_key == g
