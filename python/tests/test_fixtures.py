"""The model against the PyTorch parity fixtures (../shared/fixtures/transebm), with the fixture README's
tolerances, through the package's own code paths (model, loss, trainer step, AdamW, clipping, schedule)."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import math
import os
import unittest

import numpy as np
import torch
import torch.nn.functional as F

from eorm import bpe
from eorm.config import config_from_reference
from eorm.dataset import TrainingData
from eorm.model import TransEBM, load_arrays, pad_batch
from eorm.training.schedule import cosine_with_warmup
from eorm.train import make_optimizer, optimizer_step, train_step
from eorm.weights import read_model, read_safetensors

from tests.util import fixture_dir

D = fixture_dir()


def load_json(name):
    with open(os.path.join(D, name), encoding="utf-8") as f:
        return json.load(f)


CFG_JSON = load_json("config.json")
CASE = load_json("case.json")
TOL = CASE["tolerances"]["recommended_float32"]
with open(os.path.join(D, "expected.safetensors"), "rb") as f:
    EXPECTED, _ = read_safetensors(f.read())


def fixture_model():
    cfg = config_from_reference(CFG_JSON)
    with open(os.path.join(D, "weights.safetensors"), "rb") as f:
        loaded = read_model(f.read(), cfg.to_dict())
    model = TransEBM(cfg)
    load_arrays(model, loaded.tensors)
    return model


def case_data():
    """The fixture's two groups as TrainingData (true lengths, labels), for the trainer's step function."""
    ids, labels, starts = [], [], [0]
    for g in CASE["groups"]:
        for row, n, label in zip(g["ids"], g["lengths"], g["labels"]):
            ids.append(row[:n])
            labels.append(label)
        starts.append(len(ids))
    return TrainingData(None, CFG_JSON.get("max_len", 2048), ids, labels, starts, [None] * len(ids), list(range(1, len(ids) + 1)), 0)


def zero_grad_mask(name, shape, d):
    """Entries with an exactly-zero true gradient (key bias, head.3.bias)."""
    m = np.zeros(shape, dtype=bool)
    if name.endswith("self_attn.in_proj_bias"):
        m[d : 2 * d] = True
    if name == "head.3.bias":
        m[:] = True
    return m


class FixtureModel(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.model = fixture_model().eval()
        self.d = self.model.cfg.dModel

    def test_energies_in_padded_batches_and_alone(self):
        for g in CASE["groups"]:
            ids = torch.tensor(g["ids"])
            lengths = torch.tensor(g["lengths"])
            with torch.no_grad():
                e = self.model(ids, lengths).double().numpy()
            np.testing.assert_allclose(e, g["energies"], atol=TOL["energies_atol"], rtol=0)
            for row, n, want in zip(g["ids"], g["lengths"], g["energies"]):
                with torch.no_grad():
                    alone = self.model(*pad_batch([row[:n]], 50256)).item()
                self.assertAlmostEqual(alone, want, delta=TOL["energies_atol"])

    def test_group_losses_gradients_and_norm(self):
        data = case_data()
        self.model.train()  # dropout is 0 in the fixture config: train mode = eval maths, with autograd
        self.model.zero_grad()
        loss = train_step(self.model, self.model, data, [0, 1], 2, 1, 0, torch.device("cpu"), 0, None, None)
        self.assertAlmostEqual(loss.item(), CASE["mean_loss"], delta=TOL["loss_atol"])
        rows = CASE["emb_rows"]
        sq = 0.0
        for name, p in self.model.named_parameters():
            g = p.grad.double().numpy()
            sq += float((g**2).sum())
            want = EXPECTED[f"grad.{name}"]
            got = g[rows] if name == "emb.weight" else g
            np.testing.assert_allclose(got, want, atol=TOL["grads_atol"], rtol=0, err_msg=name)
        norm = math.sqrt(sq)
        self.assertLess(abs(norm - CASE["grad_norm_before_clip"]) / CASE["grad_norm_before_clip"], TOL["grad_norm_rtol"])

    def test_micro_batched_step_gives_the_one_pass_gradients(self):
        data = case_data()
        self.model.train()
        grads = []
        for micro in (0, 3):
            self.model.zero_grad()
            train_step(self.model, self.model, data, [0, 1], 2, 1, 0, torch.device("cpu"), micro, None, None)
            grads.append({n: p.grad.clone() for n, p in self.model.named_parameters()})
        for n in grads[0]:
            torch.testing.assert_close(grads[1][n], grads[0][n], atol=1e-7, rtol=1e-5, msg=n)

    def _two_steps(self, max_norm, prefix, scalars):
        data = case_data()
        model = fixture_model().train()
        w0 = model.emb.weight.detach().clone()
        opt = make_optimizer(model, CASE["optimizer"]["lr"], CASE["optimizer"]["weight_decay"])
        lr, wd = CASE["optimizer"]["lr"], CASE["optimizer"]["weight_decay"]
        rows = CASE["emb_rows"]
        untouched = np.ones(w0.shape[0], dtype=bool)
        untouched[rows] = False
        for t, want in ((1, scalars[0]), (2, scalars[1])):
            opt.zero_grad(set_to_none=True)
            loss = train_step(model, model, data, [0, 1], 2, 1, 0, torch.device("cpu"), 0, None, None)
            if "mean_loss" in want:
                self.assertAlmostEqual(loss.item(), want["mean_loss"], delta=TOL["loss_atol"])
            norm = optimizer_step(model, opt, max_norm)
            self.assertLess(abs(norm - want["grad_norm_before_clip"]) / want["grad_norm_before_clip"], TOL["grad_norm_rtol"])
            for name, p in model.named_parameters():
                got = p.detach().double().numpy()
                exp = EXPECTED[f"{prefix}step{t}.{name}"]
                if name == "emb.weight":
                    np.testing.assert_allclose(got[rows], exp, atol=TOL["params_after_step_atol"], rtol=0)
                    decayed = w0.double().numpy()[untouched] * (1 - lr * wd) ** t
                    np.testing.assert_allclose(got[untouched], decayed, rtol=1e-6, atol=0)
                    continue
                z = zero_grad_mask(name, got.shape, self.d)
                np.testing.assert_allclose(got[~z], exp[~z], atol=TOL["params_after_step_atol"], rtol=0, err_msg=f"step {t} {name}")
                np.testing.assert_allclose(got[z], exp[z], atol=2 * lr * t, rtol=0, err_msg=f"step {t} {name} (zero-grad entries)")

    def test_two_adamw_steps(self):
        s1 = {"mean_loss": CASE["mean_loss"], "grad_norm_before_clip": CASE["grad_norm_before_clip"]}
        self._two_steps(CASE["optimizer"]["max_grad_norm"], "", [s1, CASE["step2"]])

    def test_two_clipped_adamw_steps(self):
        c = CASE["clip_variant"]
        self._two_steps(c["max_grad_norm"], "clip.", [c["step1"], c["step2"]])


class FixtureOps(unittest.TestCase):
    def test_gelu_layer_norm_softplus(self):
        ops = load_json("ops.json")
        g = ops["gelu"]
        np.testing.assert_allclose(F.gelu(torch.tensor(g["x"], dtype=torch.float64)).numpy(), g["y"], atol=1e-12)
        ln = ops["layer_norm"]
        x = torch.tensor(ln["x"], dtype=torch.float64)
        y = F.layer_norm(x, x.shape, torch.tensor(ln["weight"], dtype=torch.float64), torch.tensor(ln["bias"], dtype=torch.float64), eps=1e-5)
        np.testing.assert_allclose(y.numpy(), ln["y"], atol=1e-9)
        # The model's own LayerNorm modules use eps 1e-5.
        self.assertTrue(all(m.eps == 1e-5 for m in fixture_model().modules() if isinstance(m, torch.nn.LayerNorm)))
        sp = ops["softplus"]
        np.testing.assert_allclose(F.softplus(torch.tensor(sp["x"], dtype=torch.float64)).numpy(), sp["y"], atol=1e-9)

    def test_lr_schedule(self):
        for c in load_json("lr_schedule.json")["cases"]:
            got = [cosine_with_warmup(s, c["base_lr"], c["warmup_steps"], c["total_steps"]) for s in range(c["total_steps"] + 1)]
            np.testing.assert_allclose(got, c["lr"], rtol=1e-12, atol=0)


class FixtureTokenizer(unittest.TestCase):
    def test_tricky_strings_and_model_inputs(self):
        fx = load_json("tokenizer.json")
        plain = [c for c in fx["cases"] if c["special_tokens"] != "special"]
        self.assertEqual(len(plain), 45)
        for c in fx["cases"]:
            with self.subTest(c["name"]):
                if c["special_tokens"] == "special":
                    self.assertEqual(bpe.encode_with_special(c["text"]), c["ids"])
                    # Model inputs never turn user text into the special id.
                    self.assertNotIn(50256, bpe.encode_ordinary(c["text"]))
                else:
                    self.assertEqual(bpe.encode_ordinary(c["text"]), c["ids"])
                if c["decode_roundtrip"]:
                    self.assertEqual(bpe.decode(c["ids"]), c["text"])
        from eorm.tokenize import encode_input

        for m in fx["model_inputs"]:
            self.assertEqual(encode_input(m["question"], m["gen_text"], 2048), m["ids"])
            self.assertEqual(encode_input(m["question"], m["gen_text"], 5), m["ids"][:5])
        self.assertEqual(bpe.encode_ordinary("<|endoftext|>"), [27, 91, 437, 1659, 5239, 91, 29])


if __name__ == "__main__":
    unittest.main()
