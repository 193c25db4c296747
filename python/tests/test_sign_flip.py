"""The sign-flip test (eorm/sign_flip.py): the app's signFlip.ts stream and sums, vectorised. The app's own
p-values on the sample are pinned through tests/golden/length_bias.json (leanP)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import unittest

from eorm.rng import Rng
from eorm.sign_flip import SIGN_FLIPS, TIE, sign_flip_p


def one_by_one(values, seed, flips):
    """signFlip.ts's loop, draw by draw from eorm.rng."""
    rng = Rng(seed)
    total = size = 0.0
    for v in values:
        total += v
        size += abs(v)
    reach = abs(total) - TIE * size
    reached = 0
    for _ in range(flips):
        s = 0.0
        for v in values:
            s += -v if rng.int(2) == 1 else v
        reached += abs(s) >= reach
    return (1 + reached) / (1 + flips)


class SignFlip(unittest.TestCase):
    def test_equals_the_apps_loop_draw_by_draw(self):
        values = [0.1, 0.2, 0.3, 0.6, -0.6, -0.3, 1 / 3, -0.25, 0.0]
        for seed in (0, 5, 4242):
            self.assertEqual(sign_flip_p(values, seed, 300), one_by_one(values, seed, 300))

    def test_four_one_way_is_not_called_and_many_are(self):
        for seed in range(10):
            self.assertLess(abs(sign_flip_p([1, 1, 1, 1], seed) - 0.125), 0.035)
        self.assertEqual(sign_flip_p([0.3] * 30, 1), 1 / (1 + SIGN_FLIPS))
        self.assertEqual(sign_flip_p([1, -1, 0.5, -0.5], 1), 1.0)
        self.assertNotEqual(sign_flip_p([], 1), sign_flip_p([], 1))  # NaN


if __name__ == "__main__":
    unittest.main()
