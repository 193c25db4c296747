"""The answer rules against tests/golden/answers.json (written by scripts/make_golden.mjs answers): the
hand-written cases a grader expects and the app's results on real model outputs, so python/ extracts and keys
answers exactly as the app does."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from eorm import formats
from eorm.answers import answer_classes, answer_equality, answer_form, answers, linear_latex, math_eval, math_parse, rational
from eorm.formats import jsonl

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

    def test_equal_answers_are_equal_and_different_ones_are_not(self):
        for equal in G["equal"]:
            for b in equal[1:]:
                self.assertTrue(answer_equality.answers_equal(answers.answer_key(equal[0]), answers.answer_key(b)), (equal[0], b))
        for a, b in G["different"]:
            self.assertFalse(answer_equality.answers_equal(answers.answer_key(a), answers.answer_key(b)), (a, b))

    def test_gold_keys_and_verdicts(self):
        for gold, want in G["gold"]:
            self.assertEqual(answers.gold_answer_key(gold), want, repr(gold))
        for field, text, gold, want in G["matches"]:
            self.assertEqual(answers.candidate_matches_gold(field, text, gold), want, (field, text, gold))

    def test_vote_classes(self):
        for group, want in G["classes"]:
            classes = answer_classes.class_keys([None if a is None else answers.answer_key(a) for a in group])
            self.assertEqual([-1 if c is None else classes.index(c) for c in classes], want, group)


class ModelOutputs(unittest.TestCase):
    def test_same_extraction_and_key_as_the_app(self):
        for text, extracted, key in G["real"]:
            self.assertEqual(answers.extract_answer(text), extracted, repr(text[-300:]))
            self.assertEqual(None if extracted is None else answers.answer_key(extracted), key, repr(extracted))

    def test_same_keys_of_answer_fields(self):
        for field, key in G["realAnswerFields"]:
            self.assertEqual(answers.answer_key(field), key, repr(field))

    def test_same_vote_classes_as_the_app(self):
        for keys, classes in G["realClasses"]:
            self.assertEqual(answer_classes.class_keys(keys), classes, keys)


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

    def test_equal_answers_get_one_vote_key_and_labels_by_the_same_rule(self):
        """The app's ingest.test.ts, the same lines."""
        lines = [
            {"question": "Q", "gen_text": "so $\\frac{x}{7}+\\frac{2}{7}$", "gold": "\\frac{x+2}{7}"},
            {"question": "Q", "gen_text": "A: (x+2)/7", "gold": "\\frac{x+2}{7}"},
            {"question": "Q", "gen_text": "A: x+2", "gold": "\\frac{x+2}{7}"},
            {"question": "R", "gen_text": "\\boxed{1} and \\boxed{2}", "label": 1},
            {"question": "R", "gen_text": "A: 2, 1", "label": 0},
        ]
        for ds in (jsonl.ingest_jsonl("\n".join(json.dumps(l) for l in lines).encode("utf-8")), formats.read_files([("a.jsonl", "\n".join(json.dumps(l) for l in lines).encode("utf-8"))])):
            q, r = (g.candidates for g in ds.groups)
            self.assertEqual([[c.answer_key, c.label, c.gold_match] for c in q], [["x/7+2/7", 1, True], ["x/7+2/7", 1, True], ["x+2", 0, False]])
            self.assertEqual(q[1].text_answer_key, "(x+2)/7")
            self.assertEqual([c.answer_key for c in r], ["1,2", "1,2"])

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


