"""One question per line (or array element) with its samples (grouped.ts is the twin)."""
from __future__ import annotations

from ..js import trim
from .record import _optional_text, _Reject, _required_string, describe_value
from .collector import RawLine, RawSample
from .fields import (
    GENERATOR_FIELDS, GOLD_FIELDS, ID_FIELDS, LABELS_FIELDS, QUESTION_FIELDS, SAMPLE_LABEL_FIELDS, SAMPLE_TEXT_FIELDS, SAMPLES_FIELDS,
    first_field, gold_text, non_empty, read_id, read_sample_label,
)


def is_grouped(obj: dict) -> bool:
    samples = first_field(obj, SAMPLES_FIELDS)
    return samples is not None and first_field(obj, QUESTION_FIELDS) is not None and isinstance(obj[samples], (list, str))


def _sample_text(s: dict, name: str) -> str:
    f = first_field(s, SAMPLE_TEXT_FIELDS)
    if f is not None:
        if not isinstance(s[f], str):
            raise _Reject(f"{name}.{f}", "wrong_type", f"expected a string, got {describe_value(s[f])}")
        return s[f]
    message = s.get("message")
    if isinstance(message, dict) and isinstance(message.get("content"), str):
        return message["content"]
    raise _Reject(name, "missing_field", 'no text: expected a string, or an object with "response", "text", "content" or "message.content"')


def grouped_reader(ctx):
    marker = ctx.marker_seen

    def read(obj: dict, line: int):
        q_field = first_field(obj, QUESTION_FIELDS) or "question"
        question = _required_string(obj, q_field)
        if trim(question) == "":
            raise _Reject(q_field, "empty_question", "empty question")
        s_field = first_field(obj, SAMPLES_FIELDS)
        raw_samples = [obj[s_field]] if isinstance(obj[s_field], str) else non_empty(obj[s_field], s_field)
        l_field = first_field(obj, LABELS_FIELDS)
        labels = None
        if l_field is not None:
            v = obj[l_field]
            labels = v if isinstance(v, list) else [v] if len(raw_samples) == 1 else None
            if labels is None:
                raise _Reject(l_field, "wrong_type", f"expected a list of {len(raw_samples)} labels (one per sample), got {describe_value(v)}")
            if len(labels) != len(raw_samples):
                raise _Reject(l_field, "wrong_type", f'{len(labels)} labels for {len(raw_samples)} samples in "{s_field}"')
        gen_field = first_field(obj, GENERATOR_FIELDS)
        generator = None if gen_field is None else _optional_text(obj, gen_field, False)
        g_field = first_field(obj, GOLD_FIELDS)
        gold = gold_text(None if g_field is None else _optional_text(obj, g_field, True))
        samples = []
        for i, s in enumerate(raw_samples):
            name = f"{s_field}[{i}]"
            label = None if labels is None else read_sample_label(labels[i], f"{l_field}[{i}]", marker)
            if isinstance(s, str):
                text = s
            elif isinstance(s, dict):
                text = _sample_text(s, name)
                own = first_field(s, SAMPLE_LABEL_FIELDS)
                if label is None and own is not None:
                    label = read_sample_label(s[own], f"{name}.{own}", marker)
                    ctx.use("labels", f"{s_field}[].{own}")
            else:
                raise _Reject(name, "wrong_type", f"expected a string or an object, got {describe_value(s)}")
            samples.append(RawSample(text, label, None, generator))
        ctx.use("question", q_field)
        ctx.use("samples", s_field)
        if l_field is not None:
            ctx.use("labels", l_field)
        if gold is not None:
            ctx.use("gold", g_field)
        return RawLine(line, read_id(obj, first_field(obj, ID_FIELDS)), question, gold, samples)

    return read
