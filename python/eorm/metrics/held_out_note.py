"""Whether a model's validation figures chose it (the app's src/engine/data/heldOutNote.ts): a best checkpoint
validated on the questions of the split it records was picked by these very figures, so they are
optimistic. The app says so in the same words; on another file's split (the flags' split) it does not."""
from __future__ import annotations

from typing import Dict, Optional

from ..split import recorded_split

# heldOutNote.ts OPTIMISTIC, word for word (tests/test_score_split.py reads the app's).
OPTIMISTIC = "This checkpoint was chosen as the best by its validation figures on these questions, so they are optimistic: a test set it was not chosen on gives figures to report."


def chosen_on_validation(training: Optional[Dict], dataset: str) -> bool:
    """The weights are a best checkpoint (training slot "best", as the app's export and eorm.train's
    best.safetensors mark it) and the split they record applies to the file whose identity is `dataset`:
    recorded for it, or naming no file (validated as if it were)."""
    if not isinstance(training, dict) or training.get("slot") != "best":
        return False
    try:
        rec = recorded_split(training)
    except ValueError:
        return False
    return rec is not None and rec["dataset"] in (None, dataset)
