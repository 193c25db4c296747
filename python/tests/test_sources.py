"""The per-source audit: the same rows as the app (tests/golden/sources.json, written by
src/engine/metrics/sources.golden.test.ts), and `eorm.score` printing them in its final object."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import math
import shutil
import tempfile
import unittest

from eorm.metrics.sources import FLAG_MIN_PICKS, source_audit, source_index

from tests.util import HERE, SAMPLE, dec, run_module, untrained_model_file

with open(os.path.join(HERE, "golden", "sources.json"), encoding="utf-8") as f:
    G = json.load(f)



def same(a, b) -> bool:
    """Exact equality (the same operations in the same order give the same doubles), NaN equal to NaN."""
    if isinstance(b, float) and math.isnan(b):
        return isinstance(a, float) and math.isnan(a)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


def groups_of(case):
    return [(g["energies"], g["labels"], g["sources"]) for g in case["groups"]]


class Golden(unittest.TestCase):
    def test_rows_equal_the_apps(self):
        self.assertEqual([c["name"] for c in G["cases"]], ["shortcut", "labels", "edges"])
        for case in G["cases"]:
            case = dec(case)
            got = source_audit(groups_of(case), case["names"])
            want = case["rows"]
            self.assertEqual([r["source"] for r in got], [r["source"] for r in want], case["name"])
            for g, w in zip(got, want):
                self.assertEqual(sorted(g), sorted(w), case["name"])
                for k in w:
                    self.assertTrue(same(g[k], w[k]), f"{case['name']} {w['source']} {k}: {g[k]!r} != {w[k]!r}")

    def test_the_shortcut_case_flags_its_favoured_source(self):
        case = dec(G["cases"][0])
        flagged = [r["source"] for r in source_audit(groups_of(case), case["names"]) if r["flagged"]]
        self.assertEqual(flagged, [case["names"][0]])


class Rules(unittest.TestCase):
    def test_source_index_by_first_appearance(self):
        self.assertEqual(source_index(["b", None, "a", "b"]), (["b", "a"], [0, -1, 1, 0]))

    def test_flag_needs_enough_picks(self):
        # Source 0 always wrong and always preferred.
        groups = lambda n: [([0.0, 1.0], [0, 1], [0, 1]) for _ in range(n)]
        self.assertTrue(source_audit(groups(FLAG_MIN_PICKS), ["a", "b"])[0]["flagged"])
        self.assertFalse(source_audit(groups(FLAG_MIN_PICKS - 1), ["a", "b"])[0]["flagged"])

    def test_malformed(self):
        with self.assertRaises(ValueError):
            source_audit([([1.0], [1], [0, 0])], ["a"])


class ScoreCommand(unittest.TestCase):
    def test_final_object_has_the_rows_of_its_energies(self):
        tmp = tempfile.mkdtemp(prefix="eorm-sources-")
        try:
            with open(SAMPLE, encoding="utf-8") as f:
                lines = f.readlines()[:40]
            # One line without a source: it belongs to no row.
            extra = json.loads(lines[0])
            extra.pop("source")
            extra["gen_text"] += " (again)"
            lines.append(json.dumps(extra) + "\n")
            data = os.path.join(tmp, "data.jsonl")
            with open(data, "w", encoding="utf-8") as f:
                f.writelines(lines)
            weights = untrained_model_file(tmp)
            p = run_module(["-m", "eorm.score", "--weights", weights, "--data", data, "--curve-subsets", "0"])
            self.assertEqual(p.returncode, 0, p.stderr)
            out = [json.loads(l) for l in p.stdout.strip().split("\n")]
            rows, last = out[:-1], out[-1]
            source_of = {n + 1: json.loads(l).get("source") for n, l in enumerate(lines)}
            names, _ = source_index([source_of[r["line"]] for r in sorted(rows, key=lambda r: (r["group"], r["index"]))])
            by_group = {}
            for r in sorted(rows, key=lambda r: (r["group"], r["index"])):
                e, lab, src = by_group.setdefault(r["group"], ([], [], []))
                e.append(r["energy"])
                lab.append(r["label"])
                src.append(names.index(source_of[r["line"]]) if source_of[r["line"]] is not None else -1)
            want = source_audit([by_group[g] for g in sorted(by_group)], names)
            want = [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()} for row in want]
            self.assertEqual(last["sources"], want)
            self.assertEqual(len(last["sources"]), 4)
            self.assertEqual(sum(r["candidates"] for r in last["sources"]), 40)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
