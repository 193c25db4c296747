"""The exact paired sign-flip test and Holm's adjustment (eorm/metrics/paired_test.py) as the app's pairedTest.ts:
exact counts up to 20 differing questions, the same fixed-stream draws beyond, p for p."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import subprocess
import unittest

from eorm.metrics.bootstrap import difference_interval
from eorm.metrics.paired_test import holm, sign_flip_test
from eorm.rng import Rng

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class DifferenceInterval(unittest.TestCase):
    bound = 1 - 0.025 ** (1 / 145)

    def test_no_differing_question_spans_the_exact_bound(self):
        self.assertEqual(difference_interval([0.0] * 1000, [0.0] * 145), {"lo": -self.bound, "hi": self.bound})
        self.assertGreater(difference_interval([0.0] * 1000, [0.0] * 145, 0.05 / 4)["hi"], self.bound)

    def test_only_the_unseen_side_widens(self):
        reps = [0.04 + 0.00001 * k for k in range(1000)]
        wins = [1.0] * 6 + [0.0] * 139
        both = wins[:7] + [-0.5] + wins[8:]
        seen = difference_interval(reps, both)
        self.assertGreater(seen["lo"], 0.04)
        wins_only = difference_interval(reps, wins)
        self.assertEqual(wins_only["hi"], seen["hi"])
        self.assertAlmostEqual(wins_only["lo"], seen["lo"] - self.bound, places=15)
        self.assertEqual(difference_interval(reps, wins[:9] + [-1e-13] + wins[10:]), wins_only)


class SignFlip(unittest.TestCase):
    def test_four_wins_and_no_loss_is_not_real(self):
        self.assertEqual(sign_flip_test([1, 1, 1, 1]), {"differing": 4, "p": 0.125, "method": "exact"})
        self.assertEqual(sign_flip_test([0, 1, 0, 1, 1, 1e-15, 1])["p"], 0.125)

    def test_fractional_differences(self):
        self.assertEqual(sign_flip_test([1, 0.5, -0.5])["p"], 6 / 8)

    def test_drawn_beyond_twenty_as_the_app_draws(self):
        rng = Rng(3)
        d = [1.0 if rng.next() < 0.6 else -1.0 for _ in range(60)]
        got = sign_flip_test(d)
        self.assertEqual(got["method"], "drawn")
        # The app's draws, from the same fixed stream (a stand-alone mulberry32 in Node).
        node = """
          let a = 0x5f3759df >>> 0; const next = () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1);
          t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
          const d = JSON.parse(process.argv[1]); let obs = 0; for (const x of d) obs += x; const bar = Math.abs(obs) - 1e-9; let ext = 0;
          for (let b = 0; b < 10000; b++) { let s = 0; for (const x of d) s += Math.floor(next() * 2) === 0 ? Math.abs(x) : -Math.abs(x); if (Math.abs(s) >= bar) ext++; }
          console.log((1 + ext) / 10001);"""
        out = subprocess.run(["node", "-e", node, json.dumps(d)], capture_output=True, text=True, check=True)
        self.assertEqual(got["p"], float(out.stdout))

    def test_holm(self):
        self.assertEqual(holm([0.01, 0.04, 0.03, 0.5]), [0.04, 0.09, 0.09, 0.5])


if __name__ == "__main__":
    unittest.main()
