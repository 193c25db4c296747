"""What a model file records for later use (its last validation's probability map, the generator weights it
learnt), read as the app's src/engine/metrics/rerankProbability.ts reads it: untrusted, taken only when whole."""
from __future__ import annotations

import math
from typing import Dict, List, Optional

from ..rules import PRIMARY_VERIFIER_RULE, SELECTION_RULES
from .selector import SELECTOR_FEATURES


def selector_coefficients(v, fields: int = 0) -> Optional[List[float]]:
    """A selector's coefficients for `fields` named fields; one recorded before the generator feature (5
    coefficients, no field) reads as one whose generator coefficient is 0."""
    if not isinstance(v, list) or not all(_finite(x) for x in v):
        return None
    if len(v) == len(SELECTOR_FEATURES) + fields:
        return [float(x) for x in v]
    if fields == 0 and len(v) == len(SELECTOR_FEATURES) - 1:
        return [float(x) for x in v] + [0.0]
    return None


def _field_names(v) -> Optional[List[str]]:
    """Recorded selector field names: distinct non-empty strings, else None."""
    if v is None:
        return []
    if not isinstance(v, list) or not all(isinstance(f, str) and f for f in v) or len(set(v)) != len(v):
        return None
    return list(v)


def read_generator_weights(v) -> Optional[Dict]:
    """Recorded generator weights, or None when they are not whole."""
    if not isinstance(v, dict) or v.get("method") not in ("labels", "agreement"):
        return None
    names, rel, answers = v.get("names"), v.get("reliability"), v.get("answers")
    rate = lambda x: _finite(x) and 0 < x < 1
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    if not isinstance(rel, list) or len(rel) != len(names) or not all(rate(x) for x in rel):
        return None
    if not isinstance(answers, list) or len(answers) != len(names) or not all(_finite(x) for x in answers):
        return None
    if not rate(v.get("pooled")) or not _finite(v.get("alternatives")) or v["alternatives"] < 2:
        return None
    return {"method": v["method"], "names": names, "reliability": [float(x) for x in rel], "answers": answers, "pooled": float(v["pooled"]), "alternatives": v["alternatives"]}


def _finite(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def read_probability_map(v) -> Optional[Dict]:
    """readProbabilityMap: a map recorded in a model file's metadata, or None when it is not a whole one."""
    if not isinstance(v, dict):
        return None
    t, platt, sel, use = v.get("temperature"), v.get("platt"), v.get("selector"), v.get("use")
    if not _finite(t) or t <= 0:
        return None
    if platt is not None and not (isinstance(platt, dict) and _finite(platt.get("a")) and _finite(platt.get("b"))):
        return None
    fields = _field_names(v.get("selectorFields"))
    if fields is None:
        return None
    selector = None if sel is None else selector_coefficients(sel, len(fields))
    if sel is not None and selector is None:
        return None
    # `use` is "vote" or, stored under its id, the primary verifier rule (the selector's coefficients).
    if use not in ("vote", PRIMARY_VERIFIER_RULE):
        return None
    out = {"temperature": float(t), "platt": {"a": float(platt["a"]), "b": float(platt["b"])} if platt else None, "selector": selector, "use": use}
    if fields:
        out["selectorFields"] = fields
    if v.get("recommended") in SELECTION_RULES:
        out["recommended"] = v["recommended"]
    generators = read_generator_weights(v.get("generators"))
    if generators:
        out["generators"] = generators
    u = v.get("unanimous")
    if isinstance(u, dict) and _finite(u.get("right")) and _finite(u.get("questions")) and 0 <= u["right"] <= u["questions"]:
        out["unanimous"] = {"right": u["right"], "questions": u["questions"]}
    return out


def probability_map(training: Optional[Dict]) -> Dict:
    """What the weights record (their last validation's map), else a recorded temperature alone, else T = 1,
    as the app's Rerank and Pick answers read a model file."""
    training = training or {}
    recorded = read_probability_map(training.get("probabilityMap"))
    if recorded:
        return recorded
    t = training.get("temperature")
    return {"temperature": float(t) if _finite(t) and t > 0 else 1.0, "platt": None, "selector": None, "use": "vote"}
