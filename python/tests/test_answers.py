"""The answer rules against tests/golden/answers.json (written by scripts/make_golden.mjs answers): the
hand-written cases a grader expects and the app's results on real model outputs, so python/ extracts and keys
answers exactly as the app does."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from eorm import answers, jsonl

from tests.util import HERE

with open(os.path.join(HERE, "golden", "answers.json"), encoding="utf-8") as f:
    G = json.load(f)


class HandCases(unittest.TestCase):
    def test_extraction(self):
        for text, want in G["extract"]:
            self.assertEqual(answers.extract_answer(text), want, repr(text))

    def test_keys(self):
        for text, want in G["key"]:
            self.assertEqual(answers.answer_key(text), want, repr(text))

    def test_equal_answers_share_a_key(self):
        for same in G["same"]:
            keys = [answers.answer_key(t) for t in same]
            self.assertIsNotNone(keys[0], same)
            self.assertEqual(len(set(keys)), 1, list(zip(same, keys)))

    def test_different_answers_do_not(self):
        for a, b in G["different"]:
            self.assertNotEqual(answers.answer_key(a), answers.answer_key(b), (a, b))

    def test_gold_keys(self):
        for gold, want in G["gold"]:
            self.assertEqual(answers.gold_answer_key(gold), want, repr(gold))


class ModelOutputs(unittest.TestCase):
    def test_same_extraction_and_key_as_the_app(self):
        for text, extracted, key in G["real"]:
            self.assertEqual(answers.extract_answer(text), extracted, repr(text[-300:]))
            self.assertEqual(None if extracted is None else answers.answer_key(extracted), key, repr(extracted))

    def test_same_keys_of_answer_fields(self):
        for field, key in G["realAnswerFields"]:
            self.assertEqual(answers.answer_key(field), key, repr(field))


class LabelsFromGold(unittest.TestCase):
    """The reader labels a line with `gold` and no `label` as the app's ingest does (ingest.test.ts, same lines)."""

    def test_labels_by_key_equality_with_the_gold_answer(self):
        lines = [
            {"question": "Q", "gen_text": "so 9 * 2 = 18.\nAnswer: $18", "gold": "She makes 9 * 2 = $18.\n#### 18"},
            {"question": "Q", "gen_text": "The answer is \\boxed{\\frac{3}{4}}", "gold": "0.75"},
            {"question": "Q", "gen_text": "The answer is 17.", "gold": 18},
            {"question": "Q", "gen_text": "nothing", "gold": 18},
            {"question": "Q", "gen_text": "Answer: 18", "gold": 18, "label": 0},
        ]
        ds = jsonl.ingest_jsonl("\n".join(json.dumps(l) for l in lines).encode("utf-8"))
        got = [[c.label, c.label_from_gold, c.gold_match] for c in ds.groups[0].candidates]
        self.assertEqual(got, [[1, True, True], [1, True, True], [0, True, False], [0, True, False], [0, False, True]])

    def test_rejects_a_line_with_nothing_to_label_it_by(self):
        lines = [{"question": "Q", "gen_text": "g", "gold": "  "}, {"question": "Q", "gen_text": "g"}, {"question": "Q", "gen_text": "g", "label": 1}]
        ds = jsonl.ingest_jsonl("\n".join(json.dumps(l) for l in lines).encode("utf-8"))
        self.assertEqual([(e.line, e.field, e.kind) for e in ds.report.errors], [(1, "label", "missing_field"), (2, "label", "missing_field")])
        self.assertIn('give "label" (0 or 1) or a gold answer', ds.report.errors[0].reason)


class Hostile(unittest.TestCase):
    """Bounded work on megabyte inputs: the text's tail only, no key for an over-long answer."""

    def test_megabyte_texts(self):
        mb = 1 << 20
        self.assertIsNone(answers.answer_key("1" * mb))
        self.assertEqual(answers.extract_answer("\\boxed{" * (mb // 7)), None)
        self.assertEqual(answers.extract_answer("x" * mb + "\n#### 5"), "5")
        self.assertEqual(answers.extract_answer("(" * mb + "\nAnswer: 7"), "7")

    def test_unclosed_groups_are_read_once(self):
        """Unclosed braces, indices and JSON strings, 64 Ki characters: each is read in one pass (the app's
        growth tests time the same inputs; quadratic reading took seconds here)."""
        self.assertEqual(answers.answer_key("\\frac{1}{" * 7000), "\\frac{1}{" * 7000)
        self.assertEqual(answers.answer_key("x^{" * 21000), "x^{" * 21000)
        self.assertIsNone(answers.extract_answer('\\"answer\\": \\"' * 4600))
        self.assertEqual(answers.answer_key(" or ".join("x=%d" % i for i in range(3))), "0,1,2")


if __name__ == "__main__":
    unittest.main()
