"""Identical inputs get identical energies (issue 31, point 6): ties are exact equality, and inputs cut at
maxLen are often identical, so an input must not score one float step apart because it shared a padded
batch with a longer one. score_candidates scores each distinct input once and reuses its energy; for a model
without positional encoding, inputs with the same ids in another order are one input (issue 48, point 9)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import unittest

import torch

from eorm.config import make_config
from eorm.metrics.summary import argmin_energy
from eorm.model import TransEBM, distinct_inputs, score_candidates


class IdenticalInputsScoreAlike(unittest.TestCase):
    def test_an_input_padded_in_one_batch_and_alone_in_another_scores_the_same(self):
        cfg = make_config(vocabSize=200, dModel=64, nHeads=2, nLayers=2, ffnDim=256, maxLen=64, clsId=0, sepId=1, padId=2, dropout=0.0)
        torch.manual_seed(0)
        model = TransEBM(cfg)
        g = torch.Generator().manual_seed(1)
        differ = 0
        for _ in range(100):
            x = [0] + torch.randint(3, 200, (int(torch.randint(5, 40, (1,), generator=g)),), generator=g).tolist()
            y = [0] + torch.randint(3, 200, (63,), generator=g).tolist()
            # Two candidates a batch, longest first: x once padded to y's 64 tokens, once in a batch of its own length.
            e = score_candidates(model, [y, x, list(x)], batch_tokens=2 * 64)
            differ += e[1] != e[2]
        self.assertEqual(differ, 0)

    def test_inputs_with_the_same_ids_in_another_order_score_alike_and_the_first_is_picked(self):
        # Issue 48, point 9: without positional encoding the energy is a function of the ids' multiset; in float32
        # the order of the attention sums moves the last bits unless such inputs are scored once.
        cfg = make_config(vocabSize=200, dModel=64, nHeads=2, nLayers=2, ffnDim=256, maxLen=64, clsId=0, sepId=1, padId=2, dropout=0.0)
        torch.manual_seed(5)
        model = TransEBM(cfg)
        g = torch.Generator().manual_seed(2)
        inputs = []
        for _ in range(12):
            rest = torch.randint(3, 200, (int(torch.randint(8, 48, (1,), generator=g)),), generator=g)
            inputs += [[0] + rest.tolist(), [0] + rest[torch.randperm(len(rest), generator=g)].tolist()]
        e = score_candidates(model, inputs)
        pairs = [(e[i], e[i + 1]) for i in range(0, len(e), 2)]
        self.assertEqual([p for p in pairs if p[0] != p[1]], [])
        self.assertEqual([argmin_energy(p) for p in pairs], [0] * len(pairs))
        self.assertEqual(distinct_inputs([[0, 5, 6, 7], [0, 7, 5, 6], [5, 0, 6, 7], [0, 5, 6, 6], [0, 6, 7, 5]], True)[1], [0, 0, 1, 2, 0])

    def test_results_stay_in_input_order(self):
        cfg = make_config(vocabSize=50, dModel=8, nHeads=2, nLayers=1, ffnDim=16, maxLen=16, clsId=0, sepId=1, padId=2, dropout=0.0)
        torch.manual_seed(0)
        model = TransEBM(cfg)
        cands = [[0, 5, 6], [0, 7], [0, 5, 6], [0, 9, 9, 9], [0, 7]]
        e = score_candidates(model, cands)
        alone = [score_candidates(model, [c])[0] for c in cands]
        self.assertEqual(e[0], e[2])
        self.assertEqual(e[1], e[4])
        for a, b in zip(e, alone):
            self.assertAlmostEqual(a, b, places=5)


if __name__ == "__main__":
    unittest.main()
