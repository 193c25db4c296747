"""`eorm.train --best-metric`: the app's rule (src/engine/train/bestMetric.ts, same cases as its test), recorded
in the run's settings and best.safetensors, kept by a resume, refused when a resume asks for another."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import math
import unittest

from eorm.training.best_metric import is_better, metric_value
from eorm.metrics.summary import ScoredGroup, evaluate_groups
from eorm.weights import load_model_file

from tests.util import TrainRuns, metrics

MODEL = ["--d-model", "16", "--n-heads", "2", "--n-layers", "1", "--max-len", "32"]
RUN = ["--lr", "3e-3", "--curve-subsets", "0", "--quiet", "--epochs", "2", "--eval-every", "2", "--split", "mixed"]


class Rule(unittest.TestCase):
    summary = evaluate_groups([ScoredGroup([0.1, 0.5], [1, 0], ["1", "2"])])

    def test_reads_the_chosen_figure(self):
        s = self.summary
        self.assertEqual(metric_value({"summary": s}, "bestOfN"), s["bestOfN"])
        self.assertEqual(metric_value({"summary": s}, "pairwise"), s["pairwise"])
        self.assertEqual(metric_value({"summary": s}, "btLoss"), s["btLoss"])
        fitted = {"rules": {"weightedVote": {"accuracy": 0.811}}}
        self.assertEqual(metric_value({"summary": s, "selection": fitted}, "weightedVote"), 0.811)
        self.assertEqual(metric_value({"summary": s, "selection": None}, "weightedVote"), s["baselines"]["weightedVote"])
        selector = {"rules": {"selector": {"accuracy": 0.8}}}
        self.assertEqual(metric_value({"summary": s, "selection": selector}, "selector"), 0.8)
        # Not fitted (too few questions): Best-of-N's, never NaN (which would keep no best model).
        unfitted = {"rules": {"selector": {"accuracy": float("nan")}}}
        self.assertEqual(metric_value({"summary": s, "selection": unfitted}, "selector"), s["bestOfN"])
        self.assertEqual(metric_value({"summary": s, "selection": None}, "selector"), s["bestOfN"])
        with self.assertRaises(ValueError):
            metric_value({"summary": s}, "oracle")

    def test_higher_is_better_except_bt_loss_equal_keeps_the_earlier_nan_never_wins(self):
        self.assertTrue(is_better(0.7, None, "bestOfN"))
        self.assertTrue(is_better(0.7, 0.6, "bestOfN"))
        self.assertFalse(is_better(0.6, 0.6, "pairwise"))
        self.assertTrue(is_better(0.5, 0.6, "btLoss"))
        self.assertFalse(is_better(0.7, 0.6, "btLoss"))
        self.assertFalse(is_better(math.nan, None, "pairwise"))
        self.assertTrue(is_better(0.1, math.nan, "pairwise"))


class TrainFlag(TrainRuns):
    LINES = 160
    ARGS = [*MODEL, *RUN]

    def records(self, out):
        return metrics(os.path.join(self.tmp, out, "metrics.jsonl"))

    def best_model(self, out):
        return load_model_file(os.path.join(self.tmp, out, "best.safetensors"))[1].training

    def assert_best_follows(self, evals, metric):
        """isBest is set exactly where the metric's figure beats the best so far (epoch 0 never)."""
        best = None
        for e in evals:
            value = metric_value(e, metric)
            want = e["epoch"] >= 1 and is_better(value, best, metric)
            self.assertEqual(e["isBest"], want, (metric, e["epoch"], e["step"], value, best))
            if want:
                best = value
        return best

    def test_bt_loss_chooses_recorded_and_kept_on_resume(self):
        first = self.run_train("bt", "--best-metric", "btLoss", "--max-steps", "3")
        self.assertEqual(first["reason"], "stopped")
        with self.assertRaises(SystemExit) as cm:
            self.run_train("bt", "--best-metric", "bestOfN")
        self.assertIn("chooses its best model by btLoss", str(cm.exception.code))
        end = self.run_train("bt")  # no flag: the run's metric
        self.assertEqual(end["reason"], "finished")
        m = self.records("bt")
        starts = [r for r in m if r["type"] in ("config", "resume")]
        self.assertEqual([r["settings"]["best_metric"] for r in starts], ["btLoss", "btLoss"])
        evals = [r for r in m if r["type"] == "eval"]
        self.assertGreaterEqual(len(evals), 4)
        best = self.assert_best_follows(evals, "btLoss")
        self.assertIsNotNone(best)
        training = self.best_model("bt")
        self.assertEqual((training["bestMetric"], training["settings"]["best_metric"]), ("btLoss", "btLoss"))
        # Marked as the app marks its best checkpoint's export: readers then call its validation figures optimistic.
        self.assertEqual(training["slot"], "best")
        self.assertAlmostEqual(training["bestMetricValue"], best, places=12)
        # Every eval record carries the selection report (its fitted vote is the weightedVote metric) and both figures.
        self.assertTrue(all("selection" in e and "allQuestions" in e["selection"] and "allQuestionsAccuracy" in e for e in evals))

    def test_default_is_the_selector(self):
        self.run_train("sel")
        m = self.records("sel")
        self.assertEqual(m[0]["settings"]["best_metric"], "selector")
        self.assert_best_follows([r for r in m if r["type"] == "eval"], "selector")
        self.assertEqual(self.best_model("sel")["bestMetric"], "selector")


if __name__ == "__main__":
    unittest.main()
