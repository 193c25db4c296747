"""`eorm.score` prints the app's selection report (eorm/selection.py) in its final object: the vote's
temperature, probability map and the learned selector cross-fitted over the questions it reports on,
never fitted on training groups. The figures themselves are
pinned to the app's by tests/test_app_rules.py (Selection)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import shutil
import tempfile
import unittest

import torch

from eorm.config import make_config
from eorm.dataset import load_training_data
from eorm.split import split_groups
from eorm.model import TransEBM, state_dict_arrays
from eorm.weights import write_model

from tests.util import SAMPLE, run_module

KEYS = {"groups", "rules", "temperature", "temperatureSource", "versusMajority", "bestVerifier", "energyGain", "test", "probabilityMap", "recommended", "mixedLabelAnswers", "calibration", "bootstrap", "allQuestions"}
RULES = {"bestOfN", "majority", "weightedVote", "weightedVoteRaw", "selector", "generatorVote", "generatorVoteFree", "first", "random", "oracle"}


class ScorePrintsTheSelectionReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="eorm-selection-")
        cls.weights = os.path.join(cls.tmp, "m.safetensors")
        cfg = make_config(vocabSize=50257, dModel=8, nHeads=2, nLayers=1, maxLen=32, dropout=0.0)
        torch.manual_seed(0)
        with open(cls.weights, "wb") as f:
            f.write(write_model(cfg, state_dict_arrays(TransEBM(cfg))))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def last(self, *args):
        p = run_module(["-m", "eorm.score", "--weights", self.weights, "--data", SAMPLE, "--curve-subsets", "0", *args])
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout.strip().split("\n")[-1])

    def test_validation_cross_fits_over_the_held_out_questions(self):
        last = self.last("--groups", "val")
        s = last["selection"]
        self.assertLessEqual(KEYS, set(s))
        self.assertLessEqual(RULES, set(s["rules"]))
        self.assertEqual(s["temperatureSource"], f"fitted on {s['groups']} held-out questions; every figure that depends on it is out of fold (5 folds)")
        self.assertEqual(s["calibration"]["method"], "k-fold:5")
        for k in ("ece", "brier", "logLoss"):
            ci = s["calibration"][k + "Ci"]
            self.assertLessEqual(ci["lo"], s["calibration"][k])
            self.assertGreaterEqual(ci["hi"], s["calibration"][k])
        self.assertGreater(s["temperature"], 0)
        self.assertEqual(s["groups"], last["metrics"]["nGroups"])
        # The summary's baselines follow the same tie rule as the report.
        self.assertEqual(s["rules"]["majority"]["accuracy"], last["metrics"]["baselines"]["majorityVote"])
        self.assertEqual(s["rules"]["weightedVoteRaw"]["accuracy"], last["metrics"]["baselines"]["weightedVote"])
        self.assertEqual(s["rules"]["bestOfN"]["accuracy"], last["metrics"]["bestOfN"])
        self.assertEqual([v["rule"] for v in s["versusMajority"]], ["bestOfN", "weightedVote", "weightedVoteRaw", "selector", "generatorVote", "generatorVoteFree"])
        chosen = next(v for v in s["versusMajority"] if v["rule"] == s["bestVerifier"]["rule"])
        self.assertEqual({k: s["bestVerifier"][k] for k in ("diff", "p", "pAdjusted", "real")}, {k: chosen[k] for k in ("diff", "p", "pAdjusted", "real")})
        self.assertEqual(len(s["calibration"]["bins"]), 10)
        self.assertEqual(s["bootstrap"], {"resamples": 1000, "seed": 42})
        self.assertTrue(s["recommended"]["sentence"].startswith("Use "))

    def test_a_validation_reports_questions_with_both_labels_and_all_held_out_questions(self):
        # The weights record no split: --split all holds out single-label questions too.
        last = self.last("--groups", "val", "--split", "all")
        s, every = last["selection"], last["selection"]["allQuestions"]
        data = load_training_data(SAMPLE, 32, quiet=True)
        _, val = split_groups(data.group_labels(), 42, 0.8, "all")
        labels = data.group_labels()
        both = [g for g in val if 0 < sum(labels[g]) < len(labels[g])]
        all_correct = sum(1 for g in val if sum(labels[g]) == len(labels[g]))
        self.assertEqual(set(every["rules"]), RULES)
        self.assertEqual((every["groups"], s["groups"], last["metrics"]["nGroups"]), (len(val), len(both), len(both)))
        self.assertEqual(s["rules"]["oracle"]["accuracy"], 1)
        self.assertAlmostEqual(every["rules"]["oracle"], (len(both) + all_correct) / len(val), places=12)
        self.assertEqual(last["allQuestionsAccuracy"], every["rules"][s["recommended"]["rule"]])
        # Single-label questions score alike under every rule: 1 if all correct, 0 if all wrong.
        for rule in RULES:
            self.assertAlmostEqual(every["rules"][rule] * len(val), s["rules"][rule]["accuracy"] * len(both) + all_correct, places=6)

    def test_a_test_file_is_cross_fitted_over_its_own_questions(self):
        s = self.last("--groups", "all")["selection"]
        self.assertEqual(s["calibration"]["method"], "k-fold:5")
        self.assertEqual(s["calibration"]["questions"], s["groups"])
        self.assertNotIn("allQuestions", s)  # a test file's figures are over every question already


if __name__ == "__main__":
    unittest.main()
