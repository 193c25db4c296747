"""The format readers (eorm.formats) against tests/golden/formats, which the app's
src/engine/data/formats/readFiles.golden.test.ts reads too: both sides give every case the same groups,
candidates, labels, sources, errors (file, line, field, kind) and mapping sentence."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from eorm.formats import read_files
from eorm.formats.sniff import NotJsonTextError
from eorm.formats.jsonl import NoValidLinesError

from tests.util import HERE

DIR = os.path.join(HERE, "golden", "formats")


def _report(r):
    return {
        "linesRead": r.lines_read,
        "accepted": r.accepted,
        "rejected": r.rejected,
        "blank": r.blank,
        "errors": [[e.file, e.line, e.field, e.kind] for e in r.errors],
    }


def normalize(d):
    return {
        "format": d.format,
        "labelsFrom": d.labels_from,
        "files": d.files,
        "candidateCount": d.candidate_count,
        "report": _report(d.report),
        "mapping": d.mapping,
        "groups": [
            {
                "questionId": g.question_id,
                "question": g.question,
                "candidates": [
                    {
                        "file": c.file,
                        "line": c.line,
                        "genText": c.gen_text,
                        "gold": c.gold,
                        "source": c.source,
                        "answerKey": c.answer_key,
                        "label": c.label,
                        "labelFromGold": c.label_from_gold,
                        "reasoning": c.reasoning,
                    }
                    for c in g.candidates
                ],
            }
            for g in d.groups
        ],
    }


def run(files, max_line_bytes=None):
    limit = {} if max_line_bytes is None else {"max_line_bytes": max_line_bytes}
    try:
        return normalize(read_files([os.path.join(DIR, f) for f in files], **limit))
    except NotJsonTextError as e:
        return {"notJsonText": str(e)}
    except NoValidLinesError as e:
        return {"noValidLines": True, "message": str(e), "report": _report(e.report)}


class GoldenFormats(unittest.TestCase):
    def test_every_case_as_the_app_reads_it(self):
        with open(os.path.join(DIR, "cases.json"), encoding="utf-8") as f:
            cases = json.load(f)
        for case in cases:
            with self.subTest(case["name"]):
                with open(os.path.join(DIR, "expected", case["name"] + ".json"), encoding="utf-8") as f:
                    want = json.load(f)
                self.assertEqual(run(case["files"], case.get("maxLineBytes")), want)


if __name__ == "__main__":
    unittest.main()
