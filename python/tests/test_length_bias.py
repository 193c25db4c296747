"""The length check: the same answer tokens and figures as the app (tests/golden/length_bias.json, written by
src/engine/metrics/lengthBias/lengthBias.golden.test.ts), and `eorm.score` printing them in its final object."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import math
import shutil
import unittest

from eorm.bpe import EOT
from eorm.formats.jsonl import ingest_jsonl
from eorm.metrics.length_bias import answer_tokens_by_line, length_bias, length_sentence
from eorm.metrics.summary import ScoredGroup

from tests.util import HERE, SAMPLE, dec, run_module, sample_in_temp_dir, untrained_model_file

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

    def test_a_figure_that_rounds_to_zero_reads_plus(self):
        b = dict(G["cases"][0]["result"])
        self.assertIn("with being correct +0.00;", length_sentence({**b, "labelCorr": -1e-17}))
        self.assertIn("with being correct -0.01;", length_sentence({**b, "labelCorr": -0.006}))


class ScoreCommand(unittest.TestCase):
    def test_final_object_has_the_length_check_of_its_energies_and_the_apps_lengths(self):
        tmp, data = sample_in_temp_dir("eorm-length-", "data.jsonl", 120)
        try:
            p = run_module(["-m", "eorm.score", "--weights", untrained_model_file(tmp), "--data", data, "--curve-subsets", "0"])
            self.assertEqual(p.returncode, 0, p.stderr)
            out = [json.loads(l) for l in p.stdout.strip().split("\n")]
            rows, last = sorted(out[:-1], key=lambda r: (r["group"], r["index"])), out[-1]
            app_lengths = dict(zip(G["lines"], G["lengths"]))
            by_group = {}
            for r in rows:
                by_group.setdefault(r["group"], []).append(r)
            scored = [ScoredGroup([r["energy"] for r in g], [r["label"] for r in g], [None] * len(g)) for g in by_group.values()]
            lengths = [[app_lengths[r["line"]] for r in g] for g in by_group.values()]
            want = length_bias(scored, lengths, last["selection"]["bootstrap"]["seed"], False)
            got = dec(last["selection"]["length"])
            ok, where = same(got, json.loads(json.dumps(want).replace("NaN", "null")), "length")
            self.assertTrue(ok, where)
            self.assertEqual(got["groups"], sum(1 for g in by_group.values() if 0 < sum(r["label"] for r in g) < len(g)))
            self.assertGreater(got["groups"], 5)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
