"""`eorm.weights` refuses exactly the model files the app refuses (src/engine/io/safetensors.ts,
modelFile.ts, modelConfig.ts), always with a SafetensorsError naming the problem, never a raw TypeError;
`eorm.score` and `eorm.train --init` print that message and exit non-zero without a traceback.
The same rules over 1,000 mutated files, app against Python: src/engine/io/modelFile.verdicts.test.ts."""
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

from eorm.config import make_config, param_shapes
from eorm.weights import SafetensorsError, read_model, write_model

from tests.util import SAMPLE, run_module

TINY = make_config(vocabSize=11, dModel=8, nHeads=2, nLayers=2, ffnDim=12, clsId=10, sepId=9, padId=10, maxLen=16)


def valid_file() -> bytes:
    tensors = {}
    for k, (name, shape) in enumerate(param_shapes(TINY)):
        n = int(np.prod(shape))
        tensors[name] = np.array([(((i * 7 + k * 13) % 61) - 30) / 64 for i in range(n)], dtype=np.float32).reshape(shape)
    return write_model(TINY, tensors, training={"steps": 3})


def split(buf: bytes):
    (n,) = struct.unpack("<Q", buf[:8])
    return json.loads(buf[8 : 8 + n]), buf[8 + n :]


def assemble(header, data: bytes) -> bytes:
    text = (header if isinstance(header, str) else json.dumps(header, separators=(",", ":"))).encode("utf-8")
    return struct.pack("<Q", len(text)) + text + data


def edited(edit, header_text=None) -> bytes:
    """The valid file with `edit(header)` applied (or `header_text(text)` on its JSON text)."""
    header, data = split(valid_file())
    if edit is not None:
        edit(header)
    text = json.dumps(header, separators=(",", ":"))
    if header_text is not None:
        text = header_text(text)
    return assemble(text, data)


def entry(name):
    def set_(field, value):
        def go(h):
            h[name][field] = value

        return go

    return set_


EMB = entry("emb.weight")
BIAS = entry("head.3.bias")


