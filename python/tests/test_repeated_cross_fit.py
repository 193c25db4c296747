"""The fitted rules' intervals widened by further cross-fits (eorm/metrics/repeated_cross_fit.py) as the app's
repeatedCrossFit.ts: the same deals' seeds and the same widening; whole reports are pinned by test_app_rules."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import unittest

import numpy as np

from eorm.metrics.cross_fit import cross_fit
from eorm.metrics.repeated_cross_fit import CROSS_FIT_REPEATS, repeat_seed, repeated_cross_fits, widen_for_fit
from eorm.metrics.summary import ScoredGroup
from eorm.rng import Rng


class WidenForFit(unittest.TestCase):
    def test_scales_distances_from_the_estimate(self):
        out = widen_for_fit(np.array([0.1, 0.2, 0.3]), 0.2, [0.01, 0.03])
        k = math.sqrt(1.02)
        self.assertEqual(list(out), [0.2 + (0.1 - 0.2) * k, 0.2, 0.2 + (0.3 - 0.2) * k])

    def test_unchanged_where_deals_or_replicates_agree(self):
        reps = np.array([0.1, 0.2, 0.3])
        self.assertIs(widen_for_fit(reps, 0.2, [0.5, 0.5, 0.5]), reps)
        flat = np.array([0.2, 0.2])
        self.assertIs(widen_for_fit(flat, 0.2, [0.1, 0.3]), flat)


class Deals(unittest.TestCase):
    def test_seeds_are_the_apps(self):
        # node -e "console.log([0,1,9].map(r=>((42+0x9e3779b9*(r+1))>>>0)))"
        self.assertEqual([repeat_seed(42, r) for r in (0, 1, 9)], [2654435811, 1013904284, 774553956])
        self.assertEqual(len({repeat_seed(42, r) for r in range(CROSS_FIT_REPEATS)}), CROSS_FIT_REPEATS)

    def test_each_deal_is_a_cross_fit_with_its_seed(self):
        rng = Rng(3)
        groups = []
        for _ in range(40):
            answers = ["a", "a", "b", "b"] if rng.next() < 0.5 else ["a", "b", "c", "d"]
            right = rng.int(4)
            groups.append(ScoredGroup(energies=[rng.next() for _ in answers], labels=[1 if a == answers[right] else 0 for a in answers], answers=answers))
        for r, deal in enumerate(repeated_cross_fits(groups, 7, 2)):
            direct = cross_fit(groups, repeat_seed(7, r))
            self.assertEqual(deal["selector"]["score"], direct["selector"]["score"])
            self.assertEqual(deal["vote"]["score"], direct["vote"]["score"])


if __name__ == "__main__":
    unittest.main()
