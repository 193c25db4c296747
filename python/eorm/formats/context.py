"""What the readers of one read share: the counts the panel reports and the fields they mapped (context.ts)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict

from ..js import trim

_TEXT_LABEL = re.compile(r"(?:[01](?:\.0*)?|true|false)", re.IGNORECASE)


def _roles() -> Dict[str, dict]:
    # dicts as ordered sets: fields in order of first use
    return {"question": {}, "samples": {}, "labels": {}, "gold": {}}


@dataclass
class ReadContext:
    invalid_markers: int = 0
    # Of the markers, those that read like a label written as text ("1", "True"): said apart, they are easy to mistake.
    text_labels: int = 0
    duplicate_lines: int = 0
    unanswered_requests: int = 0
    mapped: Dict[str, dict] = field(default_factory=_roles)

    def use(self, role: str, name: str) -> None:
        self.mapped[role].setdefault(name, None)

    def marker_seen(self, text: str) -> None:
        """A correctness value given as a string: a marker counted as incorrect, noted apart when it reads like a label."""
        self.invalid_markers += 1
        if _TEXT_LABEL.fullmatch(trim(text)):
            self.text_labels += 1