class RefusedWithASafetensorsError(unittest.TestCase):
    def refused(self, buf: bytes, pattern: str, tensor=None):
        with self.assertRaises(SafetensorsError) as e:
            read_model(buf)
        self.assertRegex(str(e.exception), pattern)
        if tensor is not None:
            self.assertEqual(e.exception.tensor, tensor)

    def test_offsets_reading_another_tensors_bytes(self):
        # 32 bytes for head.0.bias's [8] F32 values, counted back from the end: another tensor's bytes.
        self.refused(edited(entry("head.0.bias")("data_offsets", [-64, -32])), r'Tensor "head\.0\.bias": "data_offsets" is not a pair of non-negative integers', "head.0.bias")

    def test_overlapping_tensors(self):
        def overlap(h):
            b, e = h["head.3.weight"]["data_offsets"]
            h["head.3.bias"]["data_offsets"] = [b, b + 4]

        self.refused(edited(overlap), r"overlaps tensor")

    def test_offsets_not_a_list_or_not_integers(self):
        for bad in ("0,4", 4, None, {"a": 1}, [0], [0, 4, 8], ["0", "4"], [True, 4]):
            self.refused(edited(BIAS("data_offsets", bad)), r'"data_offsets" is not a pair of non-negative integers|"data_offsets" is', "head.3.bias")

    def test_float_offsets(self):
        header, _ = split(valid_file())
        b, e = header["head.3.bias"]["data_offsets"]
        self.refused(edited(None, lambda t: t.replace(f'"data_offsets":[{b},{e}]', f'"data_offsets":[{b}.5,{e}]')), r'"data_offsets" is not a pair', "head.3.bias")
        # 4.0 is the number 4 in JSON.parse, as in the app: accepted.
        read_model(edited(None, lambda t: t.replace(f'"data_offsets":[{b},{e}]', f'"data_offsets":[{b}.0,{e}e0]')))

    def test_a_list_as_dtype(self):
        self.refused(edited(BIAS("dtype", ["F32"])), r'"dtype" is not a string', "head.3.bias")

    def test_negative_or_fractional_shapes(self):
        self.refused(edited(BIAS("shape", [-1])), r'"shape" is not a list of non-negative integers', "head.3.bias")
        self.refused(edited(EMB("shape", [11, 8.5])), r'"shape" is not a list of non-negative integers', "emb.weight")
        self.refused(edited(EMB("shape", "11x8")), r'"shape" is not a list', "emb.weight")

    def test_missing_fields_and_entries_that_are_not_objects(self):
        def drop(h):
            del h["head.3.bias"]["dtype"]

        self.refused(edited(drop), r'"dtype" is missing', "head.3.bias")

        def not_object(h):
            h["head.3.bias"] = [1]

        self.refused(edited(not_object), r"its header entry is not an object", "head.3.bias")

    def test_nan_weights_are_refused(self):
        header, data = split(valid_file())
        b, _ = header["head.1.weight"]["data_offsets"]
        bad = bytearray(data)
        bad[b + 8 : b + 12] = struct.pack("<f", float("nan"))
        self.refused(assemble(header, bytes(bad)), r'Tensor "head\.1\.weight" has 1 NaN/infinite value\(s\) \(the first at index 2: NaN\)', "head.1.weight")

    def test_metadata_null_and_leading_whitespace_and_nan_literals(self):
        def meta_null(h):
            h["__metadata__"] = None

        self.refused(edited(meta_null), r'"__metadata__" is not an object of strings')
        self.refused(edited(None, lambda t: " " + t), r"starts with whitespace \(byte 0x20\)")
        # JSON has no NaN: JSON.parse refuses the header, so must we (even in a field nobody reads).
        self.refused(edited(None, lambda t: t.replace('"dtype":"F32"', '"x":NaN,"dtype":"F32"', 1)), r"The header is not JSON")

    def test_params_other_than_f32_or_f16_are_refused(self):
        header, data = split(valid_file())
        b, e = header["head.3.weight"]["data_offsets"]
        header["head.3.weight"].update(dtype="F64", shape=[1, 4])
        self.refused(assemble(header, data), r'Tensor "head\.3\.weight" has shape \[1, 4\]|is stored as F64', "head.3.weight")

    def test_layer_names_read_as_the_app_reads_them(self):
        header, data = split(valid_file())
        # Not "enc.layers.<n>." for the app's /^enc\.layers\.(\d+)\./: an unused extra tensor, ignored.
        for name in ("enc.layers.7", "enc.layers.\u00b2.x", "enc.layers.\u0663.x"):
            h = dict(header)
            h[name] = {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]}
            m = read_model(assemble(h, data))
            self.assertEqual(m.cfg.nLayers, 2, name)
        h = dict(header)
        h["enc.layers." + "9" * 5000 + ".x"] = {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]}
        self.refused(assemble(h, data), r"not a plausible model")

    def test_deeply_nested_ignored_field_is_read_as_the_app_reads_it(self):
        deep = "[" * 100_000 + "]" * 100_000
        m = read_model(edited(None, lambda t: t.replace('"dtype":"F32"', f'"note":{deep},"dtype":"F32"', 1)))
        self.assertEqual(m.cfg, TINY)
        self.refused(edited(None, lambda t: t.replace('"__metadata__":{', f'"__metadata__":{{"deep":{deep},', 1)), r'"__metadata__\.deep" is an array')

    def test_unused_bytes_are_reported_not_refused(self):
        header, data = split(valid_file())
        m = read_model(assemble(header, data + bytes(8)))
        self.assertEqual(m.warnings, ["8 unused bytes after the last tensor (the format expects none; the tensors are intact)."])

    def test_integers_beyond_2_53_and_huge_literals(self):
        self.refused(edited(BIAS("data_offsets", [2**53, 2**53 + 4])), r'"data_offsets" is not a pair', "head.3.bias")
        # A 5,000-digit number in an ignored field is JSON (JSON.parse reads it as a double).
        read_model(edited(None, lambda t: t.replace('"dtype":"F32"', '"n":' + "7" * 5000 + ',"dtype":"F32"', 1)))


class CommandsExitWithTheMessage(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="eorm-bad-model-")
        self.weights = os.path.join(self.tmp, "bad.safetensors")
        with open(self.weights, "wb") as f:
            f.write(edited(BIAS("data_offsets", "x")))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def check(self, p):
        self.assertNotEqual(p.returncode, 0)
        self.assertNotIn("Traceback", p.stderr)
        self.assertIn('Tensor "head.3.bias": "data_offsets" is not a pair of non-negative integers', p.stderr)
        self.assertIn(self.weights, p.stderr)

    def test_score(self):
        self.check(run_module(["-m", "eorm.score", "--weights", self.weights, "--data", SAMPLE]))

    def test_a_missing_file(self):
        missing = os.path.join(self.tmp, "none.safetensors")
        p = run_module(["-m", "eorm.score", "--weights", missing, "--data", SAMPLE])
        self.assertNotEqual(p.returncode, 0)
        self.assertNotIn("Traceback", p.stderr)
        self.assertIn(f"--weights {missing}: cannot read the file (No such file or directory)", p.stderr)

    def test_train_init(self):
        self.check(run_module(["-m", "eorm.train", "--data", SAMPLE, "--out", os.path.join(self.tmp, "run"), "--init", self.weights, "--epochs", "1"]))


if __name__ == "__main__":
    unittest.main()
