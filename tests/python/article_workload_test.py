# SPDX-License-Identifier: MIT
"""Tests of resources/python/article_workload.py, the article's script as a child workload.

Each test runs the program as DeviceBench does, in a child process, with the interpreter named
by DEVICEBENCH_TEST_PYTHON (default /usr/bin/python3), on a small synthetic data set in the
official binary layout (200 training and 100 test records, deterministic bytes), 1 thread.
When that interpreter cannot import torch and torchvision every test is skipped.

run from the repository root: /usr/bin/python3 -m unittest tests/python/article_workload_test.py -v
"""
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "..", "..", "resources", "python", "article_workload.py")
PYTHON = os.environ.get("DEVICEBENCH_TEST_PYTHON", "/usr/bin/python3")
TRAIN_PER_FILE = 40  # 5 files: 200 training images
TEST_RECORDS = 100
BATCH = 2  # 100 steps per epoch: one step loss per epoch at the script's 100-step interval
SET_UP_SECONDS = 120  # at most, for importing torch on a busy machine


def interpreter_problem():
    """"" when PYTHON imports torch and torchvision, else why not."""
    try:
        done = subprocess.run([PYTHON, "-c", "import torch, torchvision"], capture_output=True,
                              text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        return "%s cannot be run: %s" % (PYTHON, error)
    if done.returncode != 0:
        return "%s cannot import torch and torchvision: %s" % (
            PYTHON, done.stderr.strip().splitlines()[-1:] or "")
    return ""


PROBLEM = interpreter_problem()
if PROBLEM:  # one line ctest recognises as "skipped" (tests/python/CMakeLists.txt)
    sys.stderr.write("article_workload tests skipped: %s\n" % PROBLEM)


def write_binary_cifar(folder, train_per_file=TRAIN_PER_FILE, test_records=TEST_RECORDS):
    """The official binary layout: records of 1 label byte and 3,072 image bytes."""
    os.makedirs(folder, exist_ok=True)
    names = [("data_batch_%d.bin" % i, train_per_file, i) for i in range(1, 6)]
    names.append(("test_batch.bin", test_records, 6))
    for name, count, salt in names:
        out = bytearray()
        for r in range(count):
            out.append((r * 7 + salt) % 10)
            out.extend(bytes((r * 31 + j * 17 + salt * 5) % 256 for j in range(3072)))
        with open(os.path.join(folder, name), "wb") as f:
            f.write(out)


def parse_events(stdout):
    return [json.loads(line) for line in stdout.splitlines()]


class TurnChild:
    """The program run with --turns, driven as DeviceBench's parent does: "take" lines on its
    stdin, its event lines read by a thread into a queue (None at the end of its stdout), so
    that a test can wait for a line with a timeout or check that none comes."""

    def __init__(self, args):
        self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)

    def send(self, text):
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def take(self):
        """Hands the child a turn; returns the turn's lines, up to "pass" or "ended"."""
        self.send("take")
        return self.turn_lines()

    def turn_lines(self, timeout=SET_UP_SECONDS):
        lines = []
        while not lines or lines[-1]["event"] not in ("pass", "ended"):
            line = self.lines.get(timeout=timeout)
            if line is None:
                break
            lines.append(line)
        return lines

    def quiet_for(self, seconds):
        """True when the child writes no line for `seconds`."""
        try:
            self.lines.get(timeout=seconds)
            return False
        except queue.Empty:
            return True

    def close(self):
        """Closes stdin (a stop for a waiting child), waits for the child (killed after 30 s)
        and for the reader to see the end of stdout, then closes stdout."""
        try:
            self.process.stdin.close()
        except OSError:  # a child already gone: the pipe is broken
            pass
        try:
            self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        self.reader.join(timeout=30)
        self.process.stdout.close()


