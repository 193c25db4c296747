"""The data rules, split, training order and metrics against what the app's TypeScript computes
(tests/golden/app_rules.json, written by scripts/make_golden.mjs from src/engine)."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import math
import os
import unittest

from eorm import js, rng, selection, split, tokenize
from eorm.answers import answers
from eorm.formats import jsonl
from eorm.metrics import bootstrap, cross_fit, ncurve, temperature
from eorm.metrics import summary as metrics

from tests.util import HERE, SAMPLE, dec

with open(os.path.join(HERE, "golden", "app_rules.json"), encoding="utf-8") as f:
    G = json.load(f)



class Close(unittest.TestCase):
    def assertSame(self, got, want, path="", rel=1e-12):
        """Deep equality; floats to 1e-12 relative (libm vs V8 last bits), NaN equals NaN."""
        if isinstance(want, dict):
            self.assertIsInstance(got, dict, path)
            self.assertEqual(sorted(got), sorted(want), path)
            for k in want:
                self.assertSame(got[k], want[k], f"{path}.{k}", rel)
        elif isinstance(want, list):
            self.assertEqual(len(got), len(want), path)
            for i, (a, b) in enumerate(zip(got, want)):
                self.assertSame(a, b, f"{path}[{i}]", rel)
        elif isinstance(want, float) or isinstance(got, float):
            if math.isnan(want):
                self.assertTrue(math.isnan(got), f"{path}: {got} is not NaN")
            else:
                self.assertTrue(got == want or abs(got - want) <= rel * max(abs(want), 1e-300), f"{path}: {got} != {want}")
        else:
            self.assertEqual(got, want, path)


class Answers(Close):
    def test_extract_answer(self):
        for text, want in G["extractAnswer"]:
            self.assertEqual(answers.extract_answer(text), want, repr(text))

    def test_answer_key(self):
        for text, want in G["answerKey"]:
            self.assertEqual(answers.answer_key(text), want, repr(text))

    def test_every_sample_candidate(self):
        got = []
        with open(SAMPLE, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    a = r.get("answer")
                    got.append(answers.candidate_answer_key(None if a is None else js.json_stringify(a) if not isinstance(a, str) else a, r["gen_text"]))
        self.assertEqual(got, G["sample"]["candidateAnswerKeys"])

    def test_js_number_formatting(self):
        for n, want in G["numbers"]:
            self.assertEqual(js.number_to_string(float(n)), want, n)
        self.assertEqual(js.number_to_string(-0.0), "0")


def deep_line(template, open_, inner, close, depth):
    """The golden's deep lines (scripts/golden.ts deepLine): "%" → open × depth + inner + close × depth."""
    return template.replace("%", open_ * depth + inner + close * depth, 1)


