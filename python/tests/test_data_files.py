"""Issue 48, point 3: eorm.train and eorm.score (--picks too) take several --data files, read together as the app
reads files dropped together (a chat batch's request and output files, one results file per model), with the
identity the app records for them; files that cannot be read end the command in one line, no traceback, and a
picks run leaves no OUT.tmp behind."""
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from eorm.data_files import data_identity
from eorm.dataset import load_training_data
from eorm.weights import load_model_file

from tests.test_train_formats import TINY
from tests.util import HERE, SAMPLE, run_module, untrained_model_file

GOLDEN = os.path.join(HERE, "golden", "formats")
ZEROEVAL = [os.path.join(GOLDEN, "real", f"zeroeval_gsm_{m}.json") for m in ("gemma-2-2b-it", "gpt-3.5-turbo-0125", "Qwen2-7B-Instruct")]


def expected(case):
    with open(os.path.join(GOLDEN, "expected", f"{case}.json"), encoding="utf-8") as f:
        return json.load(f)


class SeveralDataFiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="eorm-data-files-")
        cls.weights = untrained_model_file(cls.tmp, seed=3)
        # The sample's first 40 questions as two "per-model" files: candidates 0-1 of each question in one, 2-3 in the other.
        with open(SAMPLE, encoding="utf-8") as f:
            lines = f.readlines()[:160]
        cls.whole, cls.a, cls.b = (os.path.join(cls.tmp, n) for n in ("whole.jsonl", "a.jsonl", "b.jsonl"))
        for path, part in ((cls.whole, lines), (cls.a, [x for i, x in enumerate(lines) if i % 4 < 2]), (cls.b, [x for i, x in enumerate(lines) if i % 4 >= 2])):
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(part)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_ok(self, args):
        done = run_module(args)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done

    def refused(self, args, *said):
        done = run_module(args)
        self.assertNotEqual(done.returncode, 0)
        self.assertNotIn("Traceback", done.stderr)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        for s in said:
            self.assertIn(s, done.stderr)
        return done

    def test_the_identity_of_several_files_is_the_apps(self):
        with open(os.path.join(GOLDEN, "identities.json"), encoding="utf-8") as f:
            cases = json.load(f)
        for case in cases:
            self.assertEqual(data_identity([os.path.join(GOLDEN, p) for p in case["files"]]), case["identity"], case["files"])

    def test_picks_from_a_chat_batch_read_as_the_app_reads_it(self):
        out = os.path.join(self.tmp, "chat.jsonl")
        files = [os.path.join(GOLDEN, f) for f in ("batch_output.jsonl", "batch_requests.jsonl")]
        self.run_ok(["-m", "eorm.score", "--weights", self.weights, "--data", *files, "--picks", out])
        with open(out, encoding="utf-8") as f:
            records = [json.loads(x) for x in f]
        groups = expected("chat-batch")["groups"]
        self.assertEqual([(r["questionId"], r["question"], len(r["energies"])) for r in records], [(g["questionId"], g["question"], len(g["candidates"])) for g in groups])
        self.assertEqual([r["text"] for r in records], [g["candidates"][r["index"]]["genText"] for r, g in zip(records, groups)])
        self.assertFalse(os.path.exists(out + ".tmp"))

    def test_scores_per_model_files_read_together(self):
        done = self.run_ok(["-m", "eorm.score", "--weights", self.weights, "--data", *ZEROEVAL])
        rows = [json.loads(x) for x in done.stdout.splitlines()]
        want = expected("zeroeval-three-models")
        self.assertEqual(len(rows) - 1, want["candidateCount"])
        self.assertEqual(max(r["group"] for r in rows[:-1]) + 1, len(want["groups"]))
        self.assertIn("metrics", rows[-1])

    def test_trains_on_per_model_files_as_on_the_file_they_were_cut_from(self):
        joined, whole = load_training_data([self.a, self.b], 32, workers=1, quiet=True), load_training_data(self.whole, 32, workers=1, quiet=True)
        self.assertEqual((joined.ids, joined.labels, joined.group_start), (whole.ids, whole.labels, whole.group_start))
        out = os.path.join(self.tmp, "run")
        self.run_ok(["-m", "eorm.train", "--data", self.a, self.b, "--out", out, *TINY])
        training = load_model_file(os.path.join(out, "best.safetensors"))[1].training
        self.assertEqual((training["dataset"], training["split"]["dataset"]), ("a.jsonl + b.jsonl", data_identity([self.a, self.b])))

    def test_a_missing_file_ends_the_command_in_one_line(self):
        missing = os.path.join(self.tmp, "missing.jsonl")
        for args in (["-m", "eorm.score", "--weights", self.weights, "--data", self.a, missing], ["-m", "eorm.score", "--weights", self.weights, "--data", missing, "--picks", os.path.join(self.tmp, "p.jsonl")]):
            self.refused(args, f"--data {missing}: no such file")
        self.refused(["-m", "eorm.train", "--data", missing, "--out", os.path.join(self.tmp, "none"), *TINY], "no such file")

    def test_picks_on_a_file_without_a_valid_line_ends_in_one_line_and_leaves_nothing(self):
        out = os.path.join(self.tmp, "empty-picks.jsonl")
        self.refused(["-m", "eorm.score", "--weights", self.weights, "--data", os.path.join(GOLDEN, "all_empty.jsonl"), "--picks", out], 'No valid line', 'line 1, field "responses"')
        self.assertFalse(os.path.exists(out) or os.path.exists(out + ".tmp"))

    def test_picks_on_a_file_with_a_line_without_samples(self):
        out = os.path.join(self.tmp, "issue.jsonl")
        self.run_ok(["-m", "eorm.score", "--weights", self.weights, "--data", os.path.join(GOLDEN, "empty_samples.jsonl"), "--picks", out])
        with open(out, encoding="utf-8") as f:
            self.assertEqual([json.loads(x)["questionId"] for x in f], ["e3"])


if __name__ == "__main__":
    unittest.main()
