"""`python -m eorm.score --picks OUT`: the verifier's pick for every question of --data, written to OUT as the
app's Pick answers writes picks.jsonl (eorm/picks.py; the app's src/engine/score/picksRun.ts). Questions are
tokenized and scored a chunk at a time, so memory is bounded by the chunk. Under torchrun each rank scores a
contiguous share of the questions into OUT.part<rank>; rank 0 joins the parts in rank order, which is input
order, into one OUT (the parts must be on storage every rank sees, as eorm.train's --out)."""
from __future__ import annotations

import json
import math
import os
import sys
import time
from typing import Dict, List, Optional, Tuple

from .training.distributed import Dist
from .data_files import read_data_or_exit
from .formats import FormatRead
from .metrics.generator_agreement import fit_agreement_generators
from .metrics.generators import candidate_weights
from .model import score_candidates
from .picks import pick_question, picks_line, picks_record, resolve_rule
from .metrics.recorded_map import probability_map
from .tokenize import tokenize_groups

# Questions per chunk, as the app's PICKS_CHUNK_QUESTIONS.
CHUNK_QUESTIONS = 256


def read_groups(paths) -> Tuple[FormatRead, bool]:
    """The groups of the file, or of the files read together, whatever their format (eorm/formats), and whether
    their candidates carry labels (a picks set's are None); files that cannot be read end the command in one line."""
    read = read_data_or_exit(paths)
    return read, read.labels_from != "none"


def share(n: int, rank: int, world: int) -> range:
    """The contiguous questions a rank picks."""
    return range(n * rank // world, n * (rank + 1) // world)


def set_generators(groups, pmap: Optional[Dict]):
    """Each question's candidate generator weights over the whole set (the app's picksRun.ts setGenerators): the
    model's, from its training labels, and those learnt from agreement over every question of the set."""
    names: List[str] = []
    index: Dict[str, int] = {}
    sourced = []
    for g in groups:
        src = []
        for c in g.candidates:
            if c.source is None:
                src.append(-1)
                continue
            if c.source not in index:
                index[c.source] = len(names)
                names.append(c.source)
            src.append(index[c.source])
        sourced.append({"answers": [c.answer_key for c in g.candidates], "labels": [0] * len(g.candidates), "sources": src})
    agreement = fit_agreement_generators(sourced, names)
    labelled = (pmap or {}).get("generators")

    def of(g: int) -> Dict:
        cand = [c.source for c in groups[g].candidates]
        return {"labelled": candidate_weights(labelled, cand) if labelled else None, "agreement": candidate_weights(agreement, cand) if agreement else None}

    return of, len(names) >= 2


def write_picks(model, groups, questions: range, pmap, rule: str, out, device, batch_tokens: int, generators, chunk: int = CHUNK_QUESTIONS, progress=None) -> List[int]:
    """Picks of `questions` written to `out` (`model` None: nothing scored); [questions, labelled, correct]."""
    tally = [0, 0, 0]
    t0 = time.perf_counter()
    for s in range(questions.start, questions.stop, chunk):
        part = [groups[g] for g in range(s, min(s + chunk, questions.stop))]
        energies = None
        if model is not None:
            ids = tokenize_groups(part, model.cfg.maxLen, model.cfg.clsId, model.cfg.sepId, workers=1)
            energies = score_candidates(model, [t for group in ids for t in group], device, batch_tokens)
        k = 0
        for j, g in enumerate(part):
            e = energies[k : k + len(g.candidates)] if energies is not None else None
            k += len(g.candidates)
            labels = [c.label for c in g.candidates] if g.candidates[0].label is not None else None
            fields = [[(c.scores or {}).get(f, math.nan) for c in g.candidates] for f in (pmap or {}).get("selectorFields", [])]
            pick = pick_question([c.answer_key for c in g.candidates], e, pmap, rule, generators(s + j), fields)
            rec = picks_record(s + j, g.question_id, g.question, [c.gen_text for c in g.candidates], labels, e, rule, pick)
            out.write(picks_line(rec))
            tally[0] += 1
            if rec["correct"] is not None:
                tally[1] += 1
                tally[2] += rec["correct"]
        if progress:
            done = s + len(part) - questions.start
            rate = done / max(1e-9, time.perf_counter() - t0)
            progress(f"picks: {done}/{len(questions)} questions, {rate:.1f}/s, about {(len(questions) - done) / rate:.0f} s left")
    return tally


def run_picks(args, model, loaded) -> None:
    """Picks with the model of --weights, or without one (`model` None): majority vote or the generator vote learnt without labels."""
    dist = Dist(args.device)
    if model is not None:
        model.to(dist.device)
    dataset, _ = read_groups(args.data)
    if dist.main:
        for e in dataset.report.errors:
            print(e.message(), file=sys.stderr)
    pmap = probability_map(loaded.training) if model is not None else None
    generators, names_generators = set_generators(dataset.groups, pmap)
    try:
        rule = resolve_rule(args.rule, pmap, names_generators)
    except ValueError as e:
        raise SystemExit(f"--rule {args.rule}: {e}") from None
    n = len(dataset.groups)
    tmp = args.picks + ".tmp"
    part_path = f"{args.picks}.part{dist.rank}" if dist.enabled else tmp
    say = (lambda m: print(m, file=sys.stderr)) if dist.main else None
    try:
        with open(part_path, "w", encoding="utf-8", newline="\n") as out:
            tally = write_picks(model, dataset.groups, share(n, dist.rank, dist.world), pmap, rule, out, dist.device, args.batch_tokens, generators, progress=say)
        totals = [sum(col) for col in zip(*dist.all_gather(tally))]
        dist.barrier()
        if dist.main:
            if dist.enabled:
                join_parts(args.picks, dist.world, tmp)
            os.replace(tmp, args.picks)
            summary = {"picks": args.picks, "questions": totals[0], "rule": rule, "labelled": totals[1], "accuracy": totals[2] / totals[1] if totals[1] else None, "probabilityMap": pmap, "ranks": dist.world}
            print(json.dumps(summary))
    except BaseException:
        # A run cut short leaves OUT as it was: no half-written part or .tmp beside it.
        for path in (part_path, tmp) if dist.main else (part_path,):
            if os.path.exists(path):
                os.remove(path)
        raise
    dist.barrier()
    dist.close()


def join_parts(picks: str, world: int, tmp: str) -> None:
    """The ranks' parts, in rank order (input order), into `tmp`; each part removed once copied."""
    with open(tmp, "w", encoding="utf-8", newline="\n") as out:
        for r in range(world):
            with open(f"{picks}.part{r}", "r", encoding="utf-8") as f:
                for line in f:
                    out.write(line)
            os.remove(f"{picks}.part{r}")
