"""The app's rule for non-finite steps (src/engine/train/loop.ts): a step whose loss or gradient norm is NaN or
infinite changes no weight and no optimizer state, still counts as a step (the schedule moves on), stays out of
the loss curve and the epoch's mean; three in a row stop the run (the app pauses) with a checkpoint that
`--resume` continues from."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import contextlib
import io
import math
import shutil
import unittest
from unittest import mock

import torch

import eorm.train as train_mod
from eorm.training.schedule import cosine_with_warmup

from tests.util import metrics, sample_in_temp_dir

TINY = ["--preset", "tiny", "--d-model", "16", "--n-heads", "2", "--n-layers", "1", "--max-len", "32", "--lr", "3e-3", "--curve-subsets", "0", "--quiet", "--groups-per-step", "2"]


class PoisonedSteps:
    """Wraps eorm.train's train_step: at the listed steps the loss and every gradient become NaN. Records the
    weights and AdamW state each step starts from, so a test can see that a poisoned step changed nothing."""

    def __init__(self, bad_steps, loss_too=True):
        self.bad = set(bad_steps)
        self.loss_too = loss_too
        self.calls = 0
        self.before = []  # (weights, optimizer state) at the start of each call
        self.opt = None
        self.real_step = train_mod.train_step
        self.real_opt = train_mod.make_optimizer

    def make_optimizer(self, *a, **k):
        self.opt = self.real_opt(*a, **k)
        return self.opt

    def train_step(self, ddp, module, *rest):
        weights = {n: p.detach().clone() for n, p in module.named_parameters()}
        state = {i: {k: torch.as_tensor(v).clone() for k, v in s.items()} for i, s in enumerate(self.opt.state.values())}
        self.before.append((weights, state))
        loss = self.real_step(ddp, module, *rest)
        bad = self.calls in self.bad
        self.calls += 1
        if not bad:
            return loss
        for p in module.parameters():
            p.grad = torch.full_like(p, math.nan)
        return torch.full_like(loss, math.nan) if self.loss_too else loss

    def run(self, argv):
        err = io.StringIO()
        with mock.patch.object(train_mod, "train_step", self.train_step), mock.patch.object(train_mod, "make_optimizer", self.make_optimizer), contextlib.redirect_stderr(err):
            result = train_mod.run(argv)
        return result, err.getvalue()


class NonFiniteSteps(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.data = sample_in_temp_dir("eorm-nonfinite-", "data.jsonl", 48)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def argv(self, out, *extra):
        return ["--data", self.data, "--out", os.path.join(self.tmp, out), *TINY, *extra]

    def assert_unchanged(self, a, b, what):
        for n in a[0]:
            self.assertTrue(torch.equal(a[0][n], b[0][n]), f"{what}: weight {n} moved")
        self.assertEqual(sorted(a[1]), sorted(b[1]), f"{what}: optimizer state")
        for i in a[1]:
            for k in a[1][i]:
                self.assertTrue(torch.equal(a[1][i][k], b[1][i][k]), f"{what}: optimizer state {i} {k} changed")

    def test_one_bad_step_is_skipped_and_the_run_goes_on(self):
        hook = PoisonedSteps({2})
        result, err = hook.run(self.argv("one", "--epochs", "2"))
        self.assertEqual(result["reason"], "finished", err)
        self.assertEqual(result["skippedSteps"], 1)
        # Step 2 left every weight and every moment (and AdamW's step count) as step 2 found them...
        self.assert_unchanged(hook.before[2], hook.before[3], "the skipped step 2")
        # ...while a good step moves them.
        self.assertFalse(all(torch.equal(hook.before[1][0][n], hook.before[2][0][n]) for n in hook.before[1][0]))
        m = metrics(os.path.join(self.tmp, "one", "metrics.jsonl"))
        cfg = m[0]
        total, warmup = cfg["totalSteps"], cfg["warmupSteps"]
        self.assertEqual(hook.calls, total, "the skipped step counts: the run still has its totalSteps steps")
        steps = {r["step"]: r for r in m if r["type"] == "step"}
        self.assertNotIn(2, steps, "a skipped step stays out of the loss curve")
        self.assertEqual(sorted(steps), [s for s in range(total) if s != 2])
        skips = [r for r in m if r["type"] == "skip"]
        self.assertEqual([(r["step"], r["loss"]) for r in skips], [(2, None)])
        # The schedule moved on: step 3 trains with the lr of step 3.
        self.assertEqual(steps[3]["lr"], cosine_with_warmup(3, 3e-3, warmup, total))
        end = [r for r in m if r["type"] == "end"][-1]
        self.assertEqual((end["reason"], end["skippedSteps"]), ("finished", 1))

    def test_three_in_a_row_stop_the_run_with_a_checkpoint_to_resume(self):
        hook = PoisonedSteps({1, 2, 3})
        result, err = hook.run(self.argv("three", "--epochs", "2"))
        self.assertEqual(result["reason"], "paused")
        self.assertRegex(result["message"], r"3 steps in a row \(up to step 3\) had a non-finite loss.*skipped.*--resume")
        self.assertIn(result["message"], err)
        self.assertEqual(hook.calls, 4, "stops right after the third non-finite step")
        self.assert_unchanged(hook.before[1], hook.before[3], "the skipped steps 1-2")
        ckpt = torch.load(os.path.join(self.tmp, "three", "checkpoint.pt"))
        self.assertEqual(ckpt["state"]["step"], 4)
        for n, p in ckpt["model"].items():
            self.assertTrue(torch.equal(p, hook.before[1][0][n]), f"the checkpoint holds the last good weights ({n})")
        m = metrics(os.path.join(self.tmp, "three", "metrics.jsonl"))
        self.assertEqual(m[-1]["reason"], "paused")
        # --resume continues after the three skipped steps (no more poison: it trains to the end).
        again = PoisonedSteps(set())
        result, err = again.run(self.argv("three", "--epochs", "2"))
        self.assertEqual(result["reason"], "finished", err)
        self.assertEqual(again.calls, m[0]["totalSteps"] - 4)
        self.assertTrue(all(torch.equal(again.before[0][0][n], hook.before[1][0][n]) for n in hook.before[1][0]))

    def test_two_in_a_row_then_a_good_step_start_the_count_again(self):
        hook = PoisonedSteps({1, 2, 4, 5})
        result, err = hook.run(self.argv("gaps", "--epochs", "2"))
        self.assertEqual(result["reason"], "finished", err)
        self.assertEqual(result["skippedSteps"], 4)

    def test_a_non_finite_gradient_norm_with_a_finite_loss_is_skipped_too(self):
        hook = PoisonedSteps({0, 1, 2}, loss_too=False)
        result, _ = hook.run(self.argv("grads", "--epochs", "1"))
        self.assertEqual(result["reason"], "paused")
        self.assertIn("had a non-finite gradient norm", result["message"])
        self.assert_unchanged(hook.before[0], hook.before[2], "the skipped steps 0-1")

    def test_the_command_line_says_why_and_exits_non_zero(self):
        hook = PoisonedSteps({0, 1, 2})
        err = io.StringIO()
        with mock.patch.object(train_mod, "train_step", hook.train_step), mock.patch.object(train_mod, "make_optimizer", hook.make_optimizer), contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            with self.assertRaises(SystemExit) as cm:
                train_mod.main(self.argv("cli", "--epochs", "1"))
        self.assertNotEqual(cm.exception.code, 0)
        self.assertIn("3 steps in a row", err.getvalue())
        self.assertNotIn("Traceback", err.getvalue())


if __name__ == "__main__":
    unittest.main()
