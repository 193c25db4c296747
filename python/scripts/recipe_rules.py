"""Majority vote and every rule that reads the energies, for each validation a recipe run wrote (npm run bench -- recipeSweep --out FILE), by the
same report as eorm.score, over the held-out questions with both labels: the rows of docs/recipe.md.

    python3 python/scripts/recipe_rules.py sweep.json [more.json …]
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from eorm.metrics.summary import ScoredGroup  # noqa: E402
from eorm.rules import BASELINE_RULE, RULE_NAMES, VERIFIER_RULES  # noqa: E402
from eorm.selection import selection_report  # noqa: E402


def rule(report, name):
    acc = report["rules"][name]["accuracy"]
    vs = {v["rule"]: v for v in report["versusMajority"]}.get(name)
    return f"{acc:.3f}" + (f" ({100 * vs['diff']:+.1f} [{100 * vs['ci']['lo']:+.1f}, {100 * vs['ci']['hi']:+.1f}])" if vs else "")


for path in sys.argv[1:]:
    run = json.load(open(path))
    print(path, {k: run["settings"][k] for k in ("lr", "epochs", "warmupRatio", "weightDecay", "seed")}, "dropout", run["model"]["dropout"])
    for ev in run["evals"]:
        groups = [ScoredGroup(g["energies"], g["labels"], g["answers"]) for g in ev["groups"] if 0 < sum(g["labels"]) < len(g["labels"])]
        r = selection_report(groups, run["settings"]["seed"])
        # Majority vote, then each rule that reads the energies (docs/recipe.md's rows), with its gain over majority vote.
        verifiers = ", ".join(f"{RULE_NAMES[v]} {rule(r, v)}" for v in VERIFIER_RULES)
        print(f"  epoch {ev['epoch']} ({ev['seconds']:.0f} s): {r['groups']} questions, {RULE_NAMES[BASELINE_RULE]} {r['rules'][BASELINE_RULE]['accuracy']:.3f}, {verifiers}, ECE {r['calibration']['ece']:.3f}")
