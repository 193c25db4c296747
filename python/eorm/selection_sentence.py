"""The plain sentences of a selection report, word for word as the app's
src/engine/metrics/selectionSentence.ts: the rule to use and by how much it beats majority vote (recommended
only when the Holm-adjusted exact test calls its gain real), and whether the energy was worth training."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Dict, List, Optional, Sequence

from .rules import BASELINE_RULE, RULE_BY_ID, TIE_ORDER


def to_fixed(x: float, digits: int) -> str:
    """JavaScript's Number.prototype.toFixed: the exact binary value rounded half away from zero."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def _pct(x: float) -> str:
    return to_fixed(100 * x, 1)


def _points(x: float) -> str:
    return ("-" if x < 0 else "+") + to_fixed(100 * abs(x), 1)


def _questions(n: int) -> str:
    return f"{n} question{'' if n == 1 else 's'}"


def _interval(ci: Dict) -> str:
    return f"95% CI {_points(ci['lo'])} to {_points(ci['hi'])}"


def p_value(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {to_fixed(p, 3)}"


def rule_name(rule: str, temperature: float, recommended: bool) -> str:
    spec = RULE_BY_ID[rule]
    return (spec["named"] if recommended else spec["compared"]).replace("{T}", to_fixed(temperature, 2))


def largest_diff(versus: Sequence[Dict], key: str = "diff") -> Optional[Dict]:
    """The entry with the largest `key` (ties: TIE_ORDER), the app's largestDiff."""
    m = None
    for v in sorted(versus, key=lambda v: TIE_ORDER.index(v["rule"])):
        if m is None or v[key] > m[key]:
            m = v
    return m


def recommend_rule(rules: Dict, versus: List[Dict], temperature: float, groups: int) -> Dict[str, str]:
    if groups == 0:
        return {"rule": BASELINE_RULE, "sentence": "No questions to compare the rules on."}
    winner = largest_diff([v for v in versus if v["real"] and v["diff"] > 0])
    best = winner or largest_diff(versus)
    if best is None:
        return {"rule": BASELINE_RULE, "sentence": f"Use majority vote: no other rule was compared on these {_questions(groups)}."}
    majority = _pct(rules[BASELINE_RULE]["accuracy"])
    acc = _pct(rules[best["rule"]]["accuracy"])
    test = f"{p_value(best['pAdjusted'])} adjusted, {best['differing']} differing"
    if winner:
        return {
            "rule": best["rule"],
            "sentence": f"Use {rule_name(best['rule'], temperature, True)}: {acc}% vs {majority}% for majority vote, {_points(best['diff'])} points ({_interval(best['ci'])}; {test}) over {_questions(groups)}.",
        }
    return {
        "rule": BASELINE_RULE,
        "sentence": f"Use majority vote: no rule beats it for real on these {_questions(groups)}; the best, {rule_name(best['rule'], temperature, False)}, scores {acc}% vs {majority}%, {_points(best['diff'])} points ({_interval(best['ci'])}; {test}).",
    }


def energy_gain_sentence(g: Dict, temperature: float) -> str:
    against = "majority vote" if g["versus"] == BASELINE_RULE else rule_name(g["versus"], temperature, False)
    what = f"{rule_name(g['rule'], temperature, False)} against {against}: {_points(g['diff'])} points ({_interval(g['ci'])}; {p_value(g['p'])}, {g['differing']} differing)"
    if g["real"] and g["diff"] > 0:
        return f"The trained verifier was worth it on this data: {what}."
    if g["real"]:
        return f"The trained verifier made the picks worse on this data: {what}."
    return f"The energy adds nothing distinguishable from no difference on this data: {what}."
