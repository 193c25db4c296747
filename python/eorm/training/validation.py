"""The figures of a validation, with the scoring shared by the ranks: every rank scores a share of the
candidates of the validation groups (the vote's calibration and the selector are cross-fitted over them), rank 0 gets all energies and computes the figures as the app's evaluateModel (src/engine/score/evaluation.ts):
the summary, the Best-of-N curve and the selection report over the questions with both labels, each rule's
accuracy over every validation question (selection.allQuestions, allQuestionsAccuracy) and the energy
histogram over every validation candidate."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence

import torch

from ..dataset import TrainingData
from .distributed import Dist
from ..metrics.generator_table import with_generators
from ..metrics.held_out import evaluation_figures
from ..metrics.summary import energy_histogram
from ..model import TransEBM, score_candidates
from ..metrics.sources import source_index
from ..metrics.training_generators import training_generators

CURVE_SUBSETS = 64
HISTOGRAM_BINS = 30


def validation_figures(module: TransEBM, data: TrainingData, groups: List[int], seed: int, dist_: Dist, amp, batch_tokens: int, curve_subsets: int, train_groups: Optional[List[int]] = None, fields: Sequence[str] = ()) -> Optional[Dict]:
    """{summary, histogram, curve, selection, allQuestionsAccuracy} on rank 0, None on the others. Nothing
    is fitted on training groups but the generator weights (from their labels, as the app's validate.ts): the
    calibration and the selector are cross-fitted over `groups`."""
    cand = data.candidates(groups)
    mine = cand[dist_.rank :: dist_.world]
    e_mine = score_candidates(module, [data.ids[i] for i in mine], dist_.device, batch_tokens, amp)
    full = torch.zeros(len(cand), dtype=torch.float32, device=dist_.device)
    full[dist_.rank :: dist_.world] = torch.tensor(e_mine, dtype=torch.float32, device=dist_.device)
    dist_.all_sum(full)
    if not dist_.main:
        return None
    energies = full.cpu().tolist()
    scored = data.scored(groups, energies, fields)
    labelled = training_generators(data, train_groups, seed) if train_groups is not None else None
    names, src = source_index(data.sources)
    scored_g, _, table = with_generators(scored, [[src[c] for c in data.candidates([g])] for g in groups], names, labelled)
    ev = evaluation_figures(scored_g, seed, curve_subsets, True)
    if fields:
        ev["selection"]["probabilityMap"]["selectorFields"] = list(fields)
    if table:
        ev["selection"]["probabilityMap"]["generators"] = labelled
        ev["selection"]["generators"] = table
    return {"summary": ev["summary"], "histogram": energy_histogram(scored, HISTOGRAM_BINS), "curve": ev["curve"], "selection": ev["selection"], "allQuestionsAccuracy": ev["allQuestionsAccuracy"]}