class Lines(Close):
    def test_validation_rules_and_messages(self):
        for text, want in G["lines"]:
            self.check_line(text, 1 + [l for l, _ in G["lines"]].index(text), want)

    def test_any_nesting_depth_as_json_parse(self):
        """A field nested 3,000 or 100,000 levels deep: accepted where the rules ignore it, rejected as the app
        rejects it elsewhere; never a RecursionError turned into invalid_json."""
        for template, open_, inner, close, depth, want in G["deepLines"]:
            self.check_line(deep_line(template, open_, inner, close, depth), 1, want, f"{template} at depth {depth}")

    def test_deep_lines_give_the_same_groups_and_split(self):
        want = G["deepFile"]
        text = "".join(deep_line(*spec) + "\n" for spec in want["lines"])
        ds = jsonl.ingest_jsonl(text.encode("utf-8"))
        self.assertSame(self._dataset(ds), want["dataset"])
        train, val = split.split_groups([g.labels for g in ds.groups], want["split"]["seed"])
        self.assertEqual((train, val), (want["split"]["train"], want["split"]["val"]))

    def check_line(self, text, line, want, label=None):
        """One line's verdict against the app's; `label` names it in failures (deep lines are too long to print)."""
        label = label or text
        got = jsonl.parse_candidate_line(text, line)
        if want["ok"]:
            self.assertIsInstance(got, dict, f"{label}: {got}")
            r = want["record"]
            self.assertEqual(
                got,
                {"question": r["question"], "gen_text": r["genText"], "label": r["label"], "question_id": r["questionId"], "answer": r["answer"], "gold": r["gold"], "source": r["source"]},
                label,
            )
        else:
            e = want["error"]
            self.assertIsInstance(got, jsonl.LineError, label)
            self.assertEqual((got.line, got.field, got.kind), (e["line"], e["field"], e["kind"]), label)
            if e["kind"] != "invalid_json":  # V8's JSON messages are not Python's
                self.assertEqual(got.reason, e["reason"], label)

    def _dataset(self, ds):
        return {
            "groups": [
                {
                    "questionId": g.question_id,
                    "question": g.question,
                    "candidates": [{"line": c.line, "genText": c.gen_text, "label": c.label, "answer": c.answer, "answerKey": c.answer_key, "textAnswerKey": c.text_answer_key, "gold": c.gold, "source": c.source, "labelFromGold": c.label_from_gold, "goldMatch": c.gold_match} for c in g.candidates],
                }
                for g in ds.groups
            ],
            "candidateCount": ds.candidate_count,
            "report": {
                "bytesRead": ds.report.bytes_read,
                "linesRead": ds.report.lines_read,
                "accepted": ds.report.accepted,
                "rejected": ds.report.rejected,
                "blank": ds.report.blank,
                "invalidUtf8Lines": ds.report.invalid_utf8_lines,
                "errors": [{"line": e.line, "field": e.field, "kind": e.kind, "reason": e.reason} for e in ds.report.errors],
            },
        }

    def test_ingest_grouping_bom_crlf_blank_bad_utf8(self):
        got = self._dataset(jsonl.ingest_jsonl(bytes(G["messy"]["bytes"]), max_line_bytes=200))
        want = G["messy"]["dataset"]
        for e in want["report"]["errors"]:
            e["reason"] = "(V8 message)"
        for e in got["report"]["errors"]:
            e["reason"] = "(V8 message)"
        self.assertSame(got, want)

    def test_too_long_lines(self):
        text = ('{"question":"Q","gen_text":"' + "x" * 300 + '","label":1}\n{"question":"Q","gen_text":"y","label":0}\n').encode()
        r = jsonl.ingest_jsonl(text, max_line_bytes=200).report
        self.assertEqual([(e.line, e.field, e.kind, e.reason) for e in r.errors], [(e["line"], e["field"], e["kind"], e["reason"]) for e in G["longLine"]["errors"]])
        self.assertEqual((r.lines_read, r.accepted, r.rejected), (G["longLine"]["linesRead"], G["longLine"]["accepted"], G["longLine"]["rejected"]))

    def test_no_valid_line(self):
        with self.assertRaises(jsonl.NoValidLinesError):
            jsonl.ingest_jsonl(b"\n  \n[1]\n")


class SplitAndOrder(Close):
    @classmethod
    def setUpClass(cls):
        cls.ds = jsonl.ingest_jsonl(SAMPLE)

    def test_sample_groups(self):
        self.assertEqual(len(self.ds.groups), G["sampleGroups"]["count"])
        self.assertEqual([len(g.candidates) for g in self.ds.groups], G["sampleGroups"]["sizes"])
        self.assertEqual([c.label for g in self.ds.groups for c in g.candidates], G["sampleGroups"]["labels"])

    def test_same_groups_in_train_and_val_for_the_same_seed(self):
        labels = [g.labels for g in self.ds.groups]
        for seed, want in G["splits"].items():
            train, val = split.split_groups(labels, int(seed))
            self.assertEqual((train, val), (want["train"], want["val"]), seed)

    def test_per_epoch_training_order(self):
        train, _ = split.split_groups([g.labels for g in self.ds.groups], 42)
        for epoch, want in G["trainOrder"].items():
            order = list(train)
            rng.shuffle_in_place(order, rng.Rng(rng.mix_seed(42, int(epoch))))
            self.assertEqual(order, want, epoch)

    def test_rng_and_mix_seed(self):
        for a, b, want in G["mixSeed"]:
            self.assertEqual(rng.mix_seed(a, b), want)
        for seed, want in G["rng"]:
            r = rng.Rng(seed)
            self.assertEqual([r.next() for _ in want], want)

    def test_model_inputs(self):
        with open(SAMPLE, encoding="utf-8") as f:
            rows = [json.loads(next(f)) for _ in range(len(G["tokens"]["ids"]))]
        for r, want in zip(rows, G["tokens"]["ids"]):
            self.assertEqual(tokenize.encode_input(r["question"], r["gen_text"], G["tokens"]["maxLen"]), want)


