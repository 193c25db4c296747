"""`eorm.score --groups val|train` validates on the split the weights record for the data file (seed, fraction,
kind, held-out sources), as the app does, and falls back to --seed/--train-fraction/--split only when the
weights record none for this file."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import re
import shutil
import unittest

import torch

from eorm.config import make_config
from eorm.data_files import file_identity
from eorm.dataset import load_training_data
from eorm.metrics.held_out_note import OPTIMISTIC
from eorm.model import TransEBM, state_dict_arrays
from eorm.split import holdout_split, split_record
from eorm.weights import write_model

from tests.util import REPO, run_module, sample_in_temp_dir


class ScoreRuns(unittest.TestCase):
    """The sample's first 200 lines and an untrained tiny model, written with the training summary a test gives."""

    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.data = sample_in_temp_dir("eorm-score-split-", "d.jsonl", 200)
        cls.cfg = make_config(vocabSize=50257, dModel=8, nHeads=2, nLayers=1, maxLen=32, dropout=0.0)
        torch.manual_seed(0)
        cls.arrays = state_dict_arrays(TransEBM(cls.cfg))
        cls.loaded = load_training_data(cls.data, 32, quiet=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def weights(self, name, training):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(write_model(self.cfg, self.arrays, training=training))
        return path

    def score(self, weights, *args):
        p = run_module(["-m", "eorm.score", "--weights", weights, "--data", self.data, "--curve-subsets", "0", *args])
        self.assertEqual(p.returncode, 0, p.stderr)
        out = [json.loads(l) for l in p.stdout.strip().split("\n")]
        return out[:-1], out[-1], p.stderr

    def expected(self, seed, fraction, kind, holdout=()):
        d = self.loaded
        return holdout_split(d.labels, d.group_start, d.sources, seed, fraction, kind, list(holdout))


class ScoreValidatesOnTheRecordedSplit(ScoreRuns):
    def test_the_recorded_split_of_this_file_wins_over_the_flags(self):
        split = split_record(7, 0.75, file_identity(self.data), "all")
        w = self.weights("all.safetensors", {"split": split})
        rows, last, err = self.score(w, "--groups", "val", "--seed", "42")
        train, val, _ = self.expected(7, 0.75, "all")
        self.assertEqual(sorted({r["group"] for r in rows}), sorted(val))
        self.assertNotEqual(sorted(val), sorted(self.expected(42, 0.8, "mixed")[1]))
        self.assertEqual(last["split"], split)
        self.assertIn("was trained on this file: splitting with its split (seed 7, train fraction 0.75, kind all)", err)
        # 'all' holds out single-label questions too: all of them count in allQuestions, only the others in the rest.
        self.assertEqual(last["selection"]["allQuestions"]["groups"], len(val))
        self.assertLess(last["selection"]["groups"], len(val))
        # The calibration is cross-fitted over the reported held-out questions (here too few), never over training groups.
        n = last["selection"]["groups"]
        want = "k-fold:5" if n >= 20 else f"none: only {n} held-out questions (at least 20 are needed to calibrate out of fold)"
        self.assertEqual(last["selection"]["calibration"]["method"], want)
        rows, _, _ = self.score(w, "--groups", "train")
        self.assertEqual(sorted({r["group"] for r in rows}), sorted(train))

    def test_held_out_sources_validate_on_those_sources_candidates(self):
        source = next(s for s in self.loaded.sources if s)
        w = self.weights("holdout.safetensors", {"split": split_record(3, 0.8, file_identity(self.data), "mixed", [source])})
        rows, last, _ = self.score(w, "--groups", "val")
        _, val, keep = self.expected(3, 0.8, "mixed", [source])
        self.assertEqual(sorted({r["group"] for r in rows}), sorted(val))
        kept_lines = {self.loaded.lines[i] for i in range(len(keep)) if keep[i]}
        self.assertTrue(rows and all(r["line"] in kept_lines for r in rows))
        self.assertEqual(last["split"]["holdoutSources"], [source])

    def test_another_files_split_or_none_falls_back_to_the_flags(self):
        other = self.weights("other.safetensors", {"split": split_record(7, 0.75, "sha256:" + "0" * 64, "all")})
        rows, last, err = self.score(other, "--groups", "val", "--seed", "5")
        self.assertEqual(sorted({r["group"] for r in rows}), sorted(self.expected(5, 0.8, "mixed")[1]))
        self.assertIn("was trained on another file", err)
        bare = self.weights("bare.safetensors", None)
        rows, last, err = self.score(bare, "--groups", "val", "--seed", "5", "--split", "all")
        self.assertEqual(sorted({r["group"] for r in rows}), sorted(self.expected(5, 0.8, "all")[1]))
        self.assertEqual(last["split"]["kind"], "all")
        self.assertIn("records no split", err)

    def test_figures_are_seeded_by_the_seed_the_weights_record(self):
        # The model's own validations drew their bootstrap and folds from its run's seed (settings.seed), as the app's Evaluate does.
        w = self.weights("seed7.safetensors", {"settings": {"seed": 7}, "split": split_record(7, 0.8, file_identity(self.data), "mixed")})
        _, last, _ = self.score(w, "--groups", "val")
        self.assertEqual(last["selection"]["bootstrap"]["seed"], 7)
        # A split alone: its seed; nothing recorded: --seed (default 42).
        w = self.weights("split3.safetensors", {"split": split_record(3, 0.8, file_identity(self.data), "mixed")})
        self.assertEqual(self.score(w, "--groups", "val")[1]["selection"]["bootstrap"]["seed"], 3)
        bare = self.weights("bare-seed.safetensors", None)
        self.assertEqual(self.score(bare, "--groups", "val")[1]["selection"]["bootstrap"]["seed"], 42)
        self.assertEqual(self.score(bare, "--groups", "val", "--seed", "5")[1]["selection"]["bootstrap"]["seed"], 5)


class ABestCheckpointsValidationIsOptimistic(ScoreRuns):
    """A best checkpoint was chosen by its validation figures: on the questions of the split it records they are
    optimistic, and eorm.score says so in the app's words (src/engine/data/heldOutNote.ts)."""

    def test_the_words_are_the_apps(self):
        with open(os.path.join(REPO, "src", "engine", "data", "heldOutNote.ts"), encoding="utf-8") as f:
            app = re.search(r"export const OPTIMISTIC =\s*'([^']*)'", f.read())
        self.assertIsNotNone(app)
        self.assertEqual(OPTIMISTIC, app.group(1))

    def test_its_own_validation_is_said_optimistic(self):
        own = split_record(7, 0.75, file_identity(self.data), "all")
        best = self.weights("best.safetensors", {"slot": "best", "split": own})
        _, last, err = self.score(best, "--groups", "val")
        self.assertIn(OPTIMISTIC, err)
        self.assertIs(last["chosenOnValidation"], True)
        # A split that names no file is validated as if it were this one: optimistic too, as the app says.
        unnamed = self.weights("best-unnamed.safetensors", {"slot": "best", "split": split_record(7, 0.75, None, "all")})
        _, last, err = self.score(unnamed, "--groups", "val")
        self.assertIn(OPTIMISTIC, err)
        self.assertIs(last["chosenOnValidation"], True)

    def test_not_when_another_split_or_another_checkpoint(self):
        own = split_record(7, 0.75, file_identity(self.data), "all")
        cases = [
            ("last.safetensors", {"split": own}, "val"),  # not chosen by its figures
            ("best-other.safetensors", {"slot": "best", "split": split_record(7, 0.75, "sha256:" + "0" * 64, "all")}, "val"),  # the flags' split
            ("best-train.safetensors", {"slot": "best", "split": own}, "train"),  # not the questions that chose it
        ]
        for name, training, groups in cases:
            _, last, err = self.score(self.weights(name, training), "--groups", groups)
            self.assertNotIn("optimistic", err, name)
            self.assertIs(last["chosenOnValidation"], False, name)


if __name__ == "__main__":
    unittest.main()
