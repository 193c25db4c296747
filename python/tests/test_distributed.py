"""The trainer as users run it: `torchrun --nproc_per_node 2` on CPU (gloo) equals one process with the same
global batch; an interrupted run resumes to the very same weights; --init continues from a weights file."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import os
import shutil
import tempfile
import unittest

import numpy as np

from eorm.launch import PATCHED
from eorm.weights import read_model

from tests.util import SAMPLE, run_module

# A tiny model (the GPT-2 vocabulary stays) on 12 questions of the sample: seconds per run.
TINY = ["--preset", "tiny", "--d-model", "16", "--n-heads", "2", "--n-layers", "2", "--max-len", "32", "--lr", "3e-3", "--curve-subsets", "4", "--quiet"]


LAUNCHER = "eorm.launch" if PATCHED else "torch.distributed.run"


def params(path):
    with open(path, "rb") as f:
        return {k: v.numpy() for k, v in read_model(f.read()).tensors.items()}


def metrics(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


class Distributed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="eorm-dist-")
        cls.data = os.path.join(cls.tmp, "data.jsonl")
        with open(SAMPLE, encoding="utf-8") as f:
            lines = f.readlines()[:48]
        with open(cls.data, "w", encoding="utf-8") as f:
            f.writelines(lines)

    @classmethod
    def tearDownClass(cls):
        if not os.environ.get("EORM_KEEP_TMP"):
            shutil.rmtree(cls.tmp, ignore_errors=True)

    def train(self, out, *extra, nproc=1):
        args = ["--data", self.data, "--out", os.path.join(self.tmp, out), *TINY, *extra]
        if nproc > 1:
            # torchrun itself (torch.distributed.run), through eorm.launch only where torchrun is broken
            # (Debian's torch 1.13 on Python 3.11, see eorm/launch.py).
            cmd = ["-m", LAUNCHER, "--standalone", "--nproc_per_node", str(nproc), "-m", "eorm.train", *args]
        else:
            cmd = ["-m", "eorm.train", *args]
        p = run_module(cmd)
        self.assertEqual(p.returncode, 0, f"{' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
        return os.path.join(self.tmp, out)

    def test_two_processes_equal_one_with_the_same_global_batch(self):
        # 2 ranks × 1 group per step vs 1 rank × 2 groups; dropout off, so both compute the same function.
        # 3 epochs over 7 training groups: the last step of each epoch has 1 group, one rank gets none.
        one = self.train("one", "--groups-per-step", "2", "--dropout", "0", "--epochs", "3")
        two = self.train("two", "--groups-per-step", "1", "--dropout", "0", "--epochs", "3", nproc=2)
        m1, m2 = metrics(os.path.join(one, "metrics.jsonl")), metrics(os.path.join(two, "metrics.jsonl"))
        s1 = [r for r in m1 if r["type"] == "step"]
        s2 = [r for r in m2 if r["type"] == "step"]
        self.assertEqual(len(s1), len(s2))
        self.assertGreater(len(s1), 6)
        for a, b in zip(s1, s2):
            self.assertAlmostEqual(a["loss"], b["loss"], delta=1e-5)
            self.assertAlmostEqual(a["lr"], b["lr"], delta=1e-15)
            self.assertAlmostEqual(a["gradNorm"], b["gradNorm"], delta=1e-5 * max(1.0, a["gradNorm"]))
        v1 = [r["summary"]["btLoss"] for r in m1 if r["type"] == "eval"]
        v2 = [r["summary"]["btLoss"] for r in m2 if r["type"] == "eval"]
        np.testing.assert_allclose(v1, v2, atol=1e-5)
        # Parameters after 12 Adam steps at lr 3e-3: float noise of the gradients (summed in another order across
        # ranks) is amplified by Adam where a gradient is near 0, so a few entries differ by up to ~2e-4 (~lr/15);
        # almost all agree to 1e-6. A training error (a group on the wrong rank, a wrong loss scale) moves the
        # losses and gradient norms above, and many entries here by ~lr.
        p1, p2 = params(os.path.join(one, "model.safetensors")), params(os.path.join(two, "model.safetensors"))
        diffs = []
        for name in p1:
            diff = np.abs(p1[name] - p2[name])
            if name == "head.3.bias":
                continue  # exactly-zero true gradient: Adam turns float noise into steps of up to lr
            if name.endswith("in_proj_bias"):
                diff = np.concatenate([diff[:16], diff[32:]])  # the key bias [d:2d] too
            self.assertLess(diff.max(), 5e-4, name)
            diffs.append(diff.ravel())
        self.assertLess(np.quantile(np.concatenate(diffs), 0.99), 1e-6)

    def test_resume_gives_the_uninterrupted_run(self):
        straight = self.train("straight", "--epochs", "2", "--groups-per-step", "2")
        part = self.train("resumed", "--epochs", "2", "--groups-per-step", "2", "--max-steps", "3")
        self.assertTrue(os.path.exists(os.path.join(part, "checkpoint.pt")))
        self.train("resumed", "--epochs", "2", "--groups-per-step", "2")
        a, b = params(os.path.join(straight, "model.safetensors")), params(os.path.join(part, "model.safetensors"))
        for name in a:
            np.testing.assert_array_equal(a[name], b[name], err_msg=name)
        steps = [r["step"] for r in metrics(os.path.join(part, "metrics.jsonl")) if r["type"] == "step"]
        self.assertEqual(steps, list(range(len(steps))))
        self.assertEqual(open(os.path.join(straight, "best.safetensors"), "rb").read(), open(os.path.join(part, "best.safetensors"), "rb").read())

    def test_init_continues_from_a_weights_file(self):
        first = self.train("first", "--epochs", "1")
        src = os.path.join(first, "model.safetensors")
        cont = self.train("continued", "--epochs", "1", "--init", src, "--d-model", "32")
        m = metrics(os.path.join(cont, "metrics.jsonl"))
        self.assertEqual(m[0]["config"]["dModel"], 16, "the file's config wins over the model flags")
        # The validation before training scores the initial weights: the first run's last validation.
        last_val = [r for r in metrics(os.path.join(first, "metrics.jsonl")) if r["type"] == "eval"][-1]
        first_val = [r for r in m if r["type"] == "eval"][0]
        self.assertAlmostEqual(first_val["summary"]["btLoss"], last_val["summary"]["btLoss"], delta=1e-6)


if __name__ == "__main__":
    unittest.main()
