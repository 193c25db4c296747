"""Score a JSONL file with a weights file (from the app or from eorm.train).

    python3 -m eorm.score --weights FILE.safetensors --data FILE.jsonl [--groups val --seed 42]

Prints one JSON object per accepted input line, in file order:
`{"line", "energy", "group", "index", "label", "answer", "rank"}` (`line` 1-based, `group` the group's
0-based index in order of first appearance, `index` the candidate's position in its group, `rank` 1 =
lowest energy in its group), then one last object `{"metrics": …, "selection": …, "curve": …, "sources": […]}` with the app's figures over
the scored groups (`selection`: the app's SelectionReport, eorm/selection.py; `sources`: the per-source audit, eorm/sources.py; [] when the lines name no source). Rejected lines go to stderr (line, field, reason), as the app reports them.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from typing import List, Optional

import torch

from .dataset import load_training_data
from .metrics import evaluate_groups, rank_key
from .ncurve import best_of_n_curve
from .model import score_candidates
from .selection import fit_subset, selection_report
from .sources import source_audit, source_index
from .split import split_groups
from .weights import load_model_file_or_exit


def _finite(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_finite(x) for x in v]
    return v


def main(argv: Optional[List[str]] = None) -> None:
    p = argparse.ArgumentParser(prog="python -m eorm.score", description="Energies (lower = better) of every candidate of a JSONL file, then the metrics.")
    p.add_argument("--weights", required=True, help=".safetensors model file (app export or eorm.train output)")
    p.add_argument("--data", required=True, help="JSONL file")
    p.add_argument("--groups", choices=["all", "train", "val"], default="all", help="score every group (a test file), or one part of the seeded split (the app's validation set: val)")
    p.add_argument("--seed", type=int, default=42, help="split seed for --groups train|val")
    p.add_argument("--device", default="cpu", help="cpu (default), cuda, cuda:N")
    p.add_argument("--batch-tokens", type=int, default=64 * 512)
    p.add_argument("--curve-subsets", type=int, default=64, help="0 = no Best-of-N-vs-N curve")
    p.add_argument("--threads", type=int, default=0, help="torch CPU threads (0 = torch's default)")
    p.add_argument("--fit-data", default=None, help="training JSONL whose training split (--seed) fits the weighted vote's temperature when --groups all scores a test file; --groups val fits on --data's own training split")
    args = p.parse_args(argv)
    if args.threads > 0:
        torch.set_num_threads(args.threads)

    model, loaded = load_model_file_or_exit(args.weights, "--weights")
    for w in loaded.warnings:
        print(f"{args.weights}: {w}", file=sys.stderr)
    device = torch.device(args.device)
    model.to(device)
    data = load_training_data(args.data, model.cfg.maxLen, quiet=True)
    for e in data.dataset.report.errors:
        print(e.message(), file=sys.stderr)
    if args.groups == "all":
        groups = list(range(data.n_groups))
    else:
        train, val = split_groups(data.group_labels(), args.seed)
        groups = train if args.groups == "train" else val
    cand = data.candidates(groups)
    energies = score_candidates(model, [data.ids[i] for i in cand], device, args.batch_tokens)
    scored = data.scored(groups, energies)

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
        out.write(json.dumps(_finite(r)) + "\n")
    summary = evaluate_groups(scored)
    selection = _selection(args, model, device, data, scored)
    curve = best_of_n_curve(scored, args.seed, args.curve_subsets) if args.curve_subsets > 0 and scored else []
    names, src = source_index(data.sources)
    sourced = [(sg.energies, sg.labels, [src[c] for c in data.candidates([g])]) for g, sg in zip(groups, scored)]
    sources = source_audit(sourced, names)
    out.write(json.dumps(_finite({"metrics": summary, "selection": selection, "curve": curve, "sources": sources, "groups": args.groups, "weights": args.weights, "config": model.cfg.to_dict()})) + "\n")


def _selection(args, model, device, data, scored):
    """The app's selection report: the vote's temperature fitted, as the app fits it, on a seeded subset of at
    most 256 groups of a training split, never on the groups reported."""
    fit_data, reason = None, None
    if args.groups == "val":
        fit_data = data
    elif args.groups == "train":
        reason = "the reported groups are the training split"
    elif args.fit_data:
        fit_data = load_training_data(args.fit_data, model.cfg.maxLen, quiet=True)
    else:
        reason = "no training data given (--fit-data)"
    fit_on = None
    if fit_data is not None:
        train, _ = split_groups(fit_data.group_labels(), args.seed)
        fit = fit_subset(train, args.seed)
        cand = fit_data.candidates(fit)
        fit_on = fit_data.scored(fit, score_candidates(model, [fit_data.ids[i] for i in cand], device, args.batch_tokens))
    return selection_report(scored, args.seed, fit_on, no_fit_reason=reason or "")


if __name__ == "__main__":
    main()
