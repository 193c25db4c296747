"""Score a JSONL file with a weights file (from the app or from eorm.train).

    python3 -m eorm.score --weights FILE.safetensors --data FILE.jsonl [FILE ...] [--groups val]

Prints one JSON object per accepted input line, in file order:
`{"line", "energy", "group", "index", "label", "answer", "rank"}` (`line` 1-based, `group` the group's
0-based index in order of first appearance, `index` the candidate's position in its group, `rank` 1 =
lowest energy in its group), then one last object `{"metrics": …, "selection": …, "curve": …, "allQuestionsAccuracy": …, "sources": […]}`
with the app's figures (src/engine/score/evaluation.ts): `metrics`, `curve` and `selection` (the app's
SelectionReport, eorm/selection.py) over every scored question of a test file (--groups all), or, as the
app validates, over the questions with both labels of --groups train|val, with `selection.allQuestions` (each
rule over every one of them); the vote's temperature, probability map and the learned selector are
cross-fitted over the reported questions (eorm/metrics/cross_fit.py: every figure that depends on them out of fold,
nothing fitted on training groups); `allQuestionsAccuracy` (the recommended rule's accuracy over every scored
question) and `sources` (the per-source audit, eorm/metrics/sources.py; [] when the lines name no source) over every
scored question.

`selection.length`: the length check (eorm/metrics/length_bias.py, the app's lengthBias.ts), over the questions the
selection report is over: within-question rank correlations of energy and of correctness with answer tokens,
their paired difference, its sentence, and the shortest / longest rules. `selection.singleLabel` (--groups
train|val): what the questions with a single label add to each rule, in the app's words (eorm/metrics/single_label.py).

--picks OUT (with --rule): one line per question of --data instead, the verifier's pick with its calibrated
probability, runner-up and energies (eorm/picks_run.py; the fields in docs/design.md, "Picks"); under torchrun
each rank scores its share and rank 0 writes the one file.

--groups train|val: the split the weights record for this file (its seed, fraction, kind and held-out
sources: the groups and candidates the app validates on), as an --init model's in eorm.train; --seed,
--train-fraction and --split only when the weights record no split of this file (a note on stderr says which).
A best checkpoint validated on the split it records (--groups val) was chosen by these figures: stderr says
they are optimistic, in the app's words, and the final object's `chosenOnValidation` is true.
Rejected lines go to stderr (line, field, reason), as the app reports them.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import List, Optional

import torch

from .data_files import check_data_files, data_identity, data_name
from .dataset import TrainingData, load_training_data_or_exit
from .metrics.generator_table import with_generators
from .metrics.held_out import evaluation_figures
from .metrics.held_out_note import OPTIMISTIC, chosen_on_validation
from .training.kept import keep_candidates
from .metrics.length_bias import answer_tokens_by_line, length_bias
from .metrics.summary import rank_key
from .model import score_candidates
from .picks import PICK_RULES
from .metrics.recorded_map import probability_map
from .metrics.training_generators import training_generators
from .js import finite_or_null
from .picks_run import run_picks
from .score_field import DEFAULT_SCORE_FIELD, run_score_field
from .metrics.single_label import single_label_note
from .metrics.sources import source_audit, source_index
from .split import DEFAULT_TRAIN_FRACTION, RECORDED_SPLIT_KIND_DEFAULT, holdout_split, recorded_figure_seed, split_for_init
from .weights import load_model_file_or_exit


def main(argv: Optional[List[str]] = None) -> None:
    p = argparse.ArgumentParser(prog="python -m eorm.score", description="Energies (lower = better) of every candidate of a JSONL file, then the metrics.")
    p.add_argument("--weights", help=".safetensors model file (app export or eorm.train output); not needed with --score-field, nor for --picks by majority vote or the generator vote learnt without labels")
    p.add_argument("--data", required=True, nargs="+", metavar="FILE", help="data file(s) in any format the app reads (eorm.formats), several read together as the app reads files dropped together (a chat batch's request and output files, one results file per model); without --picks they need labels or gold answers")
    p.add_argument("--groups", choices=["all", "train", "val"], default="all", help="score every group (a test file), or one part of the seeded split (the app's validation set: val)")
    p.add_argument("--seed", type=int, default=42, help="split seed for --groups train|val when the weights record no split of --data; the bootstrap, the curve and the calibration's folds take the seed the weights record (their run's, else their split's), this one only when they record none")
    p.add_argument("--train-fraction", type=float, default=DEFAULT_TRAIN_FRACTION, help="split fraction when the weights record no split of --data")
    p.add_argument("--split", choices=["all", "mixed"], default=RECORDED_SPLIT_KIND_DEFAULT, help="split kind when the weights record no split of --data (default mixed, the split before kinds)")
    p.add_argument("--device", default="cpu", help="cpu (default), cuda, cuda:N")
    p.add_argument("--batch-tokens", type=int, default=64 * 512)
    p.add_argument("--curve-subsets", type=int, default=64, help="0 = no Best-of-N-vs-N curve")
    p.add_argument("--threads", type=int, default=0, help="torch CPU threads (0 = torch's default)")
    p.add_argument("--picks", metavar="OUT", help="write the pick of every question of --data to OUT (picks.jsonl, as the app's Pick answers) instead of the energies; runs under torchrun")
    p.add_argument("--rule", choices=PICK_RULES, default="recommended", help="--picks: the selection rule (default: the one the weights' last evaluation recommended)")
    p.add_argument("--score-field", metavar="NAME", nargs="?", const=DEFAULT_SCORE_FIELD, help=f"evaluate the scores each candidate line carries in NAME (default {DEFAULT_SCORE_FIELD}) instead of a model's: each --data file on its own, one JSON object per file (--json)")
    p.add_argument("--higher-is-better", action="store_true", help="--score-field: higher scores are better (an energy's are lower)")
    p.add_argument("--json", action="store_true", help="--score-field: one JSON object per file on its own line (the only output it has)")
    p.add_argument("--selector-field", metavar="NAME", action="append", default=None, help="a numeric field of the lines (another reward model's score, a mean logprob) the learned selector also reads, beside vote share, energy and generator; repeat for several (default: the fields the weights' selector was fitted with)")
    args = p.parse_args(argv)
    if args.threads > 0:
        torch.set_num_threads(args.threads)

    check_data_files(args.data)
    if args.score_field:
        return run_score_field(args)
    if args.weights is None:
        if args.picks:
            return run_picks(args, None, None)
        p.error("--weights is required (or --score-field NAME to evaluate scores the file carries)")
    model, loaded = load_model_file_or_exit(args.weights, "--weights")
    for w in loaded.warnings:
        print(f"{args.weights}: {w}", file=sys.stderr)
    if args.picks:
        return run_picks(args, model, loaded)
    # As the model's own validations and the app's Evaluate: figures drawn with the seed the weights record.
    figure_seed = recorded_figure_seed(loaded.training, args.seed)
    device = torch.device(args.device)
    model.to(device)
    data = load_training_data_or_exit(args.data, model.cfg.maxLen, quiet=True)
    for e in data.dataset.report.errors:
        print(e.message(), file=sys.stderr)
    split = None
    train = None
    if args.groups == "all":
        groups = list(range(data.n_groups))
    else:
        train, val, data, split = recorded_or_own_split(args, loaded.training, args.data, data)
        groups = train if args.groups == "train" else val
        if args.groups == "val" and chosen_on_validation(loaded.training, split["dataset"]):
            print(OPTIMISTIC, file=sys.stderr)
    fields = selector_fields(args, probability_map(loaded.training), data)
    cand = data.candidates(groups)
    energies = score_candidates(model, [data.ids[i] for i in cand], device, args.batch_tokens)
    scored = data.scored(groups, energies, fields)

    rows = []
    k = 0
    for gi, (g, sg) in enumerate(zip(groups, scored)):
        keys = [rank_key(e) for e in sg.energies]
        order = sorted(range(len(keys)), key=lambda i: (keys[i], i))
        rank = {i: r + 1 for r, i in enumerate(order)}
        for i in range(len(sg.energies)):
            c = cand[k]
            rows.append({"line": data.lines[c], "energy": sg.energies[i], "group": g, "index": i, "label": data.labels[c], "answer": data.answers[c], "rank": rank[i]})
            k += 1
    rows.sort(key=lambda r: r["line"])
    out = sys.stdout
    for r in rows:
        out.write(json.dumps(finite_or_null(r)) + "\n")
    names, src = source_index(data.sources)
    # The generator weights the model learnt from its training questions' labels (recorded, else refitted on
    # the split's training questions for its own validation), and those learnt from agreement on these questions.
    labelled = probability_map(loaded.training).get("generators") or (training_generators(data, train, figure_seed) if args.groups == "val" else None)
    sources_of = [[src[c] for c in data.candidates([g])] for g in groups]
    scored_g, _, table = with_generators(scored, sources_of, names, labelled)
    ev = evaluation_figures(scored_g, figure_seed, args.curve_subsets, args.groups != "all")
    sourced = [(sg.energies, sg.labels, [src[c] for c in data.candidates([g])]) for g, sg in zip(groups, scored)]
    sources = source_audit(sourced, names)
    by_line = answer_tokens_by_line([data.dataset.groups[g] for g in groups], model.cfg.sepId)
    lengths = [[by_line[data.lines[c]] for c in data.candidates([g])] for g in groups]
    ev["selection"]["length"] = length_bias(scored_g, lengths, figure_seed, args.groups != "all")
    if args.groups != "all":
        ev["selection"]["singleLabel"] = single_label_note(scored_g)
    if fields:
        ev["selection"]["probabilityMap"]["selectorFields"] = fields
    if table:
        # The labelled generator weights travel with the map where they were used, as in the app.
        ev["selection"]["probabilityMap"]["generators"] = labelled
        ev["selection"]["generators"] = table
    final = {"metrics": ev["summary"], "selection": ev["selection"], "curve": ev["curve"], "allQuestionsAccuracy": ev["allQuestionsAccuracy"], "sources": sources, "groups": args.groups}
    if split is not None:
        final["split"] = split
        final["chosenOnValidation"] = args.groups == "val" and chosen_on_validation(loaded.training, split["dataset"])
    final.update({"weights": args.weights, "config": model.cfg.to_dict()})
    out.write(json.dumps(finite_or_null(final)) + "\n")


def selector_fields(args, pmap, data: TrainingData) -> List[str]:
    """The fields the selector reads: --selector-field's, else those the weights' selector was fitted with; a field no
    line of --data carries ends the command."""
    fields = list(dict.fromkeys(args.selector_field)) if args.selector_field else pmap.get("selectorFields", [])
    missing = data.missing_field(fields)
    if missing is not None:
        raise SystemExit(f"--selector-field {missing}: no line of --data carries a numeric field {json.dumps(missing)} (the selector reads fields of files with one candidate per line).")
    return fields


def recorded_or_own_split(args, training, paths, data: TrainingData):
    """(train, val, data, split): the split the weights record for the files at `paths` (as eorm.train's --init),
    else --seed, --train-fraction and --split's; with held-out sources, `data` narrowed to the candidates the
    split keeps (validation: the held-out sources' ones), as the app validates."""
    split, notes = split_for_init(training, os.path.basename(args.weights), data_name(paths), data_identity(paths), args.seed, args.train_fraction, args.split)
    for note in notes:
        print(note, file=sys.stderr)
    train, val, keep = holdout_split(data.labels, data.group_start, data.sources, split["seed"], split["trainFraction"], split["kind"], split.get("holdoutSources", []))
    if keep is not None:
        data = keep_candidates(data, keep)
    return train, val, data, split


if __name__ == "__main__":
    main()
