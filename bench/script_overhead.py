#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What DeviceBench's Python module costs an epoch (docs/PERFORMANCE.md, "The script module").

The article's CNN and loop (resources/python/examples/article_cnn.py's network and data) train
in this one process under the module, its channel played by a thread as DeviceBench plays it
(every turn given at once). The epochs come in pairs, in rotating order (A B, B A, A B, ...):
  module: every step calls run.step(loss) (the loss kept on the device, fetched every 50 steps),
          and run.test(...) at the end;
  plain:  the same loop with no module call but one run.step at the end (an epoch needs one).
Each epoch is timed here with one clock the same way (the device synchronised before each
read), around the loop only: the module's own clock reads, turns and event lines sit outside
it for both kinds. The first pair is warm-up. Prints a table of the medians and the module's
overhead as the median of the pairs' ratios (module / plain - 1): adjacent epochs share the
machine's state, which a busy shared machine changes from minute to minute; and the time spent
inside the module's calls (run.step, run.test) as a share of each module epoch: the module's
own work, read directly, below what the pairs can resolve on a noisy machine.

  python3 bench/script_overhead.py [--data-dir BIN_DIR] [--device cpu] [--threads 1]
      [--pairs 11] [--train-images 2000] [--test-images 500]
"""
import argparse
import json
import os
import socket
import statistics
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(HERE, "..", "resources", "python")
REAL_DATA = "/work/shared/datasets/cifar-10-batches-bin"


def play_devicebench(sock):
    """DeviceBench's side of the channel: a turn at once for every one asked."""
    sock.sendall(b"take\n")
    pending = b""
    while True:
        data = sock.recv(65536)
        if not data:
            return
        pending += data
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            if json.loads(line)["event"] == "pass":
                sock.sendall(b"take\n")


def connect(args):
    """The module, run by this process's own DeviceBench thread."""
    ours, theirs = socket.socketpair()
    os.environ.update(DEVICEBENCH_CHANNEL_FD=str(theirs.fileno()), DEVICEBENCH_RUN=json.dumps(
        {"device": args.device, "threads": args.threads, "epochs": 2 * args.pairs,
         "warmupEpochs": 2, "seed": 0, "lossFetchInterval": 50}))
    threading.Thread(target=play_devicebench, args=(ours,), daemon=True).start()
    connect.sockets = (ours, theirs)  # kept open for the run
    sys.path[:0] = [PYTHON_DIR, os.path.join(PYTHON_DIR, "examples")]
    import devicebench
    return devicebench.run(model="article-cnn", batch_size=64)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", default=REAL_DATA)
    p.add_argument("--device", default="cpu")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--pairs", type=int, default=11)
    p.add_argument("--train-images", type=int, default=2000)
    p.add_argument("--test-images", type=int, default=500)
    args = p.parse_args()
    run = connect(args)
    import torch
    from article_cnn import TX
    from cifar10_binary import batches, read_cifar10
    train_x, train_y, test_x, test_y = read_cifar10(args.data_dir, args.train_images,
                                                    args.test_images)
    device = torch.device(run.device)
    tx = TX().to(device)
    loss_function = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(tx.parameters(), lr=0.01)
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    times = {"module": [], "plain": []}
    inside = []  # per module epoch: seconds spent inside run.step and run.test
    for epoch in run.epochs(2 * args.pairs):
        pair, second = divmod(epoch - 1, 2)
        kind = ("module", "plain")[(second + pair) % 2]  # A B, B A, A B, ...
        with_module = kind == "module"
        sync()
        began = time.perf_counter()
        in_module = 0.0
        for imgs, targets in batches(train_x, train_y, 64):
            imgs, targets = imgs.to(device), targets.to(device)
            loss = loss_function(tx(imgs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if with_module:
                called = time.perf_counter()
                run.step(loss)
                in_module += time.perf_counter() - called
        with torch.no_grad():
            loss_images, correct = 0, 0
            for img, target in batches(test_x, test_y, 64):
                img, target = img.to(device), target.to(device)
                outputs = tx(img)
                loss_images = loss_images + loss_function(outputs, target) * target.shape[0]
                correct = correct + (outputs.argmax(1) == target).sum()
        if with_module:
            called = time.perf_counter()
            run.test(loss=loss_images / len(test_y), accuracy=correct / len(test_y))
            in_module += time.perf_counter() - called
        sync()
        seconds = time.perf_counter() - began
        if not with_module:
            run.step(loss)  # outside the clock: an epoch needs one step
        if pair > 0:
            times[kind].append(seconds)
            if with_module:
                inside.append(in_module / seconds)
    ratios = [m / q - 1.0 for m, q in zip(times["module"], times["plain"])]
    steps = -(-len(train_y) // 64)
    print("script module overhead: article CNN, %s, %d thread(s), %d+%d images (%d steps), "
          "%d pairs after 1 warm-up pair" % (args.device, args.threads, len(train_y),
                                             len(test_y), steps, len(ratios)))
    print("%-8s %10s %10s %10s" % ("kind", "median s", "min s", "max s"))
    for kind in ("plain", "module"):
        t = times[kind]
        print("%-8s %10.4f %10.4f %10.4f" % (kind, statistics.median(t), min(t), max(t)))
    print("overhead: median of the pairs %+.2f %% (pairs from %+.2f %% to %+.2f %%); of the "
          "medians %+.2f %%" % (100 * statistics.median(ratios), 100 * min(ratios),
                               100 * max(ratios), 100 * (statistics.median(times["module"]) /
                                                         statistics.median(times["plain"]) - 1)))
    # The module's own work, read directly: the time inside its calls, which the machine's
    # noise between epochs does not blur (on a GPU the loss fetch every 50 steps waits for the
    # device there, so it counts too).
    print("inside the module's calls: median %.3f %% of a module epoch (from %.3f %% to %.3f %%)"
          % (100 * statistics.median(inside), 100 * min(inside), 100 * max(inside)))
    sys.stdout.flush()
    os._exit(0)  # the module's exit line is not wanted: nobody records this run


if __name__ == "__main__":
    main()
