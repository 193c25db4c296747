"""The trainer as users run it: `torchrun --nproc_per_node 2` on CPU (gloo) equals one process with the same
global batch; an interrupted run resumes to the very same weights; --init continues from a weights file."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import os
import shutil
import socket
import subprocess
import unittest

import numpy as np
import torch

from eorm.launch import PATCHED
from eorm.weights import read_model, read_safetensors

from tests.util import PYTHON_DIR, metrics, run_module, sample_in_temp_dir

# A tiny model (the GPT-2 vocabulary stays) on 12 questions of the sample: seconds per run.
TINY = ["--preset", "tiny", "--d-model", "16", "--n-heads", "2", "--n-layers", "2", "--max-len", "32", "--lr", "3e-3", "--curve-subsets", "4", "--quiet"]


LAUNCHER = "eorm.launch" if PATCHED else "torch.distributed.run"


def start_module(args, env):
    """`python -m …` started in the background, as util.run_module runs it."""
    e = dict(os.environ)
    e["PYTHONPATH"] = PYTHON_DIR + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    e.setdefault("OMP_NUM_THREADS", "1")
    e.update(env)
    return subprocess.Popen([sys.executable, *args], cwd=PYTHON_DIR, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def params(path):
    with open(path, "rb") as f:
        return {k: v.numpy() for k, v in read_model(f.read()).tensors.items()}


# Wall-clock figures: the only fields of metrics.jsonl a resume may change.
TIMING = ("time", "stepsPerSec", "tokensPerSec", "seconds")


def assert_same_run_files(test, a, b):
    """Folder b holds the files folder a holds, with the same content: model files with equal metadata (training
    summary included) and bitwise-equal tensors (a CPU run with one thread is deterministic, and a resume
    replays the same operations on the same values); checkpoint.pt with equal settings, split, position and
    tensors; metrics.jsonl with the same records once wall-clock figures and the resume's own record are left out."""
    test.assertEqual(sorted(os.listdir(a)), sorted(os.listdir(b)))
    for name in ("best.safetensors", "model.safetensors"):
        with open(os.path.join(a, name), "rb") as f:
            ta, ma = read_safetensors(f.read())
        with open(os.path.join(b, name), "rb") as f:
            tb, mb = read_safetensors(f.read())
        test.assertEqual({k: json.loads(v) if k == "eorm_training" else v for k, v in ma.items()}, {k: json.loads(v) if k == "eorm_training" else v for k, v in mb.items()}, name)
        test.assertEqual(sorted(ta), sorted(tb), name)
        for k in ta:
            np.testing.assert_array_equal(ta[k], tb[k], err_msg=f"{name} {k}")
    ca, cb = torch.load(os.path.join(a, "checkpoint.pt")), torch.load(os.path.join(b, "checkpoint.pt"))
    test.assertEqual(sorted(ca), sorted(cb))
    for key in ca:
        if key in ("model", "optimizer"):
            continue
        test.assertEqual(ca[key], cb[key], f"checkpoint.pt {key}")
    for k in ca["model"]:
        test.assertTrue(torch.equal(ca["model"][k], cb["model"][k]), f"checkpoint.pt model {k}")
    oa, ob = ca["optimizer"], cb["optimizer"]
    test.assertEqual(oa["param_groups"], ob["param_groups"])
    for i in oa["state"]:
        for k in oa["state"][i]:
            test.assertTrue(torch.equal(torch.as_tensor(oa["state"][i][k]), torch.as_tensor(ob["state"][i][k])), f"checkpoint.pt optimizer {i} {k}")

    def records(path):
        return [{k: v for k, v in r.items() if k not in TIMING} for r in metrics(path) if r["type"] != "resume"]

    ra, rb = records(os.path.join(a, "metrics.jsonl")), records(os.path.join(b, "metrics.jsonl"))
    test.assertEqual(len(ra), len(rb))
    for x, y in zip(ra, rb):
        test.assertEqual(x, y)
    resumed = [r for r in metrics(os.path.join(b, "metrics.jsonl")) if r["type"] == "resume"]
    test.assertTrue(resumed, "the resumed run says so in metrics.jsonl")
    for r in resumed:
        test.assertEqual(r["settings"], ra[0]["settings"], "a resume records the run's settings")


