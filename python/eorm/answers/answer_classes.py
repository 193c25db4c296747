"""A question's answers grouped for its vote, as the app's src/engine/data/answers/answerClasses.ts: each answer key
joins the class of the first earlier key the equality rule (answer_equality.py) calls equal to it, and votes
under that key. Bounded: a key is compared with at most MAX_COMPARED_CLASSES earlier classes."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from .answer_equality import forms_equal, key_form
from .answer_form_kinds import Form

MAX_COMPARED_CLASSES = 32


class AnswerClasses:
    def __init__(self) -> None:
        self._seen: Dict[str, str] = {}
        self._classes: List[Tuple[str, Form]] = []

    def class_of(self, key: Optional[str]) -> Optional[str]:
        """The key `key` votes under: its own, or an earlier equal answer's."""
        if key is None:
            return None
        known = self._seen.get(key)
        if known is not None:
            return known
        form = key_form(key)
        match = next((k for k, f in self._classes[:MAX_COMPARED_CLASSES] if forms_equal(f, form)), None)
        if match is None:
            self._classes.append((key, form))
        joined = key if match is None else match
        self._seen[key] = joined
        return joined


def class_keys(keys: Sequence[Optional[str]]) -> List[Optional[str]]:
    """The keys a question's candidates vote under, in their order."""
    classes = AnswerClasses()
    return [classes.class_of(k) for k in keys]
