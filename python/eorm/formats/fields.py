"""The field names the readers look for, in the order they are tried, and the small readers they share
(src/engine/data/formats/fields.ts is the twin)."""
from __future__ import annotations

import re
from typing import Callable, Optional, Sequence

from ..js import trim
from .record import _optional_text, _Reject, describe_value

QUESTION_FIELDS = ("question", "problem", "prompt", "input")
SAMPLES_FIELDS = ("responses", "completions", "samples", "outputs", "output", "answers", "code")
SAMPLE_TEXT_FIELDS = ("response", "text", "content")
LABELS_FIELDS = ("labels", "label", "is_corrects", "correctness", "score")
SAMPLE_LABEL_FIELDS = ("label", "is_correct")
GOLD_FIELDS = ("gold", "ground_truth", "gt", "gt_answer", "reference", "answer")
ID_FIELDS = ("question_id", "id", "idx", "unique_id", "problem_id", "task_id")
GENERATOR_FIELDS = ("generator", "model")

_MARKED = re.compile(r"\s*#+[ \t]*([^#\n]+)\Z")


def first_field(obj: dict, names: Sequence[str]) -> Optional[str]:
    """The first of `names` the object has (null and absent are both "not there")."""
    for n in names:
        if obj.get(n) is not None:
            return n
    return None


def gold_text(gold: Optional[str]) -> Optional[str]:
    """A gold answer as given; a worked solution cut after its last `####`; "# 18" without its marker."""
    if gold is None:
        return None
    at = gold.rfind("####")
    if at >= 0:
        return trim(gold[at + 4 :])
    m = _MARKED.match(gold)
    return gold if m is None else trim(m.group(1))


def read_id(obj: dict, name: Optional[str]) -> Optional[str]:
    if name is None:
        return None
    v = _optional_text(obj, name, True)
    return None if v is None or trim(v) == "" else v


def read_sample_label(v, name: str, on_marker: Callable[[str], None]) -> Optional[int]:
    """true/false or exactly 0/1; any string (e.g. "[invalid]", even "1") is a marker counted as incorrect."""
    if v is None:
        return None
    if isinstance(v, bool):
        return 1 if v else 0
    if isinstance(v, (int, float)) and float(v) in (0.0, 1.0):
        return int(float(v))
    if isinstance(v, str):
        on_marker(v)
        return 0
    raise _Reject(name, "bad_label", f'expected true, false, 0 or 1 (or a marker such as "[invalid]"), got {describe_value(v)}')


def non_empty(samples: list, name: str, what: str = "samples") -> list:
    """A line's list of samples must hold one: a question without any adds no candidate to rank."""
    if not samples:
        raise _Reject(name, "missing_field", f"no {what}: the list is empty; give at least one, or leave the line out")
    return samples


def message_text(content) -> Optional[str]:
    """A chat message's text: a string, or the text parts of a content array."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return None
    parts = [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return None if not parts else "\n".join(parts)