class Distributed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.data = sample_in_temp_dir("eorm-dist-", "data.jsonl", 48)

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
        # 3 epochs over 7 training groups (the mixed split): the last step of each epoch has 1 group, one rank gets none.
        same = ("--dropout", "0", "--epochs", "3", "--split", "mixed")
        one = self.train("one", "--groups-per-step", "2", *same)
        two = self.train("two", "--groups-per-step", "1", *same, nproc=2)
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
        # ranks) is amplified by Adam where a gradient is near 0, so a few entries differ, each by at most about
        # lr (one step of noise; how far depends on the BLAS and the CPU, so the bound is lr, not a measured
        # figure); almost all agree to 1e-6. A training error (a group on the wrong rank, a wrong loss scale)
        # moves the losses and gradient norms above, and many entries here by ~lr (the 99% quantile).
        lr = 3e-3
        p1, p2 = params(os.path.join(one, "model.safetensors")), params(os.path.join(two, "model.safetensors"))
        diffs = []
        for name in p1:
            diff = np.abs(p1[name] - p2[name])
            if name == "head.3.bias":
                continue  # exactly-zero true gradient: Adam turns float noise into steps of up to lr
            if name.endswith("in_proj_bias"):
                diff = np.concatenate([diff[:16], diff[32:]])  # the key bias [d:2d] too
            self.assertLess(diff.max(), lr, name)
            diffs.append(diff.ravel())
        self.assertLess(np.quantile(np.concatenate(diffs), 0.99), 1e-6)

    def test_resume_gives_the_uninterrupted_run(self):
        # Interrupted in epoch 1 (every best.safetensors is then written after the resume) and in epoch 2 (the
        # first one before it): whichever epoch wins, the resumed folder must hold the straight run's files.
        straight = self.train("straight", "--epochs", "2", "--groups-per-step", "2")
        for stop in (2, 4):
            with self.subTest(interrupted_after_step=stop):
                part = self.train(f"resumed{stop}", "--epochs", "2", "--groups-per-step", "2", "--max-steps", str(stop))
                self.assertEqual(torch.load(os.path.join(part, "checkpoint.pt"))["state"]["step"], stop)
                self.train(f"resumed{stop}", "--epochs", "2", "--groups-per-step", "2")
                assert_same_run_files(self, straight, part)
                steps = [r["step"] for r in metrics(os.path.join(part, "metrics.jsonl")) if r["type"] == "step"]
                self.assertEqual(steps, list(range(len(steps))))
    def test_a_resume_with_other_runtime_flags_records_the_runs_settings(self):
        run = ("--epochs", "1", "--groups-per-step", "2")
        out = self.train("runtime", *run, "--max-steps", "1")
        self.train("runtime", *run, "--micro-batch", "3")
        m = metrics(os.path.join(out, "metrics.jsonl"))
        resume = [r for r in m if r["type"] == "resume"][0]
        self.assertEqual(resume["resumedWith"], {"micro_batch": 3})
        self.assertEqual(resume["settings"], m[0]["settings"])
        with open(os.path.join(out, "model.safetensors"), "rb") as f:
            self.assertEqual(read_model(f.read()).training["settings"]["micro_batch"], 0)

    def nodes(self, outs, *extra, timeout=120):
        """One process per "node", as torchrun starts them on two machines (RANK 0 and 1, each LOCAL_RANK 0),
        rendezvous on this machine; node r writes to outs[r]. Returns [(returncode, stderr)]."""
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        procs = []
        for rank, out in enumerate(outs):
            env = {"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port), "WORLD_SIZE": str(len(outs)), "RANK": str(rank), "LOCAL_RANK": "0", "LOCAL_WORLD_SIZE": "1", "GROUP_RANK": str(rank)}
            args = ["-m", "eorm.train", "--data", self.data, "--out", out, *TINY, *extra]
            procs.append(start_module(args, env=env))
        results = []
        try:
            for p in procs:
                _, err = p.communicate(timeout=timeout)
                results.append((p.returncode, err))
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.communicate()
        return results

    def test_nodes_without_a_shared_out_refuse_to_resume(self):
        # A run on two nodes sharing --out, interrupted after 2 steps: only rank 0 wrote checkpoint.pt.
        shared = os.path.join(self.tmp, "nodes")
        run = ("--epochs", "2", "--groups-per-step", "1", "--dropout", "0")
        for rc, err in self.nodes([shared, shared], *run, "--max-steps", "2"):
            self.assertEqual(rc, 0, err)
        self.assertEqual(torch.load(os.path.join(shared, "checkpoint.pt"))["state"]["step"], 2)
        # Resumed with node 1's --out on its own disk: it sees no checkpoint and would start over.
        local = os.path.join(self.tmp, "node1-local")
        os.makedirs(local)
        for rc, err in self.nodes([shared, local], *run):
            self.assertNotEqual(rc, 0, err)
            self.assertIn("--out must be on storage that every node sees", err)
            self.assertIn("rank 1 sees no checkpoint", err)
            self.assertNotIn("Traceback", err)
        self.assertEqual(torch.load(os.path.join(shared, "checkpoint.pt"))["state"]["step"], 2, "nothing was trained or written")
        # Node 1 with another checkpoint (a stale one) is refused too.
        torch.save({**torch.load(os.path.join(shared, "checkpoint.pt")), "state": {"step": 1}}, os.path.join(local, "checkpoint.pt"))
        for rc, err in self.nodes([shared, local], *run):
            self.assertNotEqual(rc, 0, err)
            self.assertIn("rank 1 sees another checkpoint", err)
        # With rank 0's checkpoint copied to node 1's --out, the resume goes on.
        shutil.copy(os.path.join(shared, "checkpoint.pt"), os.path.join(local, "checkpoint.pt"))
        for rc, err in self.nodes([shared, local], *run):
            self.assertEqual(rc, 0, err)
        steps = [r["step"] for r in metrics(os.path.join(shared, "metrics.jsonl")) if r["type"] == "step"]
        self.assertEqual(steps, list(range(len(steps))))

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
