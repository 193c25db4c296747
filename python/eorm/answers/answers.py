"""Final answers for majority voting and labels, as the app's src/engine/data/answers/answers.ts: the answer a reader
takes from a chain of thought (answer_extract.py), its canonical key (answer_key.py), for a candidate and for a
gold answer, and whether a candidate's answer is the gold answer (the equality rule votes also use:
answer_equality.py)."""
from __future__ import annotations

import re
from typing import Optional, Tuple

from .answer_equality import answers_equal
from .answer_extract import extract_answer
from .answer_key import MAX_EXAMINED_CHARS, answer_key
from ..js import trim, utf16_len

__all__ = ["MAX_EXAMINED_CHARS", "answer_key", "extract_answer", "text_answer_key", "candidate_answer_key", "candidate_keys", "gold_answer_key", "matches_gold", "candidate_matches_gold"]


def text_answer_key(gen_text: str) -> Optional[str]:
    """The key of the answer extracted from a chain of thought, or None."""
    extracted = extract_answer(gen_text)
    return None if extracted is None else answer_key(extracted)


def _given(answer_field: Optional[str]) -> bool:
    return answer_field is not None and trim(answer_field) != ""


def candidate_answer_key(answer_field: Optional[str], gen_text: str) -> Optional[str]:
    """The voting key of a candidate: its `answer` field when given (and not blank), else the answer
    extracted from its text."""
    return answer_key(answer_field) if _given(answer_field) else text_answer_key(gen_text)


def candidate_keys(answer_field: Optional[str], gen_text: str) -> Tuple[Optional[str], Optional[str]]:
    """(voting key, the text's own key)."""
    text = text_answer_key(gen_text)
    return (answer_key(answer_field) if _given(answer_field) else text), text


_WORKED_SOLUTION = re.compile(r"####|\\boxed|\\fbox")
# A longer gold answer is a solution to read the final answer from, not an answer.
MAX_BARE_GOLD = 200


def gold_answer_key(gold: str) -> Optional[str]:
    """The key of a gold answer: a bare answer as it is, a worked solution by its final answer."""
    worked = _WORKED_SOLUTION.search(gold) is not None or utf16_len(gold) > MAX_BARE_GOLD
    return text_answer_key(gold) if worked else answer_key(gold)


def matches_gold(candidate_key: Optional[str], gold: Optional[str]) -> Optional[bool]:
    """Whether a candidate's answer key equals the gold answer's (no answer is wrong); None without a gold key."""
    g = None if gold is None else gold_answer_key(gold)
    if g is None:
        return None
    return answers_equal(candidate_key, g)


def candidate_matches_gold(answer_field: Optional[str], gen_text: str, gold: Optional[str]) -> Optional[bool]:
    """The verdict labels from gold use: whether the candidate (its `answer` field, else its text) gives the
    gold answer; None without a gold key."""
    return matches_gold(candidate_answer_key(answer_field, gen_text), gold)
