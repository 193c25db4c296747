"""The selection rules, declared once in data/rules.json (the app's src/engine/metrics/rules.ts reads the same
file): ids, names, and what each rule reads."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List

_TABLE = json.loads((Path(__file__).parent / "data" / "rules.json").read_text(encoding="utf-8"))

RULES: List[Dict] = _TABLE["rules"]
RULE_BY_ID: Dict[str, Dict] = {r["id"]: r for r in RULES}
SELECTION_RULES: List[str] = [r["id"] for r in RULES]
COMPARED_RULES: List[str] = [r["id"] for r in RULES if r["comparedWithMajority"]]
VERIFIER_RULES: List[str] = [r["id"] for r in RULES if r["usesEnergy"]]
PRIMARY_VERIFIER_RULE: str = _TABLE["primaryVerifierRule"]
TIE_ORDER: List[str] = _TABLE["tieOrder"]
RULE_NAMES: Dict[str, str] = {r["id"]: r["label"] for r in RULES}
