# SPDX-License-Identifier: MIT
"""Seconds per training step of airbench94 (reference/airbench/airbench_reference.py's recipe,
the package's code) on one device: the anchor a reimplementation of the recipe is held to.

  ~/.cache/devicebench/venv-torch2.11.0/bin/python reference/airbench/time_steps.py \\
      --data-dir /path/to/cifar-10-batches-bin --threads 2 --warmup 3 --steps 20

A step is one iteration of the package's loop at batch 1024: forward, label-smoothed loss,
backward, Nesterov SGD step, scheduler step, and the lookahead update every 5th step (its
cost is in the mean as in training: 1 step in 5). The pass's data preparation (normalise,
flip, reflect-pad, random crops of all 50,000 images: CifarLoader's per-epoch work, done when
the pass's first batch is asked for) and the whitening initialisation are timed apart and
printed, not in the step times. Also the process's CPU seconds per step (on a busy machine
CPU seconds / threads estimates the idle step time). Prints one JSON object on stdout. Runs
without DeviceBench.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# the devicebench module that airbench_reference imports (inactive here: no DeviceBench)
sys.path.append(os.path.join(HERE, "..", "..", "resources", "python"))
import airbench_reference as ref  # noqa: E402


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data-dir", default=ref.default_data_dir())
    p.add_argument("--cache-dir", default=ref.default_cache_dir())
    p.add_argument("--device", default="cpu")
    p.add_argument("--dtype", default="auto",
                   choices=["auto", "float16", "bfloat16", "float32"])
    p.add_argument("--threads", type=int, default=2, help="torch's threads (0: torch's default)")
    p.add_argument("--warmup", type=int, default=3, help="untimed steps first")
    p.add_argument("--steps", type=int, default=20, help="timed steps")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    if args.warmup + args.steps > 48:
        sys.exit("time_steps: --warmup + --steps must fit one pass (48 steps)")
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    dtype = ref.choose_dtype(args.device, args.dtype)
    sync = (lambda: torch.cuda.synchronize()) if args.device.startswith("cuda") else (lambda: None)

    cache_dir = ref.ensure_cached(args.data_dir, args.cache_dir)
    loader = ref.make_loader(cache_dir, True, args.device, dtype, 0)
    recipe = ref.Recipe(loader, args.device, dtype)
    load_before = os.getloadavg()

    began = time.perf_counter()
    recipe.init_whitening()
    sync()
    whitening = time.perf_counter() - began
    recipe.start_epoch(0)
    began = time.perf_counter()
    batches = iter(loader)
    inputs, labels = next(batches)  # the pass's data preparation happens here
    sync()
    preparation = time.perf_counter() - began

    times, cpu_times = [], []
    for i in range(args.warmup + args.steps):
        if i > 0:
            inputs, labels = next(batches)
        sync()
        began, cpu_began = time.perf_counter(), time.process_time()
        loss, _ = recipe.step(inputs, labels)
        sync()
        seconds = time.perf_counter() - began
        if i >= args.warmup:
            times.append(seconds)
            cpu_times.append(time.process_time() - cpu_began)
        print("step %d%s: %.3f s, loss %.4f" % (i + 1, " (warm-up)" if i < args.warmup else "",
                                                seconds, float(loss) / len(labels)),
              file=sys.stderr)
    load_after = os.getloadavg()
    print(json.dumps({
        "cpu": cpu_name(), "device": args.device, "dtype": str(dtype).replace("torch.", ""),
        "threads": torch.get_num_threads(), "torch": torch.__version__,
        "batch": loader.batch_size, "warmupSteps": args.warmup, "steps": len(times),
        "secondsPerStepMean": statistics.mean(times),
        "secondsPerStepMedian": statistics.median(times),
        "secondsPerStepMin": min(times),
        "secondsPerStepStdev": statistics.stdev(times) if len(times) > 1 else 0.0,
        "imagesPerSecond": loader.batch_size / statistics.mean(times),
        "stepSeconds": times,
        # the process's CPU seconds (all its threads) per step: on a busy machine, where the
        # wall times hold other work's time, CPU seconds / threads estimates an idle step
        "cpuSecondsPerStepMean": statistics.mean(cpu_times),
        "cpuSecondsPerStepOverThreads": statistics.mean(cpu_times) / torch.get_num_threads(),
        "passPreparationSeconds": preparation, "whiteningSeconds": whitening,
        "loadAverage1mBeforeAfter": [load_before[0], load_after[0]]}, indent=2))


if __name__ == "__main__":
    main()
