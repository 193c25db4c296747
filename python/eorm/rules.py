"""The selection rules, declared once in data/rules.json (the app's src/engine/metrics/rules.ts reads the same
file): ids, names, what each rule reads and how it picks. What each rule computes is in metrics/rule_scores.py
(RULE_SCORES); no other module names a rule: they read the roles below."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List, Optional

_TABLE = json.loads((Path(__file__).parent / "data" / "rules.json").read_text(encoding="utf-8"))

RULES: List[Dict] = _TABLE["rules"]
RULE_BY_ID: Dict[str, Dict] = {r["id"]: r for r in RULES}
SELECTION_RULES: List[str] = [r["id"] for r in RULES]
COMPARED_RULES: List[str] = [r["id"] for r in RULES if r["comparedWithMajority"]]
VERIFIER_RULES: List[str] = [r["id"] for r in RULES if r["usesEnergy"]]
FITTED_RULES: List[str] = [r["id"] for r in RULES if r["fitted"]]
BASELINE_RULE: str = _TABLE["baselineRule"]
PRIMARY_VERIFIER_RULE: str = _TABLE["primaryVerifierRule"]
FALLBACK_VERIFIER_RULE: str = _TABLE["fallbackVerifierRule"]
UNFITTED_BEST_METRIC: str = _TABLE["unfittedBestMetric"]
TIE_ORDER: List[str] = _TABLE["tieOrder"]
PICK_ORDER: List[str] = _TABLE["pickOrder"]
MODEL_FREE_RULES: List[str] = [r for r in PICK_ORDER if RULE_BY_ID[r]["modelFree"]]
RULE_NAMES: Dict[str, str] = {r["id"]: r["label"] for r in RULES}
# The rules whose figure can choose the best checkpoint, the primary verifier rule first.
BEST_METRIC_RULES: List[str] = [PRIMARY_VERIFIER_RULE] + [r["id"] for r in RULES if r["bestMetric"] and r["id"] != PRIMARY_VERIFIER_RULE]


def can_pick(rule: str) -> bool:
    return RULE_BY_ID[rule]["pick"] is not None


def generator_rule(kind: str) -> Optional[str]:
    """The rule that votes with `kind` generator weights ("labelled" or "agreement"); None where there is none."""
    return next((r["id"] for r in RULES if r["generators"] == kind), None)
