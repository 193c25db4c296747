"""Shared test helpers: where the fixtures are, the repository root, a Python that has torch, sample data to train on."""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(PYTHON_DIR)
SAMPLE = os.path.join(REPO, "public", "sample", "gsm8k_gpt3_openai_4cand.jsonl")


def fixture_dir() -> str:
    """`EORM_FIXTURES` when set, else the app's copy in src/engine/testdata/transebm, else ../shared/fixtures/transebm."""
    env = os.environ.get("EORM_FIXTURES")
    candidates = [env] if env else [os.path.join(REPO, "src", "engine", "testdata", "transebm"), os.path.join(os.path.dirname(REPO), "shared", "fixtures", "transebm")]
    for d in candidates:
        if d and os.path.exists(os.path.join(d, "case.json")):
            return d
    raise RuntimeError(f"no TransEBM fixtures in {candidates} (set EORM_FIXTURES to a fixture folder)")


def run_module(args, cwd=PYTHON_DIR, env=None, timeout=300):
    """Runs `python -m …` with this interpreter and the package on the path; returns CompletedProcess."""
    e = dict(os.environ)
    e["PYTHONPATH"] = PYTHON_DIR + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    e.setdefault("OMP_NUM_THREADS", "1")
    if env:
        e.update(env)
    return subprocess.run([sys.executable, *args], cwd=cwd, env=e, capture_output=True, text=True, timeout=timeout)


def sample_in_temp_dir(prefix, name, lines):
    """A new temporary folder holding the sample file's first `lines` lines as `name`: (folder, file path)."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    data = os.path.join(tmp, name)
    with open(SAMPLE, encoding="utf-8") as f:
        head = f.readlines()[:lines]
    with open(data, "w", encoding="utf-8") as f:
        f.writelines(head)
    return tmp, data


def untrained_model_file(folder, seed=0):
    """An untrained tiny model (d 8, one layer, maxLen 32) written to `folder`/m.safetensors: its path."""
    import torch

    from eorm.config import make_config
    from eorm.model import TransEBM, state_dict_arrays
    from eorm.weights import write_model

    path = os.path.join(folder, "m.safetensors")
    cfg = make_config(vocabSize=50257, dModel=8, nHeads=2, nLayers=1, maxLen=32, dropout=0.0)
    torch.manual_seed(seed)
    with open(path, "wb") as f:
        f.write(write_model(cfg, state_dict_arrays(TransEBM(cfg))))
    return path


class TrainRuns(unittest.TestCase):
    """Runs `eorm.train` (quietly) on the sample's first LINES lines, in a folder the class shares; ARGS go to every run."""

    LINES = 120
    ARGS: list = []

    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.data = sample_in_temp_dir(f"eorm-{cls.__name__}-", "train.jsonl", cls.LINES)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_train(self, out, *extra):
        import eorm.train as train_mod

        with contextlib.redirect_stderr(io.StringIO()):
            return train_mod.run(["--data", self.data, "--out", os.path.join(self.tmp, out), *self.ARGS, *extra])


def metrics(path):
    """The records of a metrics.jsonl (any JSON-lines file), in order."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def dec(v):
    """Golden JSON writes NaN / ±Infinity as strings."""
    if isinstance(v, str) and v in ("NaN", "Infinity", "-Infinity"):
        return float(v.replace("Infinity", "inf"))
    if isinstance(v, list):
        return [dec(x) for x in v]
    if isinstance(v, dict):
        return {k: dec(x) for k, x in v.items()}
    return v