class Metrics(Close):
    @classmethod
    def setUpClass(cls):
        m = dec(G["metrics"])
        cls.groups = [metrics.ScoredGroup(g["energies"], g["labels"], g["answers"]) for g in m["groups"]]
        cls.want = m

    def finite(self):
        return [g for g in self.groups if all(math.isfinite(e) for e in g.energies)]

    def test_summary_with_nan_and_infinite_energies(self):
        self.assertSame(metrics.evaluate_groups(self.groups), self.want["summary"])

    def test_summary(self):
        self.assertSame(metrics.evaluate_groups(self.finite()), self.want["summaryFinite"])

    def test_histogram(self):
        self.assertSame(metrics.energy_histogram(self.groups, 30), self.want["histogram"])

    def test_best_of_n_curve(self):
        self.assertSame(ncurve.best_of_n_curve(self.finite(), 42, 8), self.want["curve"])


class Selection(Close):
    """The selection report (rules with bootstrap intervals, the vote's temperature, probability map and the
    learned selector cross-fitted over the reported questions, calibration out of fold, the sentence) against
    the app's, to 1e-7: the same energies, labels and answers give the same figures (the fits' Newton steps
    carry rounding a little further than plain sums)."""

    @classmethod
    def setUpClass(cls):
        cls.want = dec(G["selection"])

        def groups(gs):
            return [metrics.ScoredGroup(g["energies"], g["labels"], g["answers"]) for g in gs]

        cls.fit = groups(cls.want["fit"])
        cls.report = groups(cls.want["report"])
        cls.noisy = groups(dec(G["metrics"]["groups"]))

    def test_temperature_fit(self):
        t, n = temperature.fit_temperature(self.fit)
        self.assertSame({"temperature": t, "groups": n}, self.want["temperature"], rel=1e-9)
        self.assertNotEqual(t, 1.0)

    def test_the_same_folds(self):
        self.assertEqual(cross_fit.cross_fit_folds(103, 42), self.want["folds"])

    def test_report_cross_fitted(self):
        got = selection.selection_report(self.report, 42)
        self.assertEqual(got["calibration"]["method"], "k-fold:5")
        self.assertSame(got, self.want["crossFitted"], rel=1e-7)
        self.assertEqual(got["recommended"], self.want["crossFitted"]["recommended"])

    def test_report_on_nan_and_infinite_energies(self):
        self.assertSame(selection.selection_report(self.noisy, 7, resamples=500), self.want["noisy"], rel=1e-7)

    def test_report_with_too_few_questions(self):
        finite = [g for g in self.noisy if all(math.isfinite(e) for e in g.energies)][:12]
        got = selection.selection_report(finite, 3)
        self.assertRegex(got["calibration"]["method"], r"^none: only \d+ held-out questions \(at least 20 are needed to calibrate out of fold\)$")
        self.assertSame(got, self.want["tooFew"], rel=1e-9)

    def test_report_with_fields(self):
        """The selector reading two named fields (one telling right from wrong, with missing values; one noise)."""
        gs = [metrics.ScoredGroup(g["energies"], g["labels"], g["answers"], fields=g["fields"]) for g in self.want["fieldGroups"]]
        got = selection.selection_report(gs, 11)
        self.assertEqual(len(got["probabilityMap"]["selector"]), 8)
        self.assertSame(got, self.want["withFields"], rel=1e-7)

    def test_vectorised_stream_is_mulberry32(self):
        r = rng.Rng(1234567)
        want = [r.int(37) for _ in range(500)]
        self.assertEqual(bootstrap.mulberry32_ints(1234567, 0, 500, 37).tolist(), want)
        self.assertEqual(bootstrap.mulberry32_ints(1234567, 200, 300, 37).tolist(), want[200:])

    def test_to_fixed_rounds_half_away_from_zero_like_js(self):
        self.assertEqual(selection.to_fixed(0.25, 1), "0.3")  # exact binary half: JS rounds up, Python's format would not
        self.assertEqual(selection.to_fixed(1.005, 2), "1.00")  # 1.005 is below the half in binary
        self.assertEqual(selection.to_fixed(-2.5, 0), "-3")


if __name__ == "__main__":
    unittest.main()
