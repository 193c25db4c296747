"""The data panel's sentence about what the readers detected and mapped (describe.ts is the twin)."""
from __future__ import annotations

from typing import List

from .table import FORMAT_BY_NAME


def _int(n: int) -> str:
    return f"{n:,}"


def _count(n: int, what: str) -> str:
    return f"{_int(n)} {what}{'' if n == 1 else 's'}"


def _names(d: dict) -> str:
    return ", ".join(f"`{f}`" for f in d)


def describe_mapping(fmt: str, files: int, sizes: List[int], ctx, labels_from: str) -> dict:
    title, group_word, sample_word = FORMAT_BY_NAME[fmt].describe
    total = sum(sizes)
    uniform = bool(sizes) and all(n == sizes[0] for n in sizes)
    shape = _count(len(sizes), group_word) + (f" × {_count(sizes[0], sample_word)}" if uniform else f", {_count(total, sample_word)}")
    head = f"{files} {title}" if fmt == "multi-file" else title
    frm = []
    if ctx.mapped["question"] and fmt != "candidates":
        frm.append(f"questions from {_names(ctx.mapped['question'])}")
    if ctx.mapped["samples"]:
        frm.append(f"samples from {_names(ctx.mapped['samples'])}")
    if labels_from == "none":
        labels = "no labels or gold answers: a picks set"
    elif labels_from == "gold":
        labels = f"labels from {_names(ctx.mapped['gold'])}"
    else:
        labels = f"labels from {_names(ctx.mapped['labels'])}" + (f" (gold in {_names(ctx.mapped['gold'])})" if ctx.mapped["gold"] else "")
    notes = []
    markers = ctx.invalid_markers - ctx.text_labels
    if markers:
        notes.append(f'{_count(markers, "correctness marker")} such as "[invalid]" counted as incorrect')
    # A label written as text ("1", "True") is a marker too: easy to mistake for a label, so said apart.
    if ctx.text_labels:
        notes.append(f'{_count(ctx.text_labels, "label")} written as text (such as "1" or "True") counted as incorrect: write labels as true/false or 0/1')
    if ctx.duplicate_lines:
        notes.append(f"{_count(ctx.duplicate_lines, 'repeated doc_id line')} (other filters) skipped")
    if ctx.unanswered_requests:
        notes.append(f"{_count(ctx.unanswered_requests, 'request')} without an output line")
    description = f"{head}: {shape}" + (f" ({'; '.join(frm)})" if frm else "") + "; " + "; ".join([labels] + notes)
    return {"description": description, "invalidMarkers": ctx.invalid_markers, "duplicateLines": ctx.duplicate_lines, "unansweredRequests": ctx.unanswered_requests}
