"""eorm.jsonparse: json.loads without a depth limit. Its iterative parser must accept and refuse exactly
what json.loads does (compared on seeded random texts shallow enough for json.loads), and read 100,000
levels of nesting."""
import os
import sys

# Runs as `python3 -m unittest discover -s python/tests` (repo root) or `-s tests -t .` (python/).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import json
import random
import unittest

from eorm import jsonparse

PIECES = ['{', '}', '[', ']', ',', ':', ' ', '\n', '"a"', '"b\\n"', '"\\u00e9"', '"\\ud800"', '"\\x"', '"\t"', '0', '-0', '12', '01', '1.5', '1.', '.5', '1e5', '1E+2', '-', '+1',
          'true', 'false', 'null', 'nul', 'NaN', 'Infinity', '-Infinity', '"', '\\', '1' * 30, 'x']


def valid(rng: random.Random, depth: int) -> str:
    k = rng.randrange(8 if depth > 0 else 5)
    if k == 0:
        return rng.choice(['"s"', '"\\"q\\""', '"\\u00e9\\ud83d\\ude00"', '""'])
    if k == 1:
        return rng.choice(["0", "-0", "12", "-3.25", "1e400", "2.5E-3", "123456789012345678901234567890"])
    if k == 2:
        return rng.choice(["true", "false", "null"])
    if k in (3, 4):
        return rng.choice(["NaN", "Infinity", "-Infinity", "[]", "{}"])
    ws = lambda: rng.choice(["", " ", "\n\t", "\r\n "])  # noqa: E731
    if k < 6:
        return "[" + ws() + ",".join(valid(rng, depth - 1) + ws() for _ in range(rng.randrange(4))) + "]"
    keys = [rng.choice(["a", "b", "a", "__proto__", ""]) for _ in range(rng.randrange(4))]
    return "{" + ws() + ",".join(f'{ws()}"{key}"{ws()}:{ws()}{valid(rng, depth - 1)}{ws()}' for key in keys) + "}"


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randrange(3)):
        at = rng.randrange(len(text) + 1)
        if rng.randrange(2):
            text = text[:at] + rng.choice(PIECES) + text[at:]
        else:
            text = text[:at] + text[at + 1 :]
    return text


def outcome(fn, text):
    try:
        return ("ok", repr(fn(text)))
    except ValueError:
        return ("error",)


def strict(name):
    raise ValueError(name)


class IterativeParser(unittest.TestCase):
    def test_same_values_and_same_refusals_as_json_loads(self):
        rng = random.Random(5)
        hooks = [{}, {"parse_int": float, "parse_float": float, "parse_constant": strict}]
        checked = {"ok": 0, "error": 0}
        for i in range(6000):
            text = valid(rng, 4)
            if i % 3:
                text = mutate(rng, text)
            kw = hooks[i % 2]
            const = kw.get("parse_constant")
            want = outcome(lambda t: json.loads(t, **kw), text)
            got = outcome(lambda t: jsonparse._iterative(t, kw.get("parse_int", int), kw.get("parse_float", float), const or (lambda n: float(n.replace("Infinity", "inf")))), text)
            self.assertEqual(got, want, repr(text))
            checked[want[0]] += 1
        self.assertGreater(min(checked.values()), 1000, checked)

    def test_hundred_thousand_levels(self):
        n = 100_000
        v = jsonparse.loads("[" * n + "1" + "]" * n)
        for _ in range(n):
            self.assertIsInstance(v, list)
            self.assertEqual(len(v), 1)
            v = v[0]
        self.assertEqual(v, 1)
        obj = jsonparse.loads('{"k":' * n + "null" + "}" * n)
        depth = 0
        while isinstance(obj, dict):
            obj, depth = obj["k"], depth + 1
        self.assertEqual((obj, depth), (None, n))
        for broken in ("[" * n + "]" * (n - 1), "[" * n + "1," + "]" * n, "[" * n + "]" * n + "x", '{"k":' * n + "}" * n):
            with self.assertRaises(ValueError):
                jsonparse.loads(broken)


if __name__ == "__main__":
    unittest.main()
