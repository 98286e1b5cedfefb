#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""N run records of one configuration, as a user repeating a run or importing colleagues'
records would have them: copies of one real record (default: docs/examples/charts/
cpu-1-thread-10-epochs.json, 10 epochs, ~100 KB with its step losses) with other run ids and
every epoch's seconds (and images/s, step times) scaled by one factor per record, drawn from
1.00-1.20 with a fixed seed. Test losses are unchanged: the control sees repeats that agree.

  bench/many_records.py --count N --out DIR [--from RECORD] [--seed S] [--threads 1,2,4]

--threads spreads the records over thread counts, record i getting the (i mod k)-th: each
count is another machine key, so another group of repeated runs (run_groups.h), and its epochs
take seconds / threads^0.8 (a made-up scaling, for pictures with several groups).

Writes DIR/record-00001.json ... (DIR is created; existing records there are overwritten) and
prints the paths, one a line. For `bench/compare_scale.py` and the dashboard's
`--import DIR/*.json` measurement (docs/PERFORMANCE.md)."""
import argparse
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_RECORD = os.path.join(HERE, "..", "docs", "examples", "charts",
                              "cpu-1-thread-10-epochs.json")


def make_records(count, out_dir, source=DEFAULT_RECORD, seed=1, threads=None):
    """Writes `count` records into `out_dir`; returns their paths in order. `threads`: a list
    of thread counts the records cycle through (None: the source's)."""
    with open(source, encoding="utf-8") as f:
        original = json.load(f)
    rng = random.Random(seed)
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for i in range(1, count + 1):
        record = json.loads(json.dumps(original))  # a deep copy
        factor = 1.0 + rng.uniform(0.0, 0.2)
        record["runId"] = "%s-repeat-%05d" % (original["runId"], i)
        if threads:
            count_i = threads[(i - 1) % len(threads)]
            record["config"]["threads"] = count_i
            record["started"]["threads"] = count_i
            factor /= count_i ** 0.8
        for epoch in record["epochs"]:
            epoch["seconds"] *= factor
            if "imagesPerSecond" in epoch:
                epoch["imagesPerSecond"] /= factor
            if "cpuSeconds" in epoch:
                epoch["cpuSeconds"] *= factor
        for step in record.get("steps", []):
            step["seconds"] *= factor
        path = os.path.join(out_dir, "record-%05d.json" % i)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1)
        paths.append(path)
    return paths


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, required=True, help="records to write (N >= 1)")
    parser.add_argument("--out", required=True, help="folder to write them to")
    parser.add_argument("--from", dest="source", default=DEFAULT_RECORD,
                        help="the record to copy (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the factors (default 1)")
    parser.add_argument("--threads", default="",
                        help="thread counts to cycle through, e.g. 1,2,4 (one group each)")
    args = parser.parse_args()
    if args.count < 1:
        parser.error("--count must be at least 1 (got %d)" % args.count)
    threads = [int(t) for t in args.threads.split(",") if t] or None
    for path in make_records(args.count, args.out, args.source, args.seed, threads):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
