"""ECE's interval (eorm.selection.ece_interval) against the app's (tests/golden/ece_interval.json, written by
src/engine/metrics/calibration/calibration.golden.test.ts): the same ECE to the bit, the same interval to 1e-12 (numpy adds
the bins' gaps in another order), which holds the
ECE shown beside it where the resamples' percentile interval lay wholly above it."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import unittest

from eorm.metrics.calibration import ece_interval, reliability

from tests.util import HERE, dec

with open(os.path.join(HERE, "golden", "ece_interval.json"), encoding="utf-8") as f:
    G = dec(json.load(f))


class EceInterval(unittest.TestCase):
    def test_equals_the_apps(self):
        self.assertEqual([c["name"] for c in G["cases"]], ["calibrated", "noisy-1", "noisy-2", "noisy-3"])
        for c in G["cases"]:
            ece = reliability(c["probability"], c["correct"])[0]
            self.assertEqual(ece, c["ece"], c["name"])
            ci = ece_interval(c["probability"], c["correct"], G["resamples"], c["seed"])
            for k in ("lo", "hi"):
                self.assertAlmostEqual(ci[k], c["eceCi"][k], delta=1e-12, msg=f"{c['name']}.{k}")
            self.assertLessEqual(ci["lo"], ece)
            self.assertGreaterEqual(ci["hi"], ece)

    def test_a_calibrated_set_of_picks_has_ece_0_inside_its_interval(self):
        c = G["cases"][0]
        self.assertEqual(c["ece"], 0)
        ci = ece_interval(c["probability"], c["correct"], G["resamples"], c["seed"])
        self.assertEqual(ci["lo"], 0.0)
        self.assertGreater(ci["hi"], 0.0)


if __name__ == "__main__":
    unittest.main()
