"""One question's pick under a selection rule, with the calibrated probability the app's Rerank shows, and the
picks.jsonl record: the twin of src/engine/score/picksRule.ts, picksRecord.ts and the answer shares of
src/engine/metrics/answerShares.ts and rerankProbability.ts (same ties, same float order)."""
from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence

from .metrics.cross_fit import apply_platt
from .metrics.generators import answer_mass, answer_posterior
from .metrics.recorded_map import selector_coefficients
from .rules import BASELINE_RULE, FALLBACK_VERIFIER_RULE, MODEL_FREE_RULES, PICK_ORDER, PRIMARY_VERIFIER_RULE, RULE_BY_ID, RULE_NAMES, generator_rule
from .metrics.selector import answer_features, selector_probabilities
from .js import json_stringify
from .metrics.summary import AnswerSlots, answer_masses, rank_key



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


def unanimous_rate(pmap: Dict) -> Optional[float]:
    u = pmap.get("unanimous")
    return (u["right"] + 0.5) / (u["questions"] + 1) if u else None


def _figures(answers, energies, pmap: Dict, use: Dict, shares: List[float]) -> List[float]:
    """Each answer's figure under `use` (`by`: a rule's pick method, rules.json)."""
    if use["by"] == "coefficients" and pmap.get("selector"):
        names = pmap.get("selectorFields") or []
        beta = selector_coefficients(pmap["selector"], len(names)) or pmap["selector"]
        # A field the answers do not carry counts as the question's mean on every candidate.
        given = use.get("fields") or []
        fields = [given[f] if f < len(given) else [math.nan] * len(answers) for f in range(len(names))]
        return selector_probabilities(answer_features(answers, energies, [0] * len(answers), use.get("generators"), fields)[1], beta)
    if use["by"] in ("generators", "counts"):
        slots = AnswerSlots(answers, [0] * len(answers))
        if use["by"] == "counts":
            return [v / len(answers) for v in slots.votes]
        weights = use.get("weights") or [1.0] * len(answers)
        return answer_posterior(answer_mass(slots, weights))
    return shares


def _uses_selector(pmap: Dict) -> bool:
    """The map says to use its selector and holds one (its `use` names the primary verifier rule, as stored)."""
    return pmap["use"] == PRIMARY_VERIFIER_RULE and bool(pmap.get("selector"))


def map_use(pmap: Dict) -> Dict:
    return {"by": "coefficients"} if _uses_selector(pmap) else {"by": "vote"}


def rerank_answers(answers, energies, pmap: Dict, use: Optional[Dict] = None) -> List[Dict]:
    """rerankProbability.ts: coherent probabilities, the picked answer's from `use`'s figures (the map's own by default)."""
    use = use or map_use(pmap)
    rows = answer_shares(answers, energies, pmap["temperature"])
    named = [r for r in rows if r["answer"] is not None]
    none = next((r for r in rows if r["answer"] is None), None)
    if not named:
        return rows
    own = _figures(answers, energies, pmap, use, [r["probability"] for r in named])
    best = 0
    for k in range(1, len(own)):
        if own[k] > own[best]:
            best = k
    for k, r in enumerate(named):
        r["picked"] = k == best
    p = apply_platt(pmap["platt"], own[best]) if use["by"] == "vote" and pmap.get("platt") else own[best]
    rate = unanimous_rate(pmap)
    if len(named) == 1 and none is None and rate is not None:
        p = rate
    named[best]["probability"] = p
    if none is not None:
        none["probability"] = min(none["probability"], 1 - p)
    rest = max(0.0, 1 - p - (none["probability"] if none is not None else 0.0))
    total = 0.0
    for k in range(len(named)):
        if k != best:
            total += own[k]
    for k, r in enumerate(named):
        if k != best:
            r["probability"] = rest * own[k] / total if total > 0 else rest / (len(named) - 1)
    return rows


PICK_RULES = ("recommended", *PICK_ORDER)


def _applies(rule: Optional[str], pmap: Dict) -> bool:
    """A recorded recommendation picks as it is with this map: not one that cannot pick, nor the labelled
    generator vote without the model's weights; the selector goes by the map's use (resolve_rule)."""
    spec = RULE_BY_ID.get(rule) if isinstance(rule, str) else None
    if spec is None or spec["pick"] in (None, "coefficients"):
        return False
    return spec["generators"] != "labelled" or bool(pmap.get("generators"))


def resolve_rule(choice: str, pmap: Optional[Dict], names_generators: bool = False) -> str:
    if pmap is None:
        if choice == "recommended":
            # Without a model: the vote with weights learnt from agreement, where the file names generators.
            free = generator_rule("agreement")
            return free if names_generators and free in MODEL_FREE_RULES else BASELINE_RULE
        if choice not in MODEL_FREE_RULES:
            raise ValueError(f"{RULE_NAMES[choice]} needs a model: give --weights, or pick by majority vote or the generator-weighted vote learnt without labels.")
        return choice
    if choice == "recommended":
        r = pmap.get("recommended")
        if _applies(r, pmap):
            return r
        return PRIMARY_VERIFIER_RULE if _uses_selector(pmap) else FALLBACK_VERIFIER_RULE
    spec = RULE_BY_ID.get(choice, {})
    if spec.get("pick") == "coefficients" and not pmap.get("selector"):
        raise ValueError("The learned selector was not fitted for this model (evaluate it on validation data first), so it cannot pick; choose another rule.")
    if spec.get("generators") == "labelled" and not pmap.get("generators"):
        raise ValueError("This model learnt no generator weights (its training file named fewer than two generators, or it was trained before them): choose the generator-weighted vote learnt without labels.")
    return choice


def _lowest(indices, energies) -> int:
    best = -1
    for i in indices:
        if best < 0 or (energies is not None and rank_key(energies[i]) < rank_key(energies[best])):
            best = i
    return best


def _use_of(rule: str, pmap: Dict, gen: Dict, fields) -> Dict:
    """The figures `rule` picks by; the lowest-energy pick shows the map's own; the selector reads the generator
    weights and fields it was fitted with."""
    spec = RULE_BY_ID.get(rule, {})
    if spec.get("pick") == "generators":
        return {"by": "generators", "weights": gen.get(spec["generators"])}
    use = {"by": spec["pick"]} if spec.get("pick") in ("coefficients", "counts", "vote") else map_use(pmap)
    if use["by"] == "coefficients":
        labelled = gen.get("labelled")
        return {"by": "coefficients", "generators": labelled if labelled is not None else gen.get("agreement"), "fields": fields}
    return use


MODEL_FREE = {"temperature": 1.0, "platt": None, "selector": None, "use": "vote"}


def pick_question(answers: Sequence[Optional[str]], energies: Optional[Sequence[float]], pmap: Optional[Dict], rule: str, generators: Optional[Dict] = None, fields=()) -> Dict:
    """`fields`: per field of the map's selectorFields, each candidate's value (nan: none)."""
    m = pmap or MODEL_FREE
    e = energies if energies is not None else [0.0] * len(answers)
    rows = rerank_answers(answers, e, m, _use_of(rule, m, generators or {}, list(fields)))
    named = [r for r in rows if r["answer"] is not None]
    picked = None
    if RULE_BY_ID.get(rule, {}).get("pick") == "lowestEnergy":
        index = _lowest(range(len(answers)), energies)
        picked = next((r for r in named if r["answer"] == answers[index]), None)
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
        "energies": [float(e) if math.isfinite(e) else None for e in energies] if energies is not None else [],
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
