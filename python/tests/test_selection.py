"""`eorm.score` prints the app's selection report (eorm/selection.py) in its final object: the vote's
temperature fitted on a training split, never on the groups it reports on. The figures themselves are
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

KEYS = {"groups", "rules", "temperature", "temperatureSource", "versusMajority", "recommended", "mixedLabelAnswers", "calibration", "bootstrap", "allQuestions"}
RULES = {"bestOfN", "majority", "weightedVote", "weightedVoteRaw", "first", "random", "oracle"}


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

    def test_validation_fits_on_the_training_split(self):
        last = self.last("--groups", "val")
        s = last["selection"]
        self.assertEqual(set(s), KEYS)
        self.assertEqual(set(s["rules"]), RULES)
        self.assertRegex(s["temperatureSource"], r"^fitted on \d+ training groups(, at the search's lower bound .*)?$")
        self.assertGreater(s["temperature"], 0)
        self.assertEqual(s["groups"], last["metrics"]["nGroups"])
        # The summary's baselines follow the same tie rule as the report.
        self.assertEqual(s["rules"]["majority"]["accuracy"], last["metrics"]["baselines"]["majorityVote"])
        self.assertEqual(s["rules"]["weightedVoteRaw"]["accuracy"], last["metrics"]["baselines"]["weightedVote"])
        self.assertEqual(s["rules"]["bestOfN"]["accuracy"], last["metrics"]["bestOfN"])
        self.assertEqual([v["rule"] for v in s["versusMajority"]], ["bestOfN", "weightedVote"])
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

    def test_a_test_file_needs_training_data_to_fit_on(self):
        s = self.last("--groups", "all")["selection"]
        self.assertEqual((s["temperature"], s["temperatureSource"]), (1, "not fitted (T = 1): no training data given (--fit-data)"))
        self.assertNotIn("allQuestions", s)  # a test file's figures are over every question already
        s = self.last("--groups", "all", "--fit-data", SAMPLE)["selection"]
        self.assertRegex(s["temperatureSource"], r"^fitted on \d+ training groups(, at the search's lower bound .*)?$")

    def test_the_training_split_is_never_fitted_on_itself(self):
        s = self.last("--groups", "train")["selection"]
        self.assertEqual(s["temperatureSource"], "not fitted (T = 1): the reported groups are the training split")


if __name__ == "__main__":
    unittest.main()


class TemperatureAtItsBound(unittest.TestCase):
    def test_the_source_says_when_the_fit_stopped_at_the_lower_bound(self):
        from eorm.metrics import ScoredGroup
        from eorm.selection import selection_report

        always = [ScoredGroup([0.0, 1.0], [1, 0], ["r", "w"]) for _ in range(20)]
        report = selection_report([ScoredGroup([0.0, 1.0, 2.0], [1, 0, 0], ["r", "w", "w"])], 42, always)
        self.assertAlmostEqual(report["temperature"], 0.01, places=6)
        self.assertEqual(
            report["temperatureSource"],
            "fitted on 20 training groups, at the search's lower bound (0.01): the training groups may separate more sharply than held-out ones; compare with T = 1",
        )
