"""`python -m eorm.score --picks`: one line per question in input order with the pick's figures; a file with no
labels and no gold is picked too; under torchrun, 2 processes write the file 1 process writes (energies and probabilities to float rounding)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import shutil
import unittest

from eorm.formats.jsonl import ingest_jsonl
from eorm.picks import answer_shares, pick_question, rerank_answers
from eorm.picks_run import read_groups

from tests.test_distributed import LAUNCHER
from tests.util import run_module, sample_in_temp_dir, untrained_model_file

VOTE = {"temperature": 1.0, "platt": None, "selector": None, "use": "vote"}


class PickQuestionTest(unittest.TestCase):
    # The app's picksRule.test.ts case: "7" has the most votes, "9" the single lowest energy, one has no answer.
    answers = ["7", "9", "7", None, "7", "3"]
    energies = [0.4, -2.0, 0.1, -3.0, 0.3, 1.0]

    def test_rules(self):
        self.assertEqual({k: pick_question(self.answers, self.energies, VOTE, "weightedVote")[k] for k in ("answer", "index", "runnerUp")}, {"answer": "9", "index": 1, "runnerUp": "7"})
        self.assertEqual({k: pick_question(self.answers, self.energies, VOTE, "majority")[k] for k in ("answer", "index", "runnerUp")}, {"answer": "7", "index": 2, "runnerUp": "9"})
        best = pick_question(self.answers, self.energies, VOTE, "bestOfN")
        self.assertEqual((best["index"], best["answer"], best["probability"], best["runnerUp"]), (3, None, None, "9"))
        self.assertEqual(pick_question([None, None], [1.0, 0.0], VOTE, "weightedVote"), {"index": 1, "answer": None, "probability": None, "runnerUp": None, "runnerUpProbability": None})

    def test_shares_sum_to_one_and_platt_maps_them(self):
        rows = answer_shares(self.answers, self.energies, 0.5)
        self.assertAlmostEqual(sum(r["probability"] for r in rows), 1.0, places=12)
        self.assertEqual(rows[-1]["answer"], None)
        self.assertEqual(rows[0]["candidates"], [2, 4, 0])
        platt = rerank_answers(self.answers, self.energies, {**VOTE, "platt": {"a": 1.3, "b": -0.2}})
        self.assertNotEqual(platt[0]["probability"], answer_shares(self.answers, self.energies, 1.0)[0]["probability"])
        sel = pick_question(self.answers, self.energies, {**VOTE, "selector": [0.1, 4, -2, -1, 0.3], "use": "selector"}, "selector")
        self.assertTrue(0 < sel["probability"] < 1)


class ScorePicksTest(unittest.TestCase):
    def setUp(self):
        self.tmp, self.data = sample_in_temp_dir("eorm-picks-", "d.jsonl", 30)
        self.weights = untrained_model_file(self.tmp, seed=3)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def picks(self, data, out, *extra, nproc=1):
        args = ["-m", "eorm.score", "--weights", self.weights, "--data", data, "--picks", out, *extra]
        cmd = ["-m", LAUNCHER, "--standalone", "--nproc_per_node", str(nproc), *args] if nproc > 1 else args
        p = run_module(cmd)
        self.assertEqual(p.returncode, 0, f"{cmd}\n{p.stdout}\n{p.stderr}")
        summary = json.loads(p.stdout.strip().splitlines()[-1])
        with open(out, encoding="utf-8") as f:
            return summary, f.read()

    def test_one_line_per_question_in_input_order(self):
        summary, text = self.picks(self.data, os.path.join(self.tmp, "p.jsonl"))
        records = [json.loads(x) for x in text.splitlines()]
        groups = ingest_jsonl(self.data).groups
        self.assertEqual(len(records), len(groups))
        self.assertEqual([r["group"] for r in records], list(range(len(groups))))
        self.assertEqual(list(records[0]), ["group", "questionId", "question", "index", "text", "answer", "rule", "probability", "runnerUp", "runnerUpProbability", "energies", "correct"])
        for r, g in zip(records, groups):
            self.assertEqual(r["question"], g.question)
            self.assertEqual(r["text"], g.candidates[r["index"]].gen_text)
            self.assertEqual(r["answer"], g.candidates[r["index"]].answer_key)
            self.assertEqual(r["correct"], g.candidates[r["index"]].label)
            self.assertEqual(len(r["energies"]), len(g.candidates))
            self.assertEqual(r["rule"], "weightedVote")
        self.assertEqual(summary["questions"], len(groups))
        self.assertEqual(summary["accuracy"], sum(r["correct"] for r in records) / len(records))

    def test_a_file_without_labels_or_gold_is_picked_the_same(self):
        bare = os.path.join(self.tmp, "bare.jsonl")
        with open(self.data, encoding="utf-8") as f, open(bare, "w", encoding="utf-8") as out:
            for line in f:
                obj = json.loads(line)
                obj.pop("label")
                obj.pop("gold")
                out.write(json.dumps(obj) + "\n")
        dataset, labelled = read_groups(bare)
        self.assertFalse(labelled)
        self.assertEqual(dataset.report.rejected, 0)
        _, with_labels = self.picks(self.data, os.path.join(self.tmp, "a.jsonl"))
        summary, without = self.picks(bare, os.path.join(self.tmp, "b.jsonl"))
        self.assertEqual([{**json.loads(x), "correct": None} for x in with_labels.splitlines()], [json.loads(x) for x in without.splitlines()])
        self.assertIsNone(summary["accuracy"])

    def test_two_processes_write_the_file_one_writes(self):
        _, one = self.picks(self.data, os.path.join(self.tmp, "one.jsonl"), "--rule", "majority")
        summary, two = self.picks(self.data, os.path.join(self.tmp, "two.jsonl"), "--rule", "majority", nproc=2)
        self.assertEqual(summary["ranks"], 2)
        # Each rank scores its own batches, and a BLAS (OpenBLAS) may sum a product in another order for another
        # batch shape: the same picks and fields, energies and probabilities to float rounding.
        ones, twos = [json.loads(x) for x in one.splitlines()], [json.loads(x) for x in two.splitlines()]
        self.assertEqual(len(ones), len(twos))
        numeric = ("energies", "probability", "runnerUpProbability")
        for a, b in zip(ones, twos):
            self.assertEqual({k: v for k, v in a.items() if k not in numeric}, {k: v for k, v in b.items() if k not in numeric})
            for k in numeric:
                xs, ys = (a[k] if isinstance(a[k], list) else [a[k]]), (b[k] if isinstance(b[k], list) else [b[k]])
                self.assertEqual(len(xs), len(ys))
                for x, y in zip(xs, ys):
                    if x is None or y is None:
                        self.assertEqual(x, y)
                    else:
                        self.assertAlmostEqual(x, y, delta=1e-5)
        self.assertEqual(sorted(os.listdir(self.tmp)), sorted(["d.jsonl", "m.safetensors", "one.jsonl", "two.jsonl"]))


if __name__ == "__main__":
    unittest.main()
