"""Every reader's lines end here: grouping, answer keys (a question's equal answers vote under one key:
answer_classes.py), labels given or from gold, and the rule for files without any label
(src/engine/data/formats/collector.ts is the twin): until a line gives a label or a gold answer, lines without
both wait; if none ever does they load as a picks set, else they are rejected 'missing'."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional

from ..answers.answer_classes import AnswerClasses
from ..answers.answers import candidate_keys, gold_answer_key, matches_gold
from .record import Candidate, Group, IngestReport, LineError, describe_value


@dataclass
class RawSample:
    gen_text: str
    label: Optional[int]
    answer: Optional[str]
    source: Optional[str]
    reasoning: Optional[str] = None
    # One candidate per line: the line's numeric fields besides the record's own (candidates.py).
    scores: Optional[Dict[str, float]] = None


@dataclass
class RawLine:
    line: int
    question_id: Optional[str]
    question: str
    gold: Optional[str]
    samples: List[RawSample] = field(default_factory=list)


class Collector:
    def __init__(self, require_labels: bool = False) -> None:
        self.report = IngestReport()
        self.groups: List[Group] = []
        self._by_key: Dict[str, Group] = {}
        # Each group's answer classes (by the group's key): its candidates' keys are their class's key.
        self._classes: Dict[str, AnswerClasses] = {}
        self._pending: list = []
        self._file_order: Dict[Optional[str], int] = {}
        self.labelled = False
        self.given_labels = False
        self.candidate_count = 0
        self._require = require_labels
        self._file: Optional[str] = None
        self._default: Optional[str] = None

    def set_file(self, file: Optional[str], default_source: Optional[str]) -> None:
        self._file = file
        self._default = default_source
        self._file_order.setdefault(file, len(self._file_order))

    def reject(self, e: LineError) -> None:
        self.report.rejected += 1
        e.file = self._file
        self.report.errors.append(e)

    def line(self, raw: RawLine) -> None:
        if not self._require and not self.labelled:
            if raw.gold is None and all(s.label is None for s in raw.samples):
                self._pending.append((raw, self._file, self._default))
                return
            self.labelled = True
            file = self._file
            for p_raw, p_file, _ in self._pending:
                self._file = p_file
                self._reject_missing(p_raw)
            self._pending = []
            self._file = file
        self._add(raw, self._default, True)

    def finish(self) -> None:
        if not self.labelled:
            for raw, file, default in self._pending:
                self._file = file
                self._add(raw, default, False)
            self._pending = []
        self._classes.clear()
        order = lambda e: (self._file_order.get(e.file, 0), e.line)  # noqa: E731
        self.report.errors.sort(key=order)

    def _reject_missing(self, raw: RawLine) -> None:
        reason = (
            "missing"
            if raw.gold is None
            else f"missing, and the gold answer {describe_value(raw.gold)} has no final answer to label the line by; "
            'give "label" (0 or 1) or a gold answer'
        )
        self.reject(LineError(raw.line, "label", "missing_field", reason))

    def _add(self, raw: RawLine, default: Optional[str], labelled: bool) -> None:
        key = f"id:{raw.question_id}" if raw.question_id is not None else f"q:{raw.question}"
        group = self._by_key.get(key)
        if group is not None and group.question != raw.question:
            first = group.candidates[0]
            where = f"{first.file} line {first.line}" if first.file is not None and first.file != self._file else f"line {first.line}"
            self.reject(
                LineError(
                    raw.line,
                    "question",
                    "conflicting_question",
                    f"question_id {describe_value(raw.question_id)} was first used on {where} with another question "
                    f"({describe_value(group.question)}); give each question its own question_id, or write the question identically",
                )
            )
            return
        gold_known = raw.gold is not None and gold_answer_key(raw.gold) is not None
        if labelled and not gold_known and any(s.label is None for s in raw.samples):
            self._reject_missing(raw)
            return
        self.report.accepted += 1
        if group is None:
            group = Group(raw.question_id, raw.question)
            self._by_key[key] = group
            self.groups.append(group)
        classes = self._classes.setdefault(key, AnswerClasses())
        for s in raw.samples:
            answer_key, text_key = candidate_keys(s.answer, s.gen_text)
            c = Candidate(
                line=raw.line, gen_text=s.gen_text, label=None, answer=s.answer, answer_key=classes.class_of(answer_key), gold=raw.gold,
                source=s.source if s.source is not None else default, text_answer_key=text_key, label_from_gold=None,
                gold_match=None, file=self._file, reasoning=s.reasoning, scores=s.scores,
            )
            if labelled:
                gold_match = matches_gold(answer_key, raw.gold)
                if s.label is not None:
                    self.given_labels = True
                c.label = s.label if s.label is not None else int(bool(gold_match))
                c.label_from_gold = s.label is None
                c.gold_match = gold_match
            group.candidates.append(c)
            self.candidate_count += 1
