"""One question's pick under a selection rule, with the calibrated probability the app's Rerank shows, and the
picks.jsonl record: the twin of src/engine/score/picksRule.ts, picksRecord.ts and the answer shares of
src/engine/metrics/answerShares.ts and rerankProbability.ts (same ties, same float order)."""
from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence

from .cross_fit import apply_platt
from .recorded_map import selector_coefficients
from .selector import answer_features, selector_probabilities
from .js import json_stringify
from .metrics import AnswerSlots, answer_masses, rank_key

PICK_RULES = ("recommended", "selector", "weightedVote", "bestOfN", "majority")


def answer_shares(answers: Sequence[Optional[str]], energies: Sequence[float], temperature: float) -> List[Dict]:
    """answerShares.ts: the answers in first-seen order (the no-answer row last) with their share of
    softmax(-E/T), the heaviest picked (ties: the first), each answer's candidates lowest energy first."""
    slots = AnswerSlots(answers, [0] * len(answers))
    mass = answer_masses(slots, energies, temperature)
    rows = [{"answer": None, "probability": m, "picked": False, "candidates": []} for m in mass]
    none = {"answer": None, "probability": 1.0, "picked": False, "candidates": []}
    for i, a in enumerate(answers):
        k = slots.slot[i]
        if k >= 0:
            rows[k]["answer"] = a
        (rows[k] if k >= 0 else none)["candidates"].append(i)
    pick = None
    for r in rows:
        none["probability"] -= r["probability"]
        if pick is None or r["probability"] > pick["probability"]:
            pick = r
    if pick is not None:
        pick["picked"] = True
    if none["candidates"]:
        rows.append({**none, "probability": max(0.0, none["probability"])})
    for r in rows:
        r["candidates"].sort(key=lambda i: (rank_key(energies[i]), i))
    return rows


def rerank_answers(answers, energies, pmap: Dict) -> List[Dict]:
    """rerankProbability.ts: the map's probabilities (the selector's, Platt's map of the share, or the share)."""
    rows = answer_shares(answers, energies, pmap["temperature"])
    named = [r for r in rows if r["answer"] is not None]
    if pmap["use"] == "selector" and pmap.get("selector"):
        p = selector_probabilities(answer_features(answers, energies, [0] * len(answers))[1], selector_coefficients(pmap["selector"]) or pmap["selector"])
        best = -1
        for k, r in enumerate(named):
            r["probability"] = p[k]
            r["picked"] = False
            if best < 0 or p[k] > p[best]:
                best = k
        if best >= 0:
            named[best]["picked"] = True
    elif pmap.get("platt"):
        for r in named:
            r["probability"] = apply_platt(pmap["platt"], r["probability"])
    return rows


def resolve_rule(choice: str, pmap: Dict) -> str:
    if choice == "recommended":
        return "selector" if pmap["use"] == "selector" and pmap.get("selector") else "weightedVote"
    if choice == "selector" and not pmap.get("selector"):
        raise ValueError("The learned selector was not fitted for this model (evaluate it on validation data first), so it cannot pick; choose another rule.")
    return choice


def _lowest(indices, energies) -> int:
    best = -1
    for i in indices:
        if best < 0 or rank_key(energies[i]) < rank_key(energies[best]):
            best = i
    return best


def pick_question(answers: Sequence[Optional[str]], energies: Sequence[float], pmap: Dict, rule: str) -> Dict:
    use = "selector" if rule == "selector" else "vote" if rule == "weightedVote" else pmap["use"]
    rows = rerank_answers(answers, energies, {**pmap, "use": use})
    named = [r for r in rows if r["answer"] is not None]
    picked = None
    if rule == "bestOfN":
        index = _lowest(range(len(answers)), energies)
        picked = next((r for r in named if r["answer"] == answers[index]), None)
    else:
        if rule == "majority":
            for r in named:
                if picked is None or len(r["candidates"]) > len(picked["candidates"]):
                    picked = r
        else:
            picked = next((r for r in named if r["picked"]), None)
        index = picked["candidates"][0] if picked else _lowest(range(len(answers)), energies)
    runner = None
    for r in named:
        if r is not picked and (runner is None or r["probability"] > runner["probability"]):
            runner = r
    return {
        "index": index,
        "answer": picked["answer"] if picked else None,
        "probability": picked["probability"] if picked else None,
        "runnerUp": runner["answer"] if runner else None,
        "runnerUpProbability": runner["probability"] if runner else None,
    }


def picks_record(position: int, question_id, question: str, texts: Sequence[str], labels, energies: Sequence[float], rule: str, pick: Dict) -> Dict:
    """picksRecord.ts: the fields of one picks.jsonl line, in its order; `labels` None without labels."""
    label = labels[pick["index"]] if labels is not None else None
    return {
        "group": position,
        "questionId": question_id,
        "question": question,
        "index": pick["index"],
        "text": texts[pick["index"]],
        "answer": pick["answer"],
        "rule": rule,
        "probability": pick["probability"],
        "runnerUp": pick["runnerUp"],
        "runnerUpProbability": pick["runnerUpProbability"],
        "energies": [float(e) if math.isfinite(e) else None for e in energies],
        "correct": label if label in (0, 1) else None,
    }


def _stringify(v) -> str:
    if isinstance(v, dict):
        return "{" + ",".join(f"{json_stringify(k)}:{_stringify(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_stringify(x) for x in v) + "]"
    return json_stringify(v)


def picks_line(record: Dict) -> str:
    """The line as the app's JSON.stringify writes it (numbers as JS prints them)."""
    return _stringify(record) + "\n"
