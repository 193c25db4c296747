"""One candidate per line (the app's own format): record.py's rules, one sample per line (candidates.ts)."""
from .record import _read_record
from .collector import RawLine, RawSample


def candidates_reader(ctx):
    def read(obj: dict, line: int):
        r = _read_record(obj, require_label=False)
        if r["label"] is not None:
            ctx.use("labels", "label")
        if r["gold"] is not None:
            ctx.use("gold", "gold")
        return RawLine(line, r["question_id"], r["question"], r["gold"], [RawSample(r["gen_text"], r["label"], r["answer"], r["source"])])

    return read
