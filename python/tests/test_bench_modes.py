"""The bench's PyTorch modes (eorm/training/bench_modes.py): which run where and why not, AMP really on, the padding to
the app's replayed shapes leaving energies alone, and `python -m eorm.bench` running them in one run on CPU."""
import json
import unittest

import torch

from eorm.training.bench_modes import BucketPadded, ModePlan, amp_optimizer_step, make_scaler, plan_mode, shapes_of
from eorm.config import make_config
from eorm.model import TransEBM, pad_batch
from eorm.training.shape_buckets import bucket_up, padded_length

from .util import TrainRuns, run_module

CPU = torch.device("cpu")


def tiny_model(seed=0, dropout=0.0):
    torch.manual_seed(seed)
    return TransEBM(make_config(dModel=16, nHeads=2, nLayers=2, maxLen=128, dropout=dropout))


class Plans(unittest.TestCase):
    def test_eager_is_float32_everywhere(self):
        for dev in (CPU, torch.device("cuda")):
            plan = plan_mode("eager", dev)
            self.assertIsInstance(plan, ModePlan)
            self.assertIsNone(plan.amp)
            self.assertFalse(plan.compiled)

    def test_amp_is_float16_with_a_scaler_on_cuda_and_bfloat16_without_one_on_cpu(self):
        cuda = plan_mode("amp", torch.device("cuda"))
        self.assertEqual((cuda.amp, cuda.scaled), (torch.float16, True))
        cpu = plan_mode("amp", CPU)
        self.assertEqual((cpu.amp, cpu.scaled), (torch.bfloat16, False))
        self.assertIsNone(make_scaler(cpu))

    def test_graphs_say_why_they_cannot_run_on_cpu(self):
        why = plan_mode("graphs", CPU)
        self.assertIsInstance(why, str)
        self.assertIn("CUDA", why)

    def test_graphs_on_cuda_need_torch_compile_and_say_so_on_an_older_torch(self):
        plan = plan_mode("graphs", torch.device("cuda"))
        if hasattr(torch, "compile"):
            self.assertEqual((plan.amp, plan.scaled, plan.compiled), (torch.float16, True, True))
        else:
            self.assertIsInstance(plan, str)
            self.assertIn(torch.__version__, plan)

    def test_an_unknown_mode_is_refused(self):
        with self.assertRaises(ValueError):
            plan_mode("fast", CPU)


class AmpOnCpu(unittest.TestCase):
    def test_bfloat16_autocast_changes_the_energies_a_little_and_a_step_trains(self):
        model = tiny_model()
        ids, lengths = pad_batch([[1, 5, 9, 13, 200], [1, 7], [1, 2, 3]], model.cfg.padId)
        with torch.no_grad():
            e32 = model(ids, lengths)
            with torch.autocast("cpu", dtype=torch.bfloat16):
                e16 = model(ids, lengths).float()
        # bfloat16 keeps 8 bits of mantissa: the energies move (autocast is on) but by about 2^-8 relative.
        self.assertFalse(torch.equal(e32, e16))
        torch.testing.assert_close(e16, e32, rtol=3e-2, atol=3e-2)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
        before = [p.detach().clone() for p in model.parameters()]
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = model(ids, lengths).float().pow(2).sum()
        loss.backward()
        amp_optimizer_step(model, opt, 1.0, None)
        moved = sum(not torch.equal(a, p) for a, p in zip(before, model.parameters()))
        self.assertGreater(moved, 0)
        self.assertTrue(all(torch.isfinite(p).all() for p in model.parameters()))


class Buckets(unittest.TestCase):
    def test_padding_to_the_replayed_shapes_keeps_each_candidates_energy(self):
        model = tiny_model().eval()
        seen = []

        def inner(ids, lengths):
            seen.append(tuple(ids.shape))
            return model(ids, lengths)

        padded = BucketPadded(inner, model.cfg.padId, 128)
        ids, lengths = pad_batch([[1] + list(range(2, 40)), [1, 7, 8], [1, 2, 3, 4, 5]], model.cfg.padId)
        with torch.no_grad():
            plain = model(ids, lengths)
            out = padded(ids, lengths)
        self.assertEqual(seen, [(bucket_up(3), padded_length(39, 128))])
        self.assertEqual(out.shape, plain.shape)
        torch.testing.assert_close(out, plain, rtol=1e-5, atol=1e-5)

    def test_one_warm_up_group_per_distinct_padded_shape(self):
        sizes = {0: (4, 30), 1: (4, 31), 2: (4, 40), 3: (5, 30), 4: (6, 33), 5: (4, 500)}
        picked = shapes_of(list(sizes), lambda g: sizes[g], 512)
        # (4, 32) twice, (4, 48), (6, 32) for 5 and 6 candidates, (6, 48), (4, 512)
        self.assertEqual(picked, [0, 2, 3, 4, 5])


class BenchCommand(TrainRuns):
    """On the sample's first 60 lines, in a folder the class shares (TrainRuns makes and removes it)."""

    LINES = 60

    def test_every_mode_in_one_run_on_cpu(self):
        r = run_module(["-m", "eorm.bench", "--data", self.data, "--preset", "tiny", "--steps", "2", "--warmup", "1", "--seconds", "5", "--threads", "1", "--modes", "eager,amp,graphs"])
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        out = json.loads(r.stdout.strip().splitlines()[-1])
        modes = out["modes"]
        self.assertEqual(list(modes), ["eager", "amp", "graphs"])
        self.assertEqual(modes["eager"]["label"], "eager float32")
        self.assertEqual(modes["eager"]["train"]["steps"], 2)
        self.assertGreater(modes["amp"]["train"]["tokensPerSec"], 0)
        self.assertIn("bfloat16", modes["amp"]["label"])
        self.assertIn("CUDA", modes["graphs"]["skipped"])
        # The figures the bench always read are eager float32's.
        self.assertEqual(out["train"], modes["eager"]["train"])
        self.assertGreater(out["score"]["candidates"], 0)

    def test_cpu_default_is_eager_alone(self):
        r = run_module(["-m", "eorm.bench", "--data", self.data, "--preset", "tiny", "--steps", "1", "--warmup", "0", "--seconds", "5", "--threads", "1"])
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        self.assertEqual(list(json.loads(r.stdout.strip().splitlines()[-1])["modes"]), ["eager"])


if __name__ == "__main__":
    unittest.main()
