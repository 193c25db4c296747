"""The split travels with the weights (issue 18 point 5, /tmp contract "split"): every model file and
checkpoint.pt records `split: {seed, trainFraction, dataset}`; `--init` honours the split a file records (the
app's `split`, its older `splitSeed`, python's older settings) when it was made on this file, says in plain
words when it cannot be honoured or checked; a resume refuses a data file whose bytes changed."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import contextlib
import hashlib
import io
import shutil
import unittest

import torch

import eorm.train as train_mod
from eorm.config import GPT2_EOT, GPT2_VOCAB, make_config
from eorm.dataset import load_training_data
from eorm.metrics.summary import evaluate_groups
from eorm.model import TransEBM, score_candidates, state_dict_arrays
from eorm.split import recorded_split, split_groups
from eorm.weights import read_model, write_model

from tests.util import metrics, sample_in_temp_dir

MODEL = ["--d-model", "16", "--n-heads", "2", "--n-layers", "1", "--max-len", "32"]
RUN = ["--lr", "3e-3", "--curve-subsets", "0", "--quiet", "--epochs", "1"]
CFG = make_config(vocabSize=GPT2_VOCAB, dModel=16, nHeads=2, nLayers=1, ffnDim=64, maxLen=32, clsId=GPT2_EOT, sepId=GPT2_EOT, padId=GPT2_EOT)


def sha(path):
    with open(path, "rb") as f:
        return "sha256:" + hashlib.sha256(f.read()).hexdigest()


def training_summary(path):
    with open(path, "rb") as f:
        return read_model(f.read()).training


class SplitRecord(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.data = sample_in_temp_dir("eorm-split-", "train.jsonl", 80)
        cls.id = sha(cls.data)
        cls.view = load_training_data(cls.data, 32, quiet=True)
        torch.manual_seed(3)
        cls.model = TransEBM(CFG).eval()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_train(self, out, *extra):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            result = train_mod.run(["--data", self.data, "--out", os.path.join(self.tmp, out), *RUN, *extra])
        return result, err.getvalue()

    def app_file(self, name, training):
        """A model file as the app exports it: its training summary with the app's field names."""
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(write_model(CFG, state_dict_arrays(self.model), training=training))
        return path

    def val_bt_loss(self, seed, fraction, kind="mixed"):
        _, val = split_groups(self.view.group_labels(), seed, fraction, kind)
        e = score_candidates(self.model, [self.view.ids[i] for i in self.view.candidates(val)], torch.device("cpu"))
        return evaluate_groups(self.view.scored(val, e))["btLoss"]

    def assert_trained_with_split(self, out, split):
        """The run split as `split` says: recorded so in metrics.jsonl, every model file and checkpoint.pt, with
        the group counts of that split."""
        d = os.path.join(self.tmp, out)
        m = metrics(os.path.join(d, "metrics.jsonl"))
        train, val = split_groups(self.view.group_labels(), split["seed"], split["trainFraction"], split["kind"])
        self.assertEqual((m[0]["split"], m[0]["trainGroups"], m[0]["valGroups"]), (split, len(train), len(val)))
        for name in ("model.safetensors", "best.safetensors"):
            t = training_summary(os.path.join(d, name))
            self.assertEqual((t["split"], t["splitSeed"]), (split, split["seed"]), name)
        self.assertEqual(torch.load(os.path.join(d, "checkpoint.pt"))["split"], split)
        return m

    def test_python_records_the_whole_split_everywhere(self):
        _, err = self.run_train("own", *MODEL, "--seed", "5", "--train-fraction", "0.75")
        # A new run's split kind is 'all' unless --split says otherwise.
        self.assert_trained_with_split("own", {"seed": 5, "trainFraction": 0.75, "dataset": self.id, "kind": "all"})
        t = training_summary(os.path.join(self.tmp, "own", "model.safetensors"))
        # The older fields stay, for older readers.
        self.assertEqual((t["settings"]["seed"], t["settings"]["train_fraction"]), (5, 0.75))
        self.assertEqual(recorded_split(t), {"seed": 5, "trainFraction": 0.75, "dataset": self.id, "kind": "all"})

    def test_init_honours_the_split_of_an_app_file_made_on_this_data(self):
        split = {"seed": 7, "trainFraction": 0.6, "dataset": self.id}
        path = self.app_file("app.safetensors", {"dataset": "train.jsonl", "trainGroups": 1, "valGroups": 1, "splitSeed": 7, "split": split, "settings": {"seed": 7}})
        _, err = self.run_train("from-app", "--init", path)  # --seed stays 42, --train-fraction 0.8
        # Recorded without a kind: made before kinds, so 'mixed', and kept.
        m = self.assert_trained_with_split("from-app", {**split, "kind": "mixed"})
        self.assertIn("app.safetensors was trained on this file: splitting with its split (seed 7, train fraction 0.6)", err)
        self.assertNotIn("Warning", err)
        # Validation before training scores the imported weights on exactly the recorded split's val groups.
        first = [r for r in m if r["type"] == "eval"][0]
        self.assertAlmostEqual(first["summary"]["btLoss"], self.val_bt_loss(7, 0.6), delta=1e-6)
        self.assertNotAlmostEqual(self.val_bt_loss(7, 0.6), self.val_bt_loss(42, 0.8), delta=1e-6)

    def test_init_from_an_app_file_of_another_dataset_splits_with_the_flags_and_warns(self):
        other = "sha256:" + "ab12" * 16
        path = self.app_file("other.safetensors", {"splitSeed": 7, "split": {"seed": 7, "trainFraction": 0.6, "dataset": other}})
        _, err = self.run_train("from-other", "--init", path, "--seed", "11")
        self.assert_trained_with_split("from-other", {"seed": 11, "trainFraction": 0.8, "dataset": self.id, "kind": "all"})
        self.assertIn("Warning: other.safetensors was trained on another file (sha256:ab12ab12…): its split does not apply to train.jsonl", err)
        self.assertIn("not comparable", err)

    def test_init_honours_an_older_app_file_with_only_a_split_seed_and_says_it_cannot_check(self):
        path = self.app_file("old-app.safetensors", {"dataset": "train.jsonl", "splitSeed": 7, "settings": {"seed": 7}})
        _, err = self.run_train("from-old-app", "--init", path)
        m = self.assert_trained_with_split("from-old-app", {"seed": 7, "trainFraction": 0.8, "dataset": self.id, "kind": "mixed"})
        self.assertIn("old-app.safetensors does not record which file it was trained on", err)
        self.assertIn("seed 7, train fraction 0.8", err)
        first = [r for r in m if r["type"] == "eval"][0]
        self.assertAlmostEqual(first["summary"]["btLoss"], self.val_bt_loss(7, 0.8), delta=1e-6)

    def test_init_honours_an_older_python_file_with_its_settings(self):
        path = self.app_file("old-py.safetensors", {"source": "eorm python", "settings": {"seed": 9, "train_fraction": 0.7}})
        _, err = self.run_train("from-old-py", "--init", path)
        self.assert_trained_with_split("from-old-py", {"seed": 9, "trainFraction": 0.7, "dataset": self.id, "kind": "mixed"})
        self.assertIn("does not record which file it was trained on", err)

    def test_init_from_a_file_without_a_training_summary_says_so(self):
        path = self.app_file("bare.safetensors", None)
        _, err = self.run_train("from-bare", "--init", path, "--seed", "4")
        self.assert_trained_with_split("from-bare", {"seed": 4, "trainFraction": 0.8, "dataset": self.id, "kind": "all"})
        self.assertIn("bare.safetensors records no split", err)

    def test_recorded_split_reads_each_shape_and_refuses_bad_fields(self):
        ok = {"seed": 7, "trainFraction": 0.6, "dataset": None}
        self.assertEqual(recorded_split({"split": ok, "splitSeed": 3}), {**ok, "kind": "mixed"})
        self.assertEqual(recorded_split({"splitSeed": 3}), {"seed": 3, "trainFraction": 0.8, "dataset": None, "kind": "mixed"})
        self.assertEqual(recorded_split({"settings": {"seed": 2}}), {"seed": 2, "trainFraction": 0.8, "dataset": None, "kind": "mixed"})
        self.assertIsNone(recorded_split({"dataset": "x.jsonl"}))
        self.assertIsNone(recorded_split(None))
        for bad, field in (({"seed": "7", "trainFraction": 0.6}, "split.seed"), ({"seed": 7, "trainFraction": 1.5}, "split.trainFraction"), ({"seed": 7, "trainFraction": 0.5, "dataset": "md5:12"}, "split.dataset")):
            with self.assertRaisesRegex(ValueError, field):
                recorded_split({"split": bad})

    def test_resume_refuses_a_data_file_that_changed(self):
        data = os.path.join(self.tmp, "changing.jsonl")
        shutil.copy(self.data, data)
        out = os.path.join(self.tmp, "changing")
        argv = ["--data", data, "--out", out, *MODEL, *RUN]
        with contextlib.redirect_stderr(io.StringIO()):
            train_mod.run([*argv, "--max-steps", "2"])
        with open(data, "a", encoding="utf-8") as f:
            f.write("\n")  # same groups, other bytes
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as cm:
            train_mod.run(argv)
        msg = str(cm.exception.code)
        self.assertIn("changing.jsonl has changed since", msg)
        self.assertIn("--resume never", msg)
        self.assertEqual(torch.load(os.path.join(out, "checkpoint.pt"))["state"]["step"], 2, "the checkpoint is left as it was")

    def test_resume_of_a_checkpoint_from_before_splits_were_recorded_uses_its_settings_and_says_so(self):
        out = os.path.join(self.tmp, "old-ckpt")
        argv = ["--data", self.data, "--out", out, *MODEL, *RUN, "--seed", "6", "--train-fraction", "0.7"]
        with contextlib.redirect_stderr(io.StringIO()):
            train_mod.run([*argv, "--max-steps", "2", "--split", "mixed"])  # as every run before kinds
        path = os.path.join(out, "checkpoint.pt")
        old = torch.load(path)
        del old["split"]
        torch.save(old, path)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            train_mod.run(argv)
        self.assertIn("does not record which data file it was made from", err.getvalue())
        # A checkpoint without a split record predates kinds: 'mixed'.
        self.assert_trained_with_split("old-ckpt", {"seed": 6, "trainFraction": 0.7, "dataset": self.id, "kind": "mixed"})


if __name__ == "__main__":
    unittest.main()
