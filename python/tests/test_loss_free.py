"""The gradient entries no loss depends on (the energy head's bias, each layer's attention key bias) are zeroed
before clipping, as in the app (src/engine/train/step/lossFreeGradients.ts): AdamW then only decays those weights,
instead of turning their float rounding into steps of about lr."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import unittest

import numpy as np
import torch

from eorm.config import make_config
from eorm.dataset import TrainingData
from eorm.model import TransEBM
from eorm.training.step import loss_free_range, make_optimizer, optimizer_step, train_step

from tests.test_fixtures import CASE, EXPECTED, TOL, case_data, fixture_model, zero_grad_mask

CPU = torch.device("cpu")


def random_data(seed: int, groups: int = 3, size: int = 4, vocab: int = 60, cls: int = 63) -> TrainingData:
    g = torch.Generator().manual_seed(seed)
    ids, labels, starts = [], [], [0]
    for _ in range(groups):
        for k in range(size):
            n = int(torch.randint(3, 20, (), generator=g))
            ids.append([cls] + torch.randint(0, vocab, (n,), generator=g).tolist())
            labels.append(k % 2)
        starts.append(len(ids))
    return TrainingData(None, 64, ids, labels, starts, [None] * len(ids), list(range(1, len(ids) + 1)), 0)


def loss_free_mask(model: TransEBM, name: str, shape) -> np.ndarray:
    m = np.zeros(shape, dtype=bool)
    r = loss_free_range(name, model.cfg.dModel)
    if r is not None:
        m[r[0] : r[1]] = True
    return m


class LossFree(unittest.TestCase):
    def test_the_entries_are_those_the_fixture_names(self):
        model = fixture_model()
        for name, p in model.named_parameters():
            np.testing.assert_array_equal(loss_free_mask(model, name, tuple(p.shape)), zero_grad_mask(name, tuple(p.shape), model.cfg.dModel), err_msg=name)

    def test_two_fixture_adamw_steps_land_on_the_decayed_values(self):
        """The fixture's float64 reference has |g| < 1e-16 there: its steps only decay those weights. Zeroed, ours
        land there to the tolerance of every other weight (not 2·lr per step)."""
        data = case_data()
        model = fixture_model().train()
        opt = make_optimizer(model, CASE["optimizer"]["lr"], CASE["optimizer"]["weight_decay"])
        for t in (1, 2):
            opt.zero_grad(set_to_none=True)
            train_step(model, model, data, [0, 1], 2, 1, 0, CPU, 0, None, None)
            optimizer_step(model, opt, CASE["optimizer"]["max_grad_norm"])
            checked = 0
            for name, p in model.named_parameters():
                z = loss_free_mask(model, name, tuple(p.shape))
                if not z.any():
                    continue
                got = p.detach().double().numpy()
                np.testing.assert_allclose(got[z], EXPECTED[f"step{t}.{name}"][z], atol=TOL["params_after_step_atol"], rtol=0, err_msg=f"step {t} {name}")
                checked += int(z.sum())
            self.assertEqual(checked, model.cfg.nLayers * model.cfg.dModel + 1)

    def test_with_dropout_and_micro_batches_they_only_decay(self):
        torch.manual_seed(3)
        cfg = make_config(vocabSize=64, dModel=16, nHeads=2, nLayers=2, ffnDim=32, dropout=0.1, maxLen=64, clsId=63, sepId=63, padId=63)
        model = TransEBM(cfg).train()
        with torch.no_grad():
            for name, p in model.named_parameters():
                z = torch.from_numpy(loss_free_mask(model, name, tuple(p.shape)))
                p[z] = 0.3
        start = {n: p.detach().clone() for n, p in model.named_parameters()}
        lr, wd, steps = 3e-3, 0.01, 10
        opt = make_optimizer(model, lr, wd)
        data = random_data(5)
        for s in range(steps):
            opt.zero_grad(set_to_none=True)
            train_step(model, model, data, [s % 3, (s + 1) % 3], 2, 1, 100 + s, CPU, 3 if s % 2 else 0, None, None)
            optimizer_step(model, opt, 1.0)
        moved = 0.0
        for name, p in model.named_parameters():
            z = torch.from_numpy(loss_free_mask(model, name, tuple(p.shape)))
            want = start[name][z] * (1 - lr * wd) ** steps
            torch.testing.assert_close(p.detach()[z], want, atol=1e-6, rtol=0, msg=name)
            if (~z).any():
                moved = max(moved, float((p.detach()[~z] - start[name][~z]).abs().max()))
        # The other weights trained: the check above can fail.
        self.assertGreater(moved, 10 * lr)

    def test_a_non_finite_gradient_there_stays_non_finite(self):
        model = fixture_model()
        for p in model.parameters():
            p.grad = torch.zeros_like(p)
        model.head[3].bias.grad.fill_(float("nan"))
        opt = make_optimizer(model, 1e-3, 0.01)
        before = model.head[3].bias.detach().clone()
        norm = optimizer_step(model, opt, 1.0)
        self.assertTrue(np.isnan(norm))
        torch.testing.assert_close(model.head[3].bias.detach(), before)


if __name__ == "__main__":
    unittest.main()
