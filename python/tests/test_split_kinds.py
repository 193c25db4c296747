"""Issue 20's split kinds and held-out sources, and the N-curve with bands (python side; the app side and the
cross-side equality are src/engine/data/split.test.ts, splitParity.test.ts and src/engine/metrics/ncurve.test.ts):
'all' holds out the fraction of every question and trains on those with both labels among the rest; held-out
sources train on the other generators' candidates and validate on theirs; every record says which split it
used, a record without `kind` meaning 'mixed' (every split before kinds)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import unittest

import torch

from eorm.dataset import load_training_data
from eorm.training.kept import keep_candidates
from eorm.metrics.summary import ScoredGroup, evaluate_groups
from eorm.metrics.ncurve import CURVE_RULES, best_of_n_curve, quantile
from eorm.split import holdout_split, recorded_split, split_for_init, split_groups, split_record, trainable_groups

from tests.util import TrainRuns, metrics

MODEL = ["--d-model", "16", "--n-heads", "2", "--n-layers", "1", "--max-len", "32"]
RUN = ["--lr", "3e-3", "--curve-subsets", "0", "--quiet", "--epochs", "1"]
HASH = "sha256:" + "0f" * 32


def flat(groups):
    labels = [x for g in groups for x in g]
    start = [0]
    for g in groups:
        start.append(start[-1] + len(g))
    return labels, start


class SplitKinds(unittest.TestCase):
    SMALL = [[1, 0], [1, 1], [0, 1, 0], [0, 0], [1, 0, 1, 0], [1], [0, 1], [1, 0, 0], [0, 0, 1], [1, 1, 0], [0], [1, 0], [0, 1, 1, 1], [1, 0]]

    def test_mixed_is_the_default_and_unchanged(self):
        self.assertEqual(split_groups(self.SMALL), ([0, 11, 6, 8, 4, 2, 12, 13], [7, 9]))
        self.assertEqual(split_groups(self.SMALL, kind="mixed"), split_groups(self.SMALL))

    def test_all_holds_out_every_kind_and_trains_on_mixed_groups_of_the_rest(self):
        train, val = split_groups(self.SMALL, kind="all")
        self.assertEqual(len(val), 14 - 11)
        mixed = set(trainable_groups(self.SMALL))
        rest = [g for g in range(14) if g not in set(val)]
        self.assertEqual(sorted(train), [g for g in rest if g in mixed])
        with self.assertRaisesRegex(ValueError, "kind"):
            split_groups(self.SMALL, kind="some")

    def test_held_out_sources(self):
        groups = [[1, 0, 1, 0], [1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 1, 0], [0, 0, 1, 1]]
        sources = ["p", "p", "q", "q", "p", "q", "p", "q", "p", "p", "q", None, "q", "q", "p", "p", "p", "q", "p", "q"]
        labels, start = flat(groups)
        train, val, keep = holdout_split(labels, start, sources, 5, 1.0, "mixed", ["q"])
        self.assertEqual(val, [])
        self.assertEqual(sorted(train), [0, 1, 2, 3, 4])
        self.assertEqual(keep, [1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0])
        for kind in ("mixed", "all"):
            plain_train, plain_val = split_groups(groups, 5, 0.6, kind)
            train, val, keep = holdout_split(labels, start, sources, 5, 0.6, kind, ["q"])
            self.assertEqual(val, plain_val, "the same groups are held out")
            for g in range(5):
                for i in range(start[g], start[g + 1]):
                    self.assertEqual(keep[i], int((sources[i] == "q") == (g in plain_val)), (kind, g, i))
            self.assertTrue(set(train) <= set(plain_train) | set(g for g in range(5) if g not in plain_val))
        self.assertEqual(holdout_split(labels, start, sources, 5, 0.6, "all", [])[2], None)
        with self.assertRaisesRegex(ValueError, "source"):
            holdout_split(labels, start, sources[:-1], 5, 0.6, "all", ["q"])

    def test_records(self):
        self.assertEqual(split_record(1, 0.8, HASH, "all"), {"seed": 1, "trainFraction": 0.8, "dataset": HASH, "kind": "all"})
        self.assertEqual(split_record(1, 0.8, None, "mixed", ["a"])["holdoutSources"], ["a"])
        full = {"seed": 7, "trainFraction": 0.8, "dataset": HASH, "kind": "all", "holdoutSources": ["a", "b"]}
        self.assertEqual(recorded_split({"split": full}), full)
        self.assertEqual(recorded_split({"split": {"seed": 7, "trainFraction": 0.8, "dataset": None}})["kind"], "mixed")
        for bad, field in (({**full, "kind": "some"}, "split.kind"), ({**full, "holdoutSources": "a"}, "split.holdoutSources")):
            with self.assertRaisesRegex(ValueError, field):
                recorded_split({"split": bad})
        # --init keeps the recorded kind and sources on this file, and uses the run's own on another.
        used, notes = split_for_init({"split": full}, "m", "d", HASH, 42, 0.8, "mixed", [])
        self.assertEqual(used, full)
        self.assertIn("kind all, held-out sources a,b", notes[0])
        other = "sha256:" + "ab" * 32
        used, _ = split_for_init({"split": {**full, "dataset": other}}, "m", "d", HASH, 42, 0.8, "all", ["c"])
        self.assertEqual(used, {"seed": 42, "trainFraction": 0.8, "dataset": HASH, "kind": "all", "holdoutSources": ["c"]})


class Curve(unittest.TestCase):
    GROUPS = [ScoredGroup([1, 0, 2], [0, 1, 0], ["a", "b", "a"]), ScoredGroup([0, 1], [1, 0], ["c", "d"])]

    def test_hand_made_rows(self):
        rows = best_of_n_curve(self.GROUPS, 1, 50)
        self.assertEqual([(r["n"], r["nGroups"], r["exactGroups"], r["trials"]) for r in rows], [(1, 2, 0, 50), (2, 2, 1, 50), (3, 1, 1, 1)])
        last = rows[2]
        self.assertEqual([last[r] for r in CURVE_RULES], [1, 0, 1, 1 / 3, 1])
        for r in CURVE_RULES:
            self.assertEqual(last["band"][r], {"lo": last[r], "hi": last[r]})
        n2 = best_of_n_curve(self.GROUPS, 3, 20000)[1]
        self.assertLess(abs(n2["majorityVote"] - (1 / 3 + 1 / 2) / 2), 0.015)
        self.assertEqual(n2["band"]["model"], {"lo": 0.5, "hi": 1.0})

    def test_last_row_is_the_full_evaluation(self):
        import random

        rnd = random.Random(4)
        groups = []
        for _ in range(10):
            labels = [int(rnd.random() < 0.4) for _ in range(8)]
            groups.append(ScoredGroup([round(rnd.random() * 8) / 4 for _ in labels], labels, [rnd.choice(["x", "y", "z", None]) for _ in labels]))
        last = best_of_n_curve(groups, 5, 7)[-1]
        full = evaluate_groups(groups)
        self.assertEqual((last["model"], last["majorityVote"], last["weightedVote"]), (full["bestOfN"], full["baselines"]["majorityVote"], full["baselines"]["weightedVote"]))
        self.assertEqual(best_of_n_curve(groups, 5, 7), best_of_n_curve(groups, 5, 7))
        self.assertNotEqual(best_of_n_curve(groups, 5, 7), best_of_n_curve(groups, 6, 7))

    def test_quantile_and_bad_options(self):
        self.assertAlmostEqual(quantile([0, 1, 2, 3, 4], 0.975), 3.9, places=15)
        with self.assertRaises(ValueError):
            best_of_n_curve(self.GROUPS, 1, 0)
        with self.assertRaises(ValueError):
            best_of_n_curve(self.GROUPS, 1, 4, 0.0)


class TrainFlags(TrainRuns):
    LINES = 120
    ARGS = [*MODEL, *RUN]

    def first_records(self, out):
        return metrics(os.path.join(self.tmp, out, "metrics.jsonl"))

    def test_default_all_and_held_out_sources_are_recorded_and_used(self):
        view = load_training_data(self.data, 32, quiet=True)
        self.run_train("all")
        m = self.first_records("all")
        self.assertEqual(m[0]["split"]["kind"], "all")
        train, val = split_groups(view.group_labels(), 42, 0.8, "all")
        self.assertEqual((m[0]["trainGroups"], m[0]["valGroups"]), (len(train), len(val)))
        self.assertLess(len(trainable_groups(view.group_labels())), view.n_groups, "the sample slice has single-label groups")

        self.run_train("held", "--split", "mixed", "--holdout-sources", "gpt3-6b_verification")
        m = self.first_records("held")
        self.assertEqual(m[0]["split"]["kind"], "mixed")
        self.assertEqual(m[0]["split"]["holdoutSources"], ["gpt3-6b_verification"])
        train, val, keep = holdout_split(view.labels, view.group_start, view.sources, 42, 0.8, "mixed", ["gpt3-6b_verification"])
        self.assertEqual((m[0]["trainGroups"], m[0]["valGroups"]), (len(train), len(val)))
        first_eval = [r for r in m if r["type"] == "eval"][0]
        kept = keep_candidates(view, keep)
        # One source writes one candidate per question: no held-out question keeps both labels, so the summary
        # (over those) is empty; the histogram and allQuestions cover every held-out candidate and question.
        h = first_eval["histogram"]
        self.assertEqual(sum(h["correct"]) + sum(h["incorrect"]) + h["skipped"], len(kept.candidates(val)))
        self.assertEqual(first_eval["selection"]["allQuestions"]["groups"], len(val))
        self.assertTrue(all(kept.sources[i] == "gpt3-6b_verification" for i in kept.candidates(val)))
        self.assertTrue(all(kept.sources[i] != "gpt3-6b_verification" for i in kept.candidates(train)))

        with self.assertRaises(SystemExit) as cm:
            self.run_train("held", "--split", "all")  # resumes "held": its recorded kind wins
        self.assertIn("records split kind 'mixed'", str(cm.exception.code))
        with self.assertRaises(SystemExit) as cm:
            self.run_train("missing", "--holdout-sources", "nobody")
        self.assertIn("no candidates from nobody", str(cm.exception.code))


if __name__ == "__main__":
    unittest.main()
