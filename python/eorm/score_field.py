"""Evaluate scores you bring, without a model: `python -m eorm.score --data FILE [FILE …] --score-field NAME
[--higher-is-better] [--seed N] --json`. Each file (one candidate per line, the app's own format, with labels or
gold answers) gets the whole selection report on the field's values, lower = better unless --higher-is-better:
every rule with its interval, its paired difference to majority vote with the exact test, the recommendation, the
stated verifier gain, what the score adds, the length check. One JSON object per file on its own line. The app's
Evaluate with no model loaded reads a file the same way (src/engine/score/scoreField.ts)."""
from __future__ import annotations

import json
import sys
from typing import Dict, List

import numpy as np

from .data_files import read_data_or_exit
from .dataset import TrainingData, UnlabeledDataError, training_data
from .js import finite_or_null
from .metrics.generator_table import with_generators
from .metrics.held_out import evaluation_figures
from .metrics.length_bias import TOKEN_CAP, answer_tokens_by_line, length_bias
from .metrics.sources import source_index
from .config import GPT2_EOT

DEFAULT_SCORE_FIELD = "energy"


def field_values(path: str, data: TrainingData, field: str) -> List[float]:
    """Each candidate's `field`, in candidate order; a missing or non-numeric value ends the command naming its line."""
    by_line: Dict[int, float] = {}
    with open(path, encoding="utf-8-sig") as f:
        for n, text in enumerate(f, start=1):
            if text.strip():
                try:
                    obj = json.loads(text)
                except ValueError:
                    continue  # the reader reported it already
                v = obj.get(field) if isinstance(obj, dict) else None
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    by_line[n] = float(v)
    out = []
    for line in data.lines:
        if line not in by_line:
            raise SystemExit(f"{path}: line {line}: field {json.dumps(field)} is missing or not a number; every candidate needs one (--score-field NAME names it).")
        out.append(by_line[line])
    return out


def score_field_report(path: str, field: str, higher_is_better: bool, seed: int, curve_subsets: int, selector_fields=None) -> Dict:
    """The report on `field`'s values; the selector also reads `selector_fields` (the scored field left out)."""
    read = read_data_or_exit([path])
    if read.format != "candidates":
        raise SystemExit(f"{path}: --score-field reads one candidate per line (the app's own format); this file reads as {read.mapping['description']}.")
    try:
        data = training_data(read, path, TOKEN_CAP, quiet=True)
    except UnlabeledDataError as e:
        raise SystemExit(str(e)) from None
    for e in data.dataset.report.errors:
        print(e.message(), file=sys.stderr)
    values = field_values(path, data, field)
    # float32, as the app holds energies (a model's or a file's).
    energies = [float(np.float32(-v if higher_is_better else v)) for v in values]
    groups = list(range(data.n_groups))
    fields = [f for f in dict.fromkeys(selector_fields or []) if f != field]
    missing = data.missing_field(fields)
    if missing is not None:
        raise SystemExit(f"{path}: --selector-field {missing}: no line carries a numeric field {json.dumps(missing)}.")
    scored = data.scored(groups, energies, fields)
    names, src = source_index(data.sources)
    scored_g, _, table = with_generators(scored, [[src[c] for c in data.candidates([g])] for g in groups], names, None)
    ev = evaluation_figures(scored_g, seed, curve_subsets, False)
    by_line = answer_tokens_by_line(data.dataset.groups, GPT2_EOT)
    lengths = [[by_line[data.lines[c]] for c in data.candidates([g])] for g in groups]
    ev["selection"]["length"] = length_bias(scored_g, lengths, seed, False)
    if fields:
        ev["selection"]["probabilityMap"]["selectorFields"] = fields
    if table:
        ev["selection"]["probabilityMap"]["generators"] = None  # no labelled weights: no training questions
        ev["selection"]["generators"] = table
    return {"data": path, "scoreField": field, "higherIsBetter": higher_is_better, "seed": seed, "metrics": ev["summary"], "selection": ev["selection"], "allQuestionsAccuracy": ev["allQuestionsAccuracy"]}


def run_score_field(args) -> None:
    for path in args.data:
        report = score_field_report(path, args.score_field, args.higher_is_better, args.seed, args.curve_subsets, getattr(args, "selector_field", None))
        sys.stdout.write(json.dumps(finite_or_null(report)) + "\n")
        sys.stdout.flush()
