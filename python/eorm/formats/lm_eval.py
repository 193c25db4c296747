"""lm-evaluation-harness `--log_samples` output: question from `doc`, samples from `resps[0]`, gold from
`target`; one line per (doc, filter), so a doc_id already read is skipped and counted (lmEval.ts is the twin)."""
from __future__ import annotations

from ..js import trim
from .record import _optional_text, _Reject, _required_string, describe_value
from .collector import RawLine, RawSample
from .fields import QUESTION_FIELDS, first_field, gold_text, non_empty, read_id


def is_lm_eval(obj: dict) -> bool:
    return "doc_id" in obj and "resps" in obj


def _responses(resps):
    """(repeats, field): the harness writes `resps` as a list holding the list of repeats ([["…", "…"]]); a flat
    list of strings (["…", "…"], as scripts that rewrite the file do) is the repeats themselves."""
    if not isinstance(resps, list):
        raise _Reject("resps", "wrong_type", f'expected a list of responses (the harness writes [["…", "…"]]), got {describe_value(resps)}')
    if isinstance(non_empty(resps, "resps", "responses")[0], str):
        return resps, "resps"
    if not isinstance(resps[0], list):
        raise _Reject("resps[0]", "wrong_type", f"expected a list of response strings, got {describe_value(resps[0])}")
    return non_empty(resps[0], "resps[0]", "responses"), "resps[0]"


def lm_eval_reader(ctx):
    seen = set()

    def read(obj: dict, line: int):
        doc_id = read_id(obj, "doc_id")
        if doc_id is None:
            raise _Reject("doc_id", "missing_field", "missing")
        if doc_id in seen:
            ctx.duplicate_lines += 1
            return None
        doc = obj.get("doc")
        if not isinstance(doc, dict):
            raise _Reject("doc", "wrong_type", f"expected an object, got {describe_value(doc)}")
        q_field = first_field(doc, QUESTION_FIELDS)
        if q_field is None:
            raise _Reject("doc", "missing_field", 'no question: expected "question", "problem", "prompt" or "input" in "doc"')
        question = _required_string(doc, q_field)
        if trim(question) == "":
            raise _Reject(f"doc.{q_field}", "empty_question", "empty question")
        repeats, where = _responses(obj.get("resps"))
        samples = []
        for i, r in enumerate(repeats):
            if not isinstance(r, str):
                raise _Reject(f"{where}[{i}]", "wrong_type", f"expected a string, got {describe_value(r)}")
            samples.append(RawSample(r, None, None, None))
        gold = gold_text(_optional_text(obj, "target", True))
        seen.add(doc_id)
        ctx.use("question", f"doc.{q_field}")
        ctx.use("samples", where)
        if gold is not None:
            ctx.use("gold", "target")
        return RawLine(line, doc_id, question, gold, samples)

    return read
