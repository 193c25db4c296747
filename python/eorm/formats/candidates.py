"""One candidate per line (the app's own format): record.py's rules, one sample per line (candidates.ts)."""
import math

from .record import _read_record
from .collector import RawLine, RawSample

# Fields the record's own rules read: never a score.
RECORD_FIELDS = {"label", "question_id", "id", "answer", "gold"}


def numeric_fields(obj: dict):
    """The line's finite numeric fields besides the record's own, or None when it has none."""
    out = {k: float(v) for k, v in obj.items() if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and k not in RECORD_FIELDS}
    return out or None


def candidates_reader(ctx):
    def read(obj: dict, line: int):
        r = _read_record(obj, require_label=False)
        if r["label"] is not None:
            ctx.use("labels", "label")
        if r["gold"] is not None:
            ctx.use("gold", "gold")
        return RawLine(line, r["question_id"], r["question"], r["gold"], [RawSample(r["gen_text"], r["label"], r["answer"], r["source"], scores=numeric_fields(obj))])

    return read