class BoundedWork(unittest.TestCase):
    """The app's answerBounds.test.ts, counted the same way (characters read, items compared), never timed."""

    def test_an_answer_is_read_a_bounded_number_of_times(self):
        shapes = [
            lambda n: "(x=(a," * n + "1" + "),b)" * n,
            lambda n: "a=(b=(c," * n + "1" + "))," * n,
            lambda n: "\\{x=1," * n + "2" + "\\}" * n,
            lambda n: "(p=" * n + "1" + ",,1)" * n,
            lambda n: " or ".join("x_%d=a,b=c" % i for i in range(n)),
            lambda n: "\\cup".join(["(a=1,b=2)\\cup[x<1,y]"] * n),
            lambda n: "x=\\pm(" + "a=(b," * n + "1" + "))" * n,
        ]
        for make in shapes:
            for n in (4, 64, 2000):
                s = make(n)
                read = [0]

                def counting(t, depth):
                    read[0] += len(t)
                    return answer_form.form_of(t, depth, counting)

                counting(s, 0)
                self.assertLessEqual(read[0], 2 * (linear_latex.MAX_DEPTH + 1) * len(s), s[:40])

    def test_mathematics_is_parsed_within_bounds(self):
        self.assertIsNotNone(math_parse.parse_math("9" * math_parse.MAX_MATH_CHARS))
        self.assertIsNone(math_parse.parse_math("9" * (math_parse.MAX_MATH_CHARS + 1)))
        self.assertIsNotNone(math_parse.parse_math("1" + "+1" * math_parse.MAX_MATH_LINKS))
        self.assertIsNone(math_parse.parse_math("1" + "+1" * (math_parse.MAX_MATH_LINKS + 1)))
        self.assertIsNone(math_parse.parse_math("5" + "!" * (math_parse.MAX_MATH_LINKS + 1)))
        nested = lambda k: "(" * k + "1" + ")" * k  # noqa: E731
        self.assertIsNotNone(math_parse.parse_math(nested(10)))
        self.assertIsNone(math_parse.parse_math(nested(math_parse.MAX_MATH_DEPTH)))
        # 256^k has 8k + 1 bits.
        self.assertEqual(math_eval.exact_value(math_parse.parse_math("256^{%d}" % (rational.MAX_BITS // 8 - 1))), (2 ** (rational.MAX_BITS - 8), 1))
        self.assertIsNone(math_eval.exact_value(math_parse.parse_math("256^{%d}" % (rational.MAX_BITS // 8))))
        self.assertIsNone(math_eval.exact_value(math_parse.parse_math("99^{999}")))
        long = "x+" + "9" * math_parse.MAX_MATH_CHARS
        self.assertFalse(answer_equality.answers_equal(answers.answer_key(long), answers.answer_key(long + "+0")))
        self.assertTrue(answer_equality.answers_equal(answers.answer_key("x+x+0"), answers.answer_key("2x")))

    def test_lists_and_classes_are_compared_within_bounds(self):
        roots = lambda n: ", ".join("%d\\sqrt{2}" % (k + 1) for k in range(n))  # noqa: E731
        radicands = lambda n: ", ".join("\\sqrt{%d}" % (2 * (k + 1) ** 2) for k in range(n))  # noqa: E731
        m = answer_equality.MAX_MATCHED_ITEMS
        self.assertTrue(answer_equality.answers_equal(answers.answer_key(roots(m)), answers.answer_key(radicands(m))))
        self.assertFalse(answer_equality.answers_equal(answers.answer_key(roots(m + 1)), answers.answer_key(radicands(m + 1))))

        def vote(distinct_before):
            classes = answer_classes.AnswerClasses()
            for k in range(distinct_before):
                classes.class_of(str(1000 + k))
            return [classes.class_of(answers.answer_key("2\\sqrt{2}")), classes.class_of(answers.answer_key("\\sqrt{8}"))]

        self.assertEqual(vote(answer_classes.MAX_COMPARED_CLASSES - 1), ["2\\sqrt{2}", "2\\sqrt{2}"])
        self.assertEqual(vote(answer_classes.MAX_COMPARED_CLASSES), ["2\\sqrt{2}", "\\sqrt{8}"])

    def test_a_megabyte_of_hostile_text(self):
        mb = 1 << 20
        self.assertTrue(answers.candidate_matches_gold(None, "$x$ " * (mb // 4) + "\n\\boxed{1} and \\boxed{2}", "\\{1,2\\}"))
        self.assertFalse(answers.candidate_matches_gold("(" * mb + "1", "", "1"))
        self.assertFalse(answers.candidate_matches_gold(None, "\\boxed{" * (mb // 7), "1"))


if __name__ == "__main__":
    unittest.main()
