"""Runs the test modules in one process per core, each taking the next module when it is done.

The tests are single-threaded (OMP_NUM_THREADS=1) and spend most of their time in subprocesses that
import torch, so one process leaves the other cores idle. Modules start in the order given (the slowest
first keeps the processes' ends close); each module's report is printed whole when it ends.
Usage: python -m tests.run_parallel [module ...]   (default: every tests/test_*.py, slowest first)
"""

import io
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor, as_completed
import os
import sys
import time
import unittest

# The slowest modules (torchrun, eorm.train and eorm.score runs), started first.
SLOW_FIRST = ["tests.test_distributed", "tests.test_score_split", "tests.test_selection", "tests.test_trained_map", "tests.test_data_files", "tests.test_picks"]


def all_modules():
    here = os.path.dirname(os.path.abspath(__file__))
    found = sorted(f"tests.{f[:-3]}" for f in os.listdir(here) if f.startswith("test_") and f.endswith(".py"))
    return [m for m in SLOW_FIRST if m in found] + [m for m in found if m not in SLOW_FIRST]


def run_module(name):
    stream = io.StringIO()
    start = time.perf_counter()
    result = unittest.TextTestRunner(stream=stream, verbosity=2).run(unittest.defaultTestLoader.loadTestsFromName(name))
    return name, stream.getvalue(), result.wasSuccessful(), result.testsRun, time.perf_counter() - start


def main(modules):
    start = time.perf_counter()
    failed, ran = [], 0
    # fork: this process has imported nothing heavy; each child imports torch once, with its first module.
    # A child that dies fails the run (BrokenProcessPool) instead of leaving it waiting.
    with ProcessPoolExecutor(min(len(modules), os.cpu_count() or 1), mp_context=mp.get_context("fork")) as pool:
        for done in as_completed([pool.submit(run_module, m) for m in modules]):
            name, report, ok, count, seconds = done.result()
            print(f"=== {name}: {count} tests, {seconds:.1f} s{'' if ok else ', FAILED'}\n{report}", flush=True)
            ran += count
            if not ok:
                failed.append(name)
    print(f"Ran {ran} tests of {len(modules)} modules in {time.perf_counter() - start:.1f} s: {'FAILED in ' + ', '.join(failed) if failed else 'OK'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or all_modules()))
