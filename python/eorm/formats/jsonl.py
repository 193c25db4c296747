"""JSONL → grouped candidates, one candidate per line (record.py's rules), with the app's grouping and labels from
gold answers: a line with `gold` and no `label` is labelled by whether its answer's key is the gold answer's
(answers.matches_gold); groups by `question_id` when given (non-blank), else by question text, in order of first
appearance. Bad lines are reported; the rest still loads. (The app reads every file through its formats'
readers: read_files is their twin; this is the one-candidate-per-line read the tests compare with.)"""
from __future__ import annotations

from typing import BinaryIO, Dict, List, Union

from ..answers.answer_classes import AnswerClasses
from ..answers.answers import candidate_keys, matches_gold
from ..js import has_non_ws
from .lines import DEFAULT_MAX_LINE_BYTES, iter_lines
from .record import LINE, Candidate, Dataset, Group, IngestReport, LineError, NoValidLinesError, describe_value, parse_candidate_line

__all__ = ["ingest_jsonl", "parse_candidate_line", "LineError", "NoValidLinesError"]


def ingest_jsonl(source: Union[str, bytes, BinaryIO], max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> Dataset:
    """Reads a whole JSONL file (path, bytes or binary file object) into groups. Raises NoValidLinesError when
    no line is valid."""
    if isinstance(source, (bytes, bytearray)):
        data = bytes(source)
    elif isinstance(source, str):
        with open(source, "rb") as f:
            data = f.read()
    else:
        data = source.read()
    report = IngestReport(bytes_read=len(data))
    groups: List[Group] = []
    by_key: Dict[str, Group] = {}
    classes: Dict[str, AnswerClasses] = {}  # each group's: its candidates vote under their class's key
    for number, text, nbytes, bad in iter_lines(data, max_line_bytes):
        report.lines_read = number
        if text is None:
            report.rejected += 1
            report.errors.append(LineError(number, LINE, "line_too_long", f"line too long: {nbytes} bytes (limit {max_line_bytes})"))
            continue
        if bad:
            report.invalid_utf8_lines += 1
        if not has_non_ws(text):
            report.blank += 1
            continue
        parsed = parse_candidate_line(text, number)
        if isinstance(parsed, LineError):
            report.rejected += 1
            report.errors.append(parsed)
            continue
        key = f"id:{parsed['question_id']}" if parsed["question_id"] is not None else f"q:{parsed['question']}"
        group = by_key.get(key)
        if group is not None and group.question != parsed["question"]:
            # Joining them would tokenize this candidate with another question's text.
            report.rejected += 1
            report.errors.append(
                LineError(
                    number,
                    "question",
                    "conflicting_question",
                    f"question_id {describe_value(parsed['question_id'])} was first used on line {group.candidates[0].line} with another question "
                    f"({describe_value(group.question)}); give each question its own question_id, or write the question identically",
                )
            )
            continue
        answer_key, text_answer_key = candidate_keys(parsed["answer"], parsed["gen_text"])
        gold_match = matches_gold(answer_key, parsed["gold"])
        if parsed["label"] is None and gold_match is None:
            report.rejected += 1
            report.errors.append(
                LineError(
                    number,
                    "label",
                    "missing_field",
                    f"missing, and the gold answer {describe_value(parsed['gold'])} has no final answer to label the line by; "
                    'give "label" (0 or 1) or a gold answer',
                )
            )
            continue
        report.accepted += 1
        if group is None:
            group = Group(parsed["question_id"], parsed["question"])
            by_key[key] = group
            groups.append(group)
        group.candidates.append(
            Candidate(
                line=number,
                gen_text=parsed["gen_text"],
                label=parsed["label"] if parsed["label"] is not None else int(bool(gold_match)),
                answer=parsed["answer"],
                answer_key=classes.setdefault(key, AnswerClasses()).class_of(answer_key),
                gold=parsed["gold"],
                source=parsed["source"],
                text_answer_key=text_answer_key,
                label_from_gold=parsed["label"] is None,
                gold_match=gold_match,
            )
        )
    if report.accepted == 0:
        raise NoValidLinesError(report)
    return Dataset(groups, report.accepted, report)
