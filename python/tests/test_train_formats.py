"""eorm.train and eorm.score read every format the app reads (eorm.formats), not only one candidate per line:
the sample rewritten as one question per line with its samples gives the same model inputs, labels and groups,
trains, and a file with neither labels nor gold answers is refused with what to do instead of a traceback."""
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from eorm.dataset import UnlabeledDataError, load_training_data, load_training_data_or_exit
from eorm.formats import read_files
from eorm.formats.jsonl import ingest_jsonl

from tests.util import SAMPLE, run_module

TINY = ["--preset", "tiny", "--d-model", "16", "--n-heads", "2", "--n-layers", "2", "--max-len", "32", "--epochs", "1", "--curve-subsets", "4", "--quiet"]


def grouped_lines(path: str):
    """The one-candidate-per-line file as one question per line: its texts under `responses`, labels under `labels`."""
    groups = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                o = json.loads(line)
                g = groups.setdefault(o["question_id"], {"question_id": o["question_id"], "question": o["question"], "responses": [], "labels": []})
                g["responses"].append(o["gen_text"])
                g["labels"].append(o["label"])
    return [json.dumps(g) for g in groups.values()]


class TrainOnEveryFormat(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.grouped = os.path.join(cls.tmp, "grouped.jsonl")
        with open(cls.grouped, "w", encoding="utf-8") as f:
            f.write("\n".join(grouped_lines(SAMPLE)) + "\n")
        # Training runs on the first 40 questions: enough for a split and a step, cheap on a shared core.
        cls.grouped_small = os.path.join(cls.tmp, "grouped_small.jsonl")
        with open(cls.grouped_small, "w", encoding="utf-8") as f:
            f.write("\n".join(grouped_lines(SAMPLE)[:40]) + "\n")
        cls.unlabeled = os.path.join(cls.tmp, "unlabeled.jsonl")
        with open(cls.unlabeled, "w", encoding="utf-8") as f:
            f.write(json.dumps({"question": "1+1?", "responses": ["2", "3"]}) + "\n")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_one_candidate_per_line_reads_as_before(self):
        before = ingest_jsonl(SAMPLE)
        now = read_files([SAMPLE])
        self.assertEqual(now.format, "candidates")
        self.assertEqual([(g.question_id, g.question, [(c.line, c.gen_text, c.label, c.answer_key, c.source) for c in g.candidates]) for g in now.groups],
                         [(g.question_id, g.question, [(c.line, c.gen_text, c.label, c.answer_key, c.source) for c in g.candidates]) for g in before.groups])

    def test_the_sample_as_grouped_lines_gives_the_same_training_data(self):
        a = load_training_data(SAMPLE, 32, workers=1, quiet=True)
        b = load_training_data(self.grouped, 32, workers=1, quiet=True)
        self.assertEqual(read_files([self.grouped]).format, "grouped")
        self.assertGreater(a.n_groups, 10)
        self.assertEqual((b.ids, b.labels, b.group_start), (a.ids, a.labels, a.group_start))

    def test_a_file_without_labels_or_gold_is_refused_with_what_to_do(self):
        with self.assertRaises(UnlabeledDataError):
            load_training_data(self.unlabeled, 32, workers=1, quiet=True)
        with self.assertRaises(SystemExit) as e:
            load_training_data_or_exit(self.unlabeled, 32, workers=1, quiet=True)
        self.assertIn(self.unlabeled, str(e.exception.code))
        self.assertIn("--picks", str(e.exception.code))

    def test_eorm_train_runs_on_grouped_lines_and_refuses_an_unlabeled_file(self):
        out = os.path.join(self.tmp, "run")
        done = run_module(["-m", "eorm.train", "--data", self.grouped_small, "--out", out, *TINY])
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(os.path.exists(os.path.join(out, "model.safetensors")))
        refused = run_module(["-m", "eorm.train", "--data", self.unlabeled, "--out", os.path.join(self.tmp, "none"), *TINY])
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("neither a label per candidate nor a gold answer", refused.stderr)
        self.assertNotIn("Traceback", refused.stderr)


if __name__ == "__main__":
    unittest.main()
