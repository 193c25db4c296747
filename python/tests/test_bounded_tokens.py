"""Tokenizing a candidate is bounded by max_len, with the app's rule (src/engine/data/tokenize/boundedBpe.ts): the same
ids as the app (tests/golden/long_runs.json, written by scripts/make_long_runs_golden.mjs), a 1 MB run costs
well under a second, and ids equal the unbounded encoder wherever the cap does not fall inside a long run."""
import json
import os
import random
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from eorm import bpe, tokenize
from eorm.bpe import EOT

from tests.util import HERE, SAMPLE

with open(os.path.join(HERE, "golden", "long_runs.json"), encoding="utf-8") as f:
    GOLDEN = json.load(f)["cases"]


def expand(t):
    return t["prefix"] + t["unit"] * t["count"] + t["suffix"]


def plain_encode(text):
    """The unbounded encoder with the plain merge loop only (no heap, no cap): the reference."""
    out = []
    for piece in bpe.split_pieces(bpe.well_formed(text)):
        out.extend(bpe._merge(piece.encode("utf-8"), bpe.ranks()))
    return out


class SameIdsAsTheApp(unittest.TestCase):
    def test_golden_long_runs(self):
        self.assertEqual(len(GOLDEN), 12)
        for c in GOLDEN:
            with self.subTest(c["name"]):
                ids = tokenize.encode_input(expand(c["question"]), expand(c["answer"]), c["maxLen"])
                self.assertEqual(ids, c["ids"])


class Bounded(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Rank tables and the per-byte-set longest token are built once per process, not per line.
        tokenize.encode_input("Q", "A: " + "." * 5000, 64)

    def test_one_megabyte_runs_take_well_under_a_second(self):
        for ch in (".", " ", "a"):
            with self.subTest(repr(ch)):
                # CPU time, not wall-clock: with one test process per core, time descheduled is not billed here.
                t0 = time.process_time()
                ids = tokenize.encode_input("What is 2+3?", "A: " + ch * 1_000_000 + " 18", 4096)
                seconds = time.process_time() - t0
                self.assertLess(seconds, 0.5)
                self.assertEqual(len(ids), 4096)
                head = [EOT, *bpe.encode_ordinary("What is 2+3?"), EOT, *bpe.encode_ordinary("A:")]
                self.assertEqual(ids[: len(head)], head)
                run = bpe.decode(ids[len(head) :])
                self.assertEqual(run, " " + ch * (len(run) - 1))

    def test_the_same_ids_whatever_max_len(self):
        # The app tokenizes its data once at 4096 and reads a prefix for each maxLen.
        for answer in ("A: " + "." * 300_000 + " 18", "A: " + ".,;:!?-=*#" * 10_000 + " 18", "A: " + "é" * 20_000):
            full = tokenize.encode_input("Q", answer, 4096)
            for max_len in (2, 3, 64, 513, 4095):
                self.assertEqual(tokenize.encode_input("Q", answer, max_len), full[:max_len])

    def test_equal_to_the_plain_encoder_on_ordinary_text(self):
        with open(SAMPLE, encoding="utf-8") as f:
            texts = [json.loads(line)["gen_text"] for line, _ in zip(f, range(100))]
        texts.append("\n".join(texts))
        for text in texts:
            want = plain_encode(text)
            self.assertEqual(bpe.encode_ordinary(text), want)
            for limit in (0, 1, 7, 100, len(want) - 1, len(want), len(want) + 1):
                if limit < 0:
                    continue
                got = bpe.encode_bounded(text, limit)
                if len(want) <= limit:
                    self.assertEqual(got, want)
                else:
                    self.assertGreater(len(got), limit)
                    self.assertEqual(got, want[: len(got)])

    def test_heap_merge_equals_the_plain_merge(self):
        rng = random.Random(5)
        for alphabet in (".,;:!?-=*#", "ab", "abcde", "éèàüß中文字", " \n\t", "0123456789"):
            for _ in range(40):
                text = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 400)))
                b = text.encode("utf-8")
                self.assertEqual(bpe._merge_heap(b, bpe.ranks()), bpe._merge(b, bpe.ranks()), (alphabet, text))

    def test_long_runs_that_end_before_the_cap_are_not_cut(self):
        # Over 4,096 bytes (the long-pre-token path) and fewer ids than the cap: the unbounded ids (the
        # golden's "20,000 dashes" case checks those against tiktoken's on the app's side).
        for answer in ("A: " + "-" * 20000 + " 18", "A: " + "a" * 15000 + " 18", "A: " + ".,;:!?-=*#" * 500 + " 18", "A: x" + "\n" * 6000 + "y"):
            with self.subTest(answer[:8]):
                want = bpe.encode_ordinary(answer)
                self.assertLess(len(want), 4090)
                self.assertEqual(tokenize.encode_input("Q", answer, 4096), [EOT, *bpe.encode_ordinary("Q"), EOT, *want])


if __name__ == "__main__":
    unittest.main()
