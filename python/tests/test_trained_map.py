"""A model trained in Python carries what its last validation fitted, as the app's export does: the temperature,
the probability map with the selector and the generator weights learnt from the training questions' labels, in
model.safetensors and best.safetensors; Pick answers can then use the selector and the generator vote."""
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
        # 300 questions, the 'all' split: 28 held-out questions with both labels, enough to fit the selector (20).
        cls.tmp, cls.data = sample_in_temp_dir("eorm-map-", "d.jsonl", 1200)
        cls.out = os.path.join(cls.tmp, "run")
        p = run_module(["-m", "eorm.train", "--data", cls.data, "--out", cls.out, *TINY, "--epochs", "1", "--split", "all"])
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
            self.assertEqual(len(pmap["selector"]), 6)
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


if __name__ == "__main__":
    unittest.main()