@unittest.skipIf(PROBLEM, PROBLEM)
class ArticleWorkloadTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="article-workload-test-")
        cls.bin_dir = os.path.join(cls.root, "bin")
        write_binary_cifar(cls.bin_dir)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root, ignore_errors=True)

    def cache_dir(self, name):
        return os.path.join(self.root, "cache-" + name)

    def command(self, cache, seed=0, epochs=2, extra=()):
        return [PYTHON, PROGRAM, "--data-dir", self.bin_dir, "--cache-dir", cache,
                "--device", "cpu", "--threads", "1", "--epochs", str(epochs),
                "--batch-size", str(BATCH), "--lr", "0.01", "--seed", str(seed),
                "--warmup-epochs", "1"] + list(extra)

    def run_program(self, args, env=None):
        done = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)
        return done, parse_events(done.stdout)

    def run_training(self, cache_name="shared", **kw):
        done, events = self.run_program(self.command(self.cache_dir(cache_name), **kw))
        self.assertEqual(events[-1]["status"], "finished", done.stderr)
        return events

    def step_losses(self, events):
        return [s["loss"] for e in events if e["event"] == "steps" for s in e["steps"]]

    # --- the event lines

    def test_events_come_in_order_and_parse(self):
        events = self.run_training()
        kinds = [e["event"] for e in events]
        self.assertEqual(kinds[0], "started")
        self.assertEqual(kinds[-1], "ended")
        self.assertEqual(kinds, ["started", "steps", "epoch", "steps", "epoch", "ended"])
        started = events[0]["started"]
        self.assertEqual(started["device"], "cpu")
        self.assertEqual(started["deviceName"], "CPU")
        self.assertEqual(started["threads"], 1)
        self.assertEqual(started["trainImages"], 200)
        self.assertEqual(started["testImages"], 100)
        self.assertEqual(started["stepsPerEpoch"], 100)
        self.assertEqual(started["modelParameters"], 145578)
        self.assertFalse(started["synthetic"])
        self.assertIn(self.bin_dir, started["dataDescription"])
        program = events[0]["program"]
        self.assertEqual(program["pythonExecutable"], PYTHON)
        if not program["tensorboard"]:
            self.assertIn("tensorboard", program["programNote"])
        for e in events:
            if e["event"] == "epoch":
                epoch = e["epoch"]
                self.assertGreater(epoch["seconds"], 0)
                self.assertGreaterEqual(epoch["testAccuracy"], 0)
                self.assertLessEqual(epoch["testAccuracy"], 1)
                self.assertAlmostEqual(epoch["imagesPerSecond"], 300 / epoch["seconds"])
                self.assertGreater(epoch["startedUnixSeconds"], 1.6e9)

    def test_step_losses_come_at_the_scripts_100_step_interval(self):
        events = self.run_training(extra=["--train-images", "150"])  # 75 steps an epoch
        steps = [s for e in events if e["event"] == "steps" for s in e["steps"]]
        self.assertEqual([(s["epoch"], s["step"]) for s in steps], [(2, 100)])
        self.assertEqual(events[0]["started"]["stepsPerEpoch"], 75)

    def test_epoch_count_and_warm_up_flags(self):
        events = self.run_training(epochs=3)
        epochs = [e["epoch"] for e in events if e["event"] == "epoch"]
        self.assertEqual([e["epoch"] for e in epochs], [1, 2, 3])
        self.assertEqual([e["warmup"] for e in epochs], [True, False, False])

    def test_the_same_seed_gives_the_same_losses_and_another_seed_others(self):
        first = self.run_training(seed=3)
        again = self.run_training(seed=3)
        other = self.run_training(seed=4)
        self.assertEqual(self.step_losses(first), self.step_losses(again))
        test_losses = [[e["epoch"]["testLoss"] for e in run if e["event"] == "epoch"]
                       for run in (first, again, other)]
        self.assertEqual(test_losses[0], test_losses[1])
        self.assertNotEqual(self.step_losses(first), self.step_losses(other))
        self.assertNotEqual(test_losses[0], test_losses[2])

    def test_subset_options_train_and_test_on_the_first_images(self):
        events = self.run_training(extra=["--train-images", "10", "--test-images", "6"])
        started = events[0]["started"]
        self.assertEqual((started["trainImages"], started["testImages"]), (10, 6))
        self.assertEqual(started["stepsPerEpoch"], 5)

    # --- stopping

    def start_child(self, epochs):
        args = self.command(self.cache_dir("shared"), epochs=epochs)
        return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True)

    def stop_and_read(self, child):
        """SIGTERM, then the event lines up to "ended": (lines, seconds until "ended")."""
        sent = time.monotonic()
        child.send_signal(signal.SIGTERM)
        lines = []
        for line in child.stdout:
            lines.append(json.loads(line))
            if lines[-1]["event"] == "ended":
                break
        return lines, time.monotonic() - sent

    def finish(self, child):
        child.stdout.close()
        try:
            child.wait(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()

    def test_sigterm_mid_run_ends_cancelled_within_a_second(self):
        child = self.start_child(epochs=1000)
        try:
            lines = []
            for line in child.stdout:
                lines.append(json.loads(line))
                if lines[-1]["event"] == "epoch" and lines[-1]["epoch"]["epoch"] == 2:
                    break
            rest, waited = self.stop_and_read(child)
        finally:
            self.finish(child)
        lines += rest
        self.assertLess(waited, 1.0)
        self.assertEqual(child.returncode, 0)
        self.assertEqual(lines[-1]["event"], "ended")
        self.assertEqual(lines[-1]["status"], "cancelled")
        self.assertIn("SIGTERM", lines[-1]["reason"])
        finished = [e["epoch"]["epoch"] for e in lines if e["event"] == "epoch"]
        self.assertEqual(finished[:2], [1, 2])

    def test_sigterm_before_training_ends_cancelled(self):
        child = self.start_child(epochs=2)
        try:
            time.sleep(0.5)  # the signal handlers are installed; torch is being imported
            lines, waited = self.stop_and_read(child)
        finally:
            self.finish(child)
        # Python runs the handler once the C extension being imported returns: on a busy
        # machine that can take over a second. DeviceBench bounds the stop itself (SIGKILL a
        # second after SIGTERM: engine ChildRun and ArticleScript tests).
        self.assertLess(waited, 2.5)
        self.assertEqual(lines[-1]["event"], "ended")
        self.assertEqual(lines[-1]["status"], "cancelled")
        self.assertEqual([e for e in lines if e["event"] == "epoch"], [])

    def test_a_non_finite_loss_ends_diverged_naming_the_step(self):
        done, events = self.run_program(self.command(self.cache_dir("shared"), epochs=2)
                                        + ["--lr", "1e30"])
        self.assertEqual(events[-1]["status"], "diverged", done.stderr)
        self.assertIn("step", events[-1]["reason"])

    # --- turns (--turns): interleaved runs

    def turn_child(self, epochs=2):
        args = self.command(self.cache_dir("shared"), epochs=epochs,
                            extra=["--train-images", "10", "--test-images", "6", "--turns"])
        child = TurnChild(args)
        self.addCleanup(child.close)
        return child

    def kinds(self, lines):
        return [e["event"] for e in lines]

    def test_turns_nothing_happens_before_the_first_take_and_other_lines_are_ignored(self):
        child = self.turn_child()
        self.assertTrue(child.quiet_for(1.0))
        child.send("hello")
        self.assertTrue(child.quiet_for(0.5))
        self.assertEqual(self.kinds(child.take()), ["started", "pass"])

    def test_turns_one_turn_per_take_the_last_ended_by_the_ended_line(self):
        child = self.turn_child(epochs=3)
        self.assertEqual(self.kinds(child.take()), ["started", "pass"])
        self.assertEqual(self.kinds(child.take()), ["epoch", "pass"])
        self.assertTrue(child.quiet_for(0.3))  # the turn is over: no epoch 2 without a take
        self.assertEqual(self.kinds(child.take()), ["epoch", "pass"])
        last = child.take()
        self.assertEqual(self.kinds(last), ["epoch", "ended"])
        self.assertEqual(last[0]["epoch"]["epoch"], 3)
        self.assertEqual(last[-1]["status"], "finished")
        self.assertIsNone(child.lines.get(timeout=30))  # nothing after "ended"
        child.process.wait(timeout=30)
        self.assertEqual(child.process.returncode, 0)

    def test_turns_the_wait_between_takes_is_outside_every_epochs_seconds(self):
        child = self.turn_child(epochs=2)
        child.take()
        epochs = []
        for _ in range(2):
            self.assertTrue(child.quiet_for(1.5))
            took = time.time()
            epochs.append(child.take()[0]["epoch"])
            self.assertGreaterEqual(epochs[-1]["startedUnixSeconds"], took - 0.05)
        for epoch in epochs:  # 5 steps and 3 test batches: far below the 1.5 s waits
            self.assertLess(epoch["seconds"], 1.0)

    def test_turns_stdin_closed_before_the_set_up_ends_cancelled_at_once(self):
        child = self.turn_child()
        began = time.monotonic()
        child.process.stdin.close()
        lines = child.turn_lines(timeout=30)
        self.assertEqual(self.kinds(lines), ["ended"])  # no set-up first
        self.assertEqual(lines[-1]["status"], "cancelled")
        self.assertIn("stdin", lines[-1]["reason"])
        self.assertLess(time.monotonic() - began, 5.0)  # far below importing torch

    def test_turns_stdin_closed_between_epochs_ends_cancelled_naming_stdin(self):
        child = self.turn_child(epochs=3)
        child.take()
        self.assertEqual(self.kinds(child.take()), ["epoch", "pass"])
        child.process.stdin.close()
        lines = child.turn_lines(timeout=30)
        self.assertEqual(self.kinds(lines), ["ended"])
        self.assertEqual(lines[-1]["status"], "cancelled")
        self.assertIn("stdin", lines[-1]["reason"])
        self.assertIn("epoch 2", lines[-1]["reason"])
        child.process.wait(timeout=30)
        self.assertEqual(child.process.returncode, 0)

    def sigterm_while_waiting(self, child):
        """SIGTERM to a child waiting for its turn: (its lines, seconds until "ended")."""
        sent = time.monotonic()
        child.process.send_signal(signal.SIGTERM)
        lines = child.turn_lines(timeout=30)
        return lines, time.monotonic() - sent

    def test_turns_sigterm_while_waiting_ends_cancelled_within_a_second(self):
        before_set_up = self.turn_child()
        time.sleep(0.5)  # the signal handlers are installed
        lines, waited = self.sigterm_while_waiting(before_set_up)
        self.assertLess(waited, 1.0)
        self.assertEqual(self.kinds(lines), ["ended"])
        self.assertEqual(lines[-1]["status"], "cancelled")
        between_epochs = self.turn_child()
        between_epochs.take()
        lines, waited = self.sigterm_while_waiting(between_epochs)
        self.assertLess(waited, 1.0)
        self.assertEqual(self.kinds(lines), ["ended"])
        self.assertEqual(lines[-1]["status"], "cancelled")
        self.assertIn("SIGTERM", lines[-1]["reason"])
        self.assertIn("epoch 1", lines[-1]["reason"])

    # --- the cache

    def test_the_cache_is_made_once_and_reused(self):
        cache = self.cache_dir("reuse")
        self.run_training(cache_name="reuse", epochs=1)
        folder = os.path.join(cache, "cifar-10-batches-py")
        before = {n: os.stat(os.path.join(folder, n)).st_mtime_ns for n in os.listdir(folder)}
        inode = os.stat(folder).st_ino
        self.run_training(cache_name="reuse", epochs=1)
        after = {n: os.stat(os.path.join(folder, n)).st_mtime_ns for n in os.listdir(folder)}
        self.assertEqual(before, after)
        self.assertEqual(os.stat(folder).st_ino, inode)
        self.assertEqual(sorted(os.listdir(cache)), ["cifar-10-batches-py"])  # no leftovers

    def test_a_build_killed_halfway_is_removed_by_the_next_build_and_a_running_one_kept(self):
        cache = self.cache_dir("abandoned")
        os.makedirs(cache, exist_ok=True)
        gone = subprocess.Popen(["true"])
        gone.wait()  # a pid that has exited
        abandoned = os.path.join(cache, ".building-%d-x1" % gone.pid)
        running = os.path.join(cache, ".building-%d-x2" % os.getpid())
        for folder in (abandoned, running):
            os.makedirs(os.path.join(folder, "cifar-10-batches-py"))
        self.run_training(cache_name="abandoned", epochs=1)
        self.assertFalse(os.path.exists(abandoned))
        self.assertTrue(os.path.exists(running))

    def test_a_corrupted_cache_file_is_rebuilt(self):
        cache = self.cache_dir("corrupt")
        first = self.run_training(cache_name="corrupt", epochs=1)
        batch = os.path.join(cache, "cifar-10-batches-py", "data_batch_1")
        size = os.path.getsize(batch)
        with open(batch, "r+b") as f:  # same size, other bytes
            f.seek(size // 2)
            f.write(b"\x00" * 64)
        second = self.run_training(cache_name="corrupt", epochs=1)
        with open(batch, "r+b") as f:
            f.truncate(size // 3)
        third = self.run_training(cache_name="corrupt", epochs=1)
        self.assertEqual(os.path.getsize(batch), size)
        self.assertEqual(self.step_losses(first), self.step_losses(second))
        self.assertEqual(self.step_losses(first), self.step_losses(third))

    # --- failures

    def test_a_bad_data_folder_ends_failed_naming_the_folder(self):
        missing = os.path.join(self.root, "no-such-folder")
        args = self.command(self.cache_dir("bad"))
        args[args.index("--data-dir") + 1] = missing
        done, events = self.run_program(args)
        self.assertEqual([e["event"] for e in events], ["ended"])
        self.assertEqual(events[-1]["status"], "failed")
        self.assertIn(missing, events[-1]["reason"])
        self.assertNotEqual(done.returncode, 0)

    def test_a_truncated_binary_file_ends_failed_naming_the_file(self):
        broken = os.path.join(self.root, "broken-bin")
        write_binary_cifar(broken, train_per_file=2, test_records=2)
        with open(os.path.join(broken, "test_batch.bin"), "ab") as f:
            f.write(b"\x01\x02")
        args = self.command(self.cache_dir("broken"))
        args[args.index("--data-dir") + 1] = broken
        done, events = self.run_program(args)
        self.assertEqual(events[-1]["status"], "failed")
        self.assertIn("test_batch.bin", events[-1]["reason"])

    def fake_missing_torchvision(self):
        shadow = os.path.join(self.root, "shadow")
        os.makedirs(os.path.join(shadow, "torchvision"), exist_ok=True)
        with open(os.path.join(shadow, "torchvision", "__init__.py"), "w") as f:
            f.write('raise ImportError("No module named torchvision (simulated)")\n')
        env = dict(os.environ)
        env["PYTHONPATH"] = shadow + os.pathsep + env.get("PYTHONPATH", "")
        return env

    def test_check_reports_versions(self):
        done = subprocess.run([PYTHON, PROGRAM, "--check"], capture_output=True, text=True,
                              timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        report = json.loads(done.stdout)
        self.assertEqual(len(done.stdout.splitlines()), 1)
        self.assertTrue(report["torch"])
        self.assertTrue(report["torchvision"])
        self.assertEqual(report["pythonExecutable"], PYTHON)
        self.assertRegex(report["python"], r"^3\.\d+\.\d+")
        self.assertEqual(report["missing"], [])
        self.assertEqual(report["problem"], "")
        self.assertIsInstance(report["cudaAvailable"], bool)

    def test_check_asked_for_cuda_names_a_torch_without_cuda(self):
        done = subprocess.run([PYTHON, PROGRAM, "--check", "--device", "cuda"],
                              capture_output=True, text=True, timeout=120)
        report = json.loads(done.stdout)
        if report["cudaAvailable"]:
            self.skipTest("this torch has a working CUDA device")
        self.assertEqual(done.returncode, 3)
        self.assertIn(report["torch"], report["problem"])
        self.assertIn("CUDA", report["problem"])

    def test_a_missing_torchvision_is_reported_by_check_and_fails_the_run(self):
        env = self.fake_missing_torchvision()
        done = subprocess.run([PYTHON, PROGRAM, "--check"], capture_output=True, text=True,
                              timeout=120, env=env)
        report = json.loads(done.stdout)
        self.assertEqual(done.returncode, 3)
        self.assertEqual(report["missing"], ["torchvision"])
        self.assertIsNone(report["torchvision"])
        self.assertIn("torchvision", report["problem"])
        self.assertIn("install", report["problem"])
        done, events = self.run_program(self.command(self.cache_dir("shared")), env=env)
        self.assertEqual([e["event"] for e in events], ["ended"])
        self.assertEqual(events[-1]["status"], "failed")
        self.assertIn("torchvision", events[-1]["reason"])

    def test_a_bad_command_line_ends_failed(self):
        done, events = self.run_program([PYTHON, PROGRAM, "--data-dir", self.bin_dir])
        self.assertEqual(events[-1]["status"], "failed")
        self.assertIn("--cache-dir", events[-1]["reason"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
