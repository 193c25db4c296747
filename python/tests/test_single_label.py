"""The note on single-label questions: the app's words (src/engine/metrics/singleLabel.test.ts holds the same
sentences), and `eorm.score --groups val` printing it."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import shutil
import unittest

from eorm.metrics.summary import ScoredGroup
from eorm.metrics.single_label import single_label_note

from tests.util import run_module, sample_in_temp_dir, untrained_model_file


def group(labels, answers):
    return ScoredGroup(list(range(len(labels))), labels, answers)


class Note(unittest.TestCase):
    def test_an_all_right_question_without_a_final_answer(self):
        note = single_label_note([group([1, 1, 1], [None, None, None]), group([1, 1], ["4", None]), group([0, 0], ["3", "5"]), group([1, 0], ["4", "3"]), group([], [])])
        self.assertEqual(
            note,
            {
                "questions": 3,
                "allRight": 2,
                "allWrong": 1,
                "allRightNoAnswer": 1,
                "sentence": "On the other 3 questions (2 with every answer right, 1 with every answer wrong) every rule scores 1 where every answer is right and 0 where every answer is wrong, except on the 1 all-right question with no extractable final answer: there the rules that choose a final answer (the votes) have none to choose and score 0, while those that pick a candidate (Best-of-N, first, random, shortest, longest) score 1.",
            },
        )

    def test_every_rule_alike_and_none(self):
        self.assertEqual(
            single_label_note([group([1, 1], ["4", None]), group([0], [None])])["sentence"],
            "On the other 2 questions (1 with every answer right, 1 with every answer wrong) every rule scores alike: 1 where every answer is right, 0 where every answer is wrong.",
        )
        self.assertEqual(single_label_note([group([1, 0], ["4", "3"])])["sentence"], "No question has a single label.")


class ScoreCommand(unittest.TestCase):
    def test_a_validation_prints_the_note_of_its_groups(self):
        tmp, data = sample_in_temp_dir("eorm-single-", "data.jsonl", 200)
        try:
            p = run_module(["-m", "eorm.score", "--weights", untrained_model_file(tmp), "--data", data, "--groups", "val", "--split", "all", "--curve-subsets", "0"])
            self.assertEqual(p.returncode, 0, p.stderr)
            out = [json.loads(l) for l in p.stdout.strip().split("\n")]
            by_group = {}
            for r in sorted(out[:-1], key=lambda r: (r["group"], r["index"])):
                by_group.setdefault(r["group"], []).append(r)
            want = single_label_note([ScoredGroup([r["energy"] for r in g], [r["label"] for r in g], [r["answer"] for r in g]) for g in by_group.values()])
            self.assertEqual(out[-1]["selection"]["singleLabel"], want)
            self.assertGreater(want["questions"], 0)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
