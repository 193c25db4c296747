"""What the readers of one read share: the counts the panel reports and the fields they mapped (context.ts)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict


def _roles() -> Dict[str, dict]:
    # dicts as ordered sets: fields in order of first use
    return {"question": {}, "samples": {}, "labels": {}, "gold": {}}


@dataclass
class ReadContext:
    invalid_markers: int = 0
    duplicate_lines: int = 0
    unanswered_requests: int = 0
    mapped: Dict[str, dict] = field(default_factory=_roles)

    def use(self, role: str, name: str) -> None:
        self.mapped[role].setdefault(name, None)
