"""The length check: the same answer tokens and figures as the app (tests/golden/length_bias.json, written by
src/engine/metrics/lengthBias.golden.test.ts), and `eorm.score` printing them in its final object."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import math
import unittest

from eorm.bpe import EOT
from eorm.jsonl import ingest_jsonl
from eorm.length_bias import answer_tokens_by_line, length_bias
from eorm.metrics import ScoredGroup

from tests.util import HERE, SAMPLE, dec

with open(os.path.join(HERE, "golden", "length_bias.json"), encoding="utf-8") as f:
    G = dec(json.load(f))


def same(a, b, path=""):
    """Exact equality (the same operations in the same order give the same doubles), NaN equal to NaN; (ok, where)."""
    if isinstance(b, dict):
        if not isinstance(a, dict) or sorted(a) != sorted(b):
            return False, f"{path}: keys {sorted(a) if isinstance(a, dict) else a} != {sorted(b)}"
        for k in b:
            ok, where = same(a[k], b[k], f"{path}.{k}")
            if not ok:
                return ok, where
        return True, ""
    if isinstance(b, float) and math.isnan(b):
        return isinstance(a, float) and math.isnan(a), f"{path}: {a} is not NaN"
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b, f"{path}: {a} is not {b}"
    return a == b, f"{path}: {a!r} != {b!r}"


class Golden(unittest.TestCase):
    def test_answer_tokens_equal_the_apps(self):
        by_line = answer_tokens_by_line(ingest_jsonl(SAMPLE).groups[:120], EOT)
        self.assertEqual([by_line[line] for line in G["lines"]], G["lengths"])

    def test_figures_equal_the_apps(self):
        self.assertEqual([c["name"] for c in G["cases"]], ["lengthy", "lengthy-test", "labels", "edges"])
        for case in G["cases"]:
            scored = [ScoredGroup(g["energies"], g["labels"], [None] * len(g["labels"])) for g in case["groups"]]
            got = length_bias(scored, [g["lengths"] for g in case["groups"]], G["seed"], case["figuresOver"] == "bothLabels")
            ok, where = same(got, case["result"], case["name"])
            self.assertTrue(ok, where)


if __name__ == "__main__":
    unittest.main()
