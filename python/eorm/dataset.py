"""A data file ready for the model: candidates grouped (contiguous, in file order of first appearance),
their model inputs, labels and canonical answers; the app's TrainingView plus the answers list. The file may
be in any format eorm.formats reads (as the app's data panel), as long as it has labels or gold answers."""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from .data_files import Paths, as_paths, paths_text, read_data_or_exit
from .formats import FormatRead, read_files
from .formats.record import Dataset
from .metrics.summary import ScoredGroup
from .tokenize import tokenize_groups


@dataclass
class TrainingData:
    dataset: Dataset
    max_len: int
    ids: List[List[int]]
    labels: List[int]
    group_start: List[int]
    answers: List[Optional[str]]
    lines: List[int]
    at_max_len: int
    # Each candidate's `source` (the generator that wrote it; None when the line gives none), same order as labels.
    sources: List[Optional[str]] = field(default_factory=list)
    # Each candidate's numeric fields (one candidate per line: another reward model's `score`…), same order.
    scores: List[Optional[Dict[str, float]]] = field(default_factory=list)

    @property
    def n_groups(self) -> int:
        return len(self.group_start) - 1

    def group_labels(self) -> List[List[int]]:
        return [self.labels[self.group_start[g] : self.group_start[g + 1]] for g in range(self.n_groups)]

    def candidates(self, groups: Sequence[int]) -> List[int]:
        """Candidate indices of these groups, group after group."""
        out: List[int] = []
        for g in groups:
            out.extend(range(self.group_start[g], self.group_start[g + 1]))
        return out

    def scored(self, groups: Sequence[int], energies: Sequence[float], fields: Sequence[str] = ()) -> List[ScoredGroup]:
        """ScoredGroups for `groups`, with `energies` given for their candidates in candidates(groups) order and
        the values of the named `fields` the selector reads (nan where a line has none)."""
        out = []
        k = 0
        for g in groups:
            s, e = self.group_start[g], self.group_start[g + 1]
            values = [[((self.scores[c] if c < len(self.scores) else None) or {}).get(f, math.nan) for c in range(s, e)] for f in fields] if fields else None
            out.append(ScoredGroup(list(energies[k : k + e - s]), self.labels[s:e], self.answers[s:e], fields=values))
            k += e - s
        return out

    def missing_field(self, fields: Sequence[str]) -> Optional[str]:
        """A named field no candidate line carries, or None."""
        return next((f for f in fields if not any(f in (sc or {}) for sc in self.scores)), None)


class UnlabeledDataError(ValueError):
    """A file with neither labels nor gold answers: it can be picked from (eorm.score --picks), not trained on."""


def load_training_data(data: Paths, max_len: int, workers: Optional[int] = None, quiet: bool = False) -> TrainingData:
    """The file (or the files read together, as the app reads files dropped together) ready for the model."""
    return training_data(read_files(as_paths(data)), paths_text(data), max_len, workers, quiet)


def training_data(read: FormatRead, name: str, max_len: int, workers: Optional[int] = None, quiet: bool = False) -> TrainingData:
    if read.labels_from == "none":
        raise UnlabeledDataError(
            f"{name}: read as {read.mapping['description']}. With neither a label per candidate nor a gold answer "
            "per question there is nothing to train or evaluate against: add one of them, "
            "or pick its answers with a trained model: python3 -m eorm.score --weights MODEL --data FILE --picks picks.jsonl"
        )
    dataset = Dataset(read.groups, read.candidate_count, read.report)
    if dataset.report.errors and not quiet:
        r = dataset.report
        print(f"{name}: {r.rejected} line(s) rejected, {r.accepted} accepted; first: {r.errors[0].message()}", file=sys.stderr)
    per_group = tokenize_groups(dataset.groups, max_len, workers=workers)
    ids: List[List[int]] = []
    labels: List[int] = []
    answers: List[Optional[str]] = []
    lines: List[int] = []
    sources: List[Optional[str]] = []
    scores: List[Optional[Dict[str, float]]] = []
    group_start = [0]
    for g, toks in zip(dataset.groups, per_group):
        for c, t in zip(g.candidates, toks):
            ids.append(t)
            labels.append(c.label)
            answers.append(c.answer_key)
            lines.append(c.line)
            sources.append(c.source)
            scores.append(c.scores)
        group_start.append(len(ids))
    # Inputs that fill maxLen (cut, or exactly that long).
    at_max_len = sum(1 for t in ids if len(t) == max_len)
    return TrainingData(dataset, max_len, ids, labels, group_start, answers, lines, at_max_len, sources, scores)


def load_training_data_or_exit(data: Paths, max_len: int, workers: Optional[int] = None, quiet: bool = False) -> TrainingData:
    """load_training_data for the command lines: files that are missing, or with nothing to read or nothing to
    learn from, end the command with one line that says what to do, not a traceback."""
    try:
        return training_data(read_data_or_exit(data), paths_text(data), max_len, workers, quiet)
    except UnlabeledDataError as e:
        raise SystemExit(str(e)) from None
