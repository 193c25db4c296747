"""A model trained in Python carries what its last validation fitted, as the app's export does: the temperature,
the probability map with the selector (here reading a numeric field of the lines, --selector-field) and the
generator weights learnt from the training questions' labels, in model.safetensors and best.safetensors; Pick
answers can then use the selector and the generator vote."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import shutil
import unittest

from eorm.metrics.recorded_map import read_probability_map
from eorm.weights import load_model_file

from tests.test_distributed import TINY
from tests.util import run_module, sample_in_temp_dir


class TrainedModelsCarryTheirMap(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # 300 questions, the 'all' split: 28 held-out questions with both labels, enough to fit the selector (20);
        # each line with `told`, a number that leans towards its label.
        cls.tmp, plain = sample_in_temp_dir("eorm-map-", "plain.jsonl", 1200)
        cls.data = os.path.join(cls.tmp, "d.jsonl")
        with open(plain, encoding="utf-8") as f, open(cls.data, "w", encoding="utf-8") as out:
            for i, line in enumerate(f):
                o = json.loads(line)
                out.write(json.dumps({**o, "told": o["label"] + (i % 7) / 10}) + "\n")
        cls.out = os.path.join(cls.tmp, "run")
        p = run_module(["-m", "eorm.train", "--data", cls.data, "--out", cls.out, *TINY, "--epochs", "1", "--split", "all", "--selector-field", "told"])
        assert p.returncode == 0, p.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_both_files_record_the_map_with_the_selector_and_the_generators(self):
        with open(os.path.join(self.out, "metrics.jsonl"), encoding="utf-8") as f:
            evals = [r for r in map(json.loads, f) if r.get("type") == "eval"]
        last = evals[-1]["selection"]
        for name in ("model.safetensors", "best.safetensors"):
            _, loaded = load_model_file(os.path.join(self.out, name))
            pmap = read_probability_map(loaded.training.get("probabilityMap"))
            self.assertIsNotNone(pmap, name)
            self.assertEqual(pmap["selectorFields"], ["told"])
            self.assertEqual(len(pmap["selector"]), 7)
            self.assertEqual(pmap["generators"]["method"], "labels")
            self.assertEqual(sorted(pmap["generators"]["names"]), sorted({r["source"] for r in last["generators"]["rows"]}))
        _, latest = load_model_file(os.path.join(self.out, "model.safetensors"))
        self.assertEqual(latest.training["probabilityMap"]["selector"], last["probabilityMap"]["selector"])

    def test_picks_use_the_selector_the_model_fitted(self):
        out = os.path.join(self.tmp, "picks.jsonl")
        p = run_module(["-m", "eorm.score", "--weights", os.path.join(self.out, "model.safetensors"), "--data", self.data, "--picks", out, "--rule", "selector"])
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out, encoding="utf-8") as f:
            records = [json.loads(x) for x in f]
        self.assertEqual({r["rule"] for r in records}, {"selector"})

    def test_the_field_weighs_and_score_reads_it_back(self):
        _, loaded = load_model_file(os.path.join(self.out, "model.safetensors"))
        self.assertGreater(read_probability_map(loaded.training.get("probabilityMap"))["selector"][6], 0.5)
        p = run_module(["-m", "eorm.score", "--weights", os.path.join(self.out, "model.safetensors"), "--data", self.data, "--groups", "val"])
        self.assertEqual(p.returncode, 0, p.stderr)
        final = json.loads(p.stdout.strip().split("\n")[-1])
        self.assertEqual(final["selection"]["probabilityMap"]["selectorFields"], ["told"])
        self.assertGreater(final["selection"]["rules"]["selector"]["accuracy"], final["selection"]["rules"]["majority"]["accuracy"])

    def test_a_resume_keeps_its_fields(self):
        p = run_module(["-m", "eorm.train", "--data", self.data, "--out", self.out, *TINY, "--epochs", "1", "--split", "all", "--selector-field", "label"])
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("was written by a run whose selector reads ['told']", p.stderr)

    def test_a_field_no_line_carries(self):
        p = run_module(["-m", "eorm.train", "--data", self.data, "--out", os.path.join(self.tmp, "x"), *TINY, "--epochs", "1", "--selector-field", "nope"])
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('--selector-field nope: no line of', p.stderr)


if __name__ == "__main__":
    unittest.main()
