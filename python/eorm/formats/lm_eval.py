"""lm-evaluation-harness `--log_samples` output: question from `doc`, samples from `resps[0]`, gold from
`target`; one line per (doc, filter), so a doc_id already read is skipped and counted (lmEval.ts is the twin)."""
from __future__ import annotations

from ..js import trim
from ..jsonl import _optional_text, _Reject, _required_string, describe_value
from .collector import RawLine, RawSample
from .fields import QUESTION_FIELDS, first_field, gold_text, read_id


def is_lm_eval(obj: dict) -> bool:
    return "doc_id" in obj and "resps" in obj


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
        resps = obj.get("resps")
        repeats = resps[0] if isinstance(resps, list) and resps else None
        if not isinstance(repeats, list):
            raise _Reject("resps", "wrong_type", f"expected a list holding the list of responses, got {describe_value(resps)}")
        samples = []
        for i, r in enumerate(repeats):
            if not isinstance(r, str):
                raise _Reject(f"resps[0][{i}]", "wrong_type", f"expected a string, got {describe_value(r)}")
            samples.append(RawSample(r, None, None, None))
        gold = gold_text(_optional_text(obj, "target", True))
        seen.add(doc_id)
        ctx.use("question", f"doc.{q_field}")
        ctx.use("samples", "resps[0]")
        if gold is not None:
            ctx.use("gold", "target")
        return RawLine(line, doc_id, question, gold, samples)

    return read
