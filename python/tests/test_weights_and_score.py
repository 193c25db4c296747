"""`.safetensors` model files in the app's layout, and the `eorm.score` command line."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import shutil
import struct
import tempfile
import unittest

import numpy as np
import torch

from eorm.config import make_config, param_shapes
from eorm.model import TransEBM, state_dict_arrays
from eorm.weights import SafetensorsError, parse_safetensors, read_model, write_model, write_safetensors

from tests.util import SAMPLE, fixture_dir, run_module, untrained_model_file

TINY = make_config(vocabSize=11, dModel=8, nHeads=2, nLayers=2, ffnDim=12, clsId=10, sepId=9, padId=10, maxLen=16)


def tensors(cfg):
    out = {}
    for k, (name, shape) in enumerate(param_shapes(cfg)):
        n = int(np.prod(shape))
        out[name] = torch.tensor([(((i * 7 + k * 13) % 61) - 30) / 64 for i in range(n)], dtype=torch.float32).reshape(shape)
    return out


class ModelFiles(unittest.TestCase):
    def test_layout_and_metadata_as_the_app_writes_them(self):
        data = write_model(TINY, tensors(TINY), training={"steps": 3, "loss": 0.5})
        (n,) = struct.unpack("<Q", data[:8])
        self.assertEqual((8 + n) % 8, 0)
        header = json.loads(data[8 : 8 + n])
        self.assertEqual(list(header)[0], "__metadata__")
        self.assertEqual([k for k in header if k != "__metadata__"], [name for name, _ in param_shapes(TINY)])
        meta = header["__metadata__"]
        self.assertEqual(list(meta), ["format", "eorm_format", "eorm_config", "config", "eorm_tokenizer", "eorm_special_ids", "eorm_training"])
        # JSON.stringify(cfg, Object.keys(DEFAULT_CONFIG)) of the same config.
        self.assertEqual(meta["eorm_config"], '{"vocabSize":11,"dModel":8,"nHeads":2,"nLayers":2,"ffnDim":12,"dropout":0.2,"maxLen":16,"clsId":10,"sepId":9,"padId":10,"positional":"none"}')
        self.assertEqual(meta["eorm_special_ids"], '{"cls":10,"sep":9,"pad":10}')
        zero = make_config(**{**TINY.to_dict(), "dropout": 0.0})
        self.assertIn('"dropout":0,', parse_safetensors(write_model(zero, tensors(zero))).metadata["eorm_config"])

    def test_round_trip(self):
        t = tensors(TINY)
        m = read_model(write_model(TINY, t, training={"steps": 3}))
        self.assertEqual((m.cfg, m.config_source, m.training, m.warnings), (TINY, "eorm_config", {"steps": 3}, []))
        for name in t:
            self.assertTrue(torch.equal(m.tensors[name], t[name]), name)

    def test_a_bare_state_dict_reads_its_config_from_the_shapes(self):
        cfg = make_config(dModel=8, nHeads=2, nLayers=3, ffnDim=12)
        t = state_dict_arrays(TransEBM(cfg))
        m = read_model(write_safetensors([(n, t[n].numpy()) for n, _ in param_shapes(cfg)]))
        self.assertEqual(m.config_source, "shapes")
        self.assertEqual((m.cfg.vocabSize, m.cfg.dModel, m.cfg.nLayers, m.cfg.ffnDim, m.cfg.clsId), (50257, 8, 3, 12, 50256))
        self.assertTrue(any("attention heads" in w for w in m.warnings))
        # TINY's ids do not fit the default GPT-2 ids: refused, as the app does.
        with self.assertRaises(SafetensorsError):
            read_model(write_safetensors([(n, v.numpy()) for n, v in tensors(TINY).items()]))

    def test_refuses_a_file_that_does_not_fit_naming_the_tensor(self):
        t = tensors(TINY)
        t["enc.layers.1.linear1.weight"] = torch.zeros(13, 8)
        listed = [(n, t[n].numpy()) for n, _ in param_shapes(TINY)]
        with self.assertRaises(SafetensorsError) as e:
            read_model(write_safetensors(listed), TINY.to_dict())
        self.assertEqual(e.exception.tensor, "enc.layers.1.linear1.weight")

    def test_fixture_weights_and_a_fresh_model(self):
        with open(os.path.join(fixture_dir(), "weights.safetensors"), "rb") as f:
            m = read_model(f.read())
        self.assertEqual(m.config_source, "reference_config")
        model = TransEBM(make_config(vocabSize=50257, dModel=16, nHeads=4, nLayers=1))
        self.assertEqual(list(state_dict_arrays(model)), [n for n, _ in param_shapes(model.cfg)])
        self.assertEqual(list(model.state_dict()), [n for n, _ in param_shapes(model.cfg)])


class ScoreCommand(unittest.TestCase):
    def test_one_object_per_line_then_the_metrics(self):
        tmp = tempfile.mkdtemp(prefix="eorm-score-")
        try:
            data = os.path.join(tmp, "data.jsonl")
            with open(SAMPLE, encoding="utf-8") as f:
                lines = f.readlines()[:20]
            lines.insert(3, "not json\n")
            with open(data, "w", encoding="utf-8") as f:
                f.writelines(lines)
            weights = untrained_model_file(tmp)
            p = run_module(["-m", "eorm.score", "--weights", weights, "--data", data])
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn('line 4, (line): invalid JSON', p.stderr)
            out = [json.loads(l) for l in p.stdout.strip().split("\n")]
            rows, last = out[:-1], out[-1]
            self.assertEqual([r["line"] for r in rows], [n for n in range(1, 22) if n != 4])
            self.assertTrue(all(isinstance(r["energy"], float) for r in rows))
            for g in {r["group"] for r in rows}:
                ranked = sorted((r for r in rows if r["group"] == g), key=lambda r: r["rank"])
                self.assertEqual([r["energy"] for r in ranked], sorted(r["energy"] for r in ranked))
            # A test file (--groups all): every question, the single-label one (group 2, all wrong) included, as the app's.
            self.assertEqual(last["metrics"]["nCandidates"], 20)
            self.assertEqual(last["metrics"]["nGroups"], 5)
            self.assertNotIn("allQuestions", last["selection"])
            self.assertEqual(last["allQuestionsAccuracy"], last["selection"]["rules"][last["selection"]["recommended"]["rule"]]["accuracy"])
            self.assertIn("weightedVote", last["metrics"]["baselines"])
            self.assertEqual(last["curve"][-1]["n"], 4)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
