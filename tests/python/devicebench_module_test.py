# SPDX-License-Identifier: MIT
"""Tests of resources/python/devicebench, the module a user's own training script imports.

Each test runs a small script in a child process with the interpreter named by
DEVICEBENCH_TEST_PYTHON (default /usr/bin/python3), the module on its PYTHONPATH, and plays
DeviceBench's side of the channel (docs/child-runs.md) on a socket pair: it gives every turn
at once and collects the event lines. When that interpreter cannot import torch every test is
skipped.

run from the repository root: /usr/bin/python3 -m unittest tests/python/devicebench_module_test.py
"""
import hashlib
import json
import os
import select
import signal
import socket
import subprocess
import tempfile
import textwrap
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE_DIR = os.path.join(HERE, "..", "..", "resources", "python")
PYTHON = os.environ.get("DEVICEBENCH_TEST_PYTHON", "/usr/bin/python3")
LIMIT_SECONDS = 120  # for one script, torch's import on a busy machine included


def interpreter_problem():
    try:
        done = subprocess.run([PYTHON, "-c", "import torch"], capture_output=True, text=True,
                              timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        return "%s cannot be run: %s" % (PYTHON, error)
    if done.returncode != 0:
        return "%s cannot import torch" % PYTHON
    return ""


PROBLEM = interpreter_problem()
if PROBLEM:  # one line ctest recognises as "skipped" (tests/python/CMakeLists.txt)
    print("devicebench module tests skipped: %s" % PROBLEM)

HEADER = "import devicebench, math, os, sys, time, torch\n"

# Three epochs of four steps whose losses are known: step s of the run has loss 1/s.
STEADY = HEADER + textwrap.dedent("""
    run = devicebench.run(model=torch.nn.Linear(3, 2), batch_size=8)
    step = 0
    for epoch in run.epochs(5):
        for _ in range(4):
            step += 1
            run.step(torch.tensor(1.0 / step))
        run.test(loss=torch.tensor(0.5), accuracy=torch.tensor(0.25))
    """)


class Child:
    """One script run as DeviceBench runs it; `events` are the lines it sent."""

    def __init__(self, body, settings=None, stop_after_epochs=None, files=None):
        self.folder = tempfile.mkdtemp(prefix="devicebench-module-test-")
        for name, text in (files or {}).items():  # the script's own modules, beside it
            os.makedirs(os.path.dirname(os.path.join(self.folder, name)), exist_ok=True)
            with open(os.path.join(self.folder, name), "w") as f:
                f.write(text)
        self.script = os.path.join(self.folder, "train.py")
        with open(self.script, "w") as f:
            f.write(body)
        ours, theirs = socket.socketpair()
        env = dict(os.environ, PYTHONPATH=MODULE_DIR, DEVICEBENCH_CHANNEL_FD=str(theirs.fileno()),
                   DEVICEBENCH_RUN=json.dumps(settings or {"device": "cpu", "threads": 1,
                                                           "epochs": 3, "warmupEpochs": 1,
                                                           "seed": 0,
                                                           "lossFetchInterval": 3}))
        began = time.monotonic()
        self.process = subprocess.Popen([PYTHON, self.script], env=env, pass_fds=[theirs.fileno()],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        theirs.close()
        self.events = self._talk(ours, stop_after_epochs)
        self.output = self.process.communicate(timeout=LIMIT_SECONDS)[0].decode(errors="replace")
        self.seconds = time.monotonic() - began
        ours.close()

    def _talk(self, sock, stop_after_epochs):
        events, pending = [], b""
        sock.sendall(b"take\n")
        deadline = time.monotonic() + LIMIT_SECONDS
        while time.monotonic() < deadline:
            ready, _, _ = select.select([sock], [], [], 0.5)
            if not ready:
                continue
            try:
                data = sock.recv(65536)
            except ConnectionResetError:  # it exited with a "take" unread
                data = b""
            if not data:
                break
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                event = json.loads(line)
                events.append(event)
                epochs = sum(1 for e in events if e["event"] == "epoch")
                if event["event"] == "pass" and stop_after_epochs == epochs:
                    os.killpg(self.process.pid, signal.SIGTERM)
                    sock.sendall(b"take\n")
                elif event["event"] == "pass":
                    sock.sendall(b"take\n")
        return events

    def of(self, kind):
        return [e for e in self.events if e["event"] == kind]

    def ended(self):
        ends = self.of("ended")
        return ends[-1] if ends else {}


@unittest.skipIf(PROBLEM, PROBLEM)
class ModuleUnderDeviceBench(unittest.TestCase):
    def test_a_finished_run_says_started_epochs_in_order_and_finished_last(self):
        child = Child(STEADY)
        kinds = [e["event"] for e in child.events]
        self.assertEqual(kinds[0], "started", child.output)
        self.assertEqual(kinds[-1], "ended")
        self.assertEqual(child.ended()["status"], "finished", child.output)
        self.assertEqual([e["epoch"]["epoch"] for e in child.of("epoch")], [1, 2, 3])
        self.assertEqual([e["epoch"]["warmup"] for e in child.of("epoch")], [True, False, False])
        self.assertEqual(len(child.of("pass")), 3)  # the set-up's and epochs 1 and 2's
        self.assertIn("training 3 epochs, as DeviceBench asks", child.output)

    def test_step_losses_are_every_steps_value_fetched_in_groups_of_the_interval(self):
        child = Child(STEADY)
        steps = [s for e in child.of("steps") for s in e["steps"]]
        self.assertEqual([s["step"] for s in steps], list(range(1, 13)))
        for s in steps:
            self.assertAlmostEqual(s["loss"], 1.0 / s["step"], places=6)
        self.assertEqual([len(e["steps"]) for e in child.of("steps")], [3, 1, 3, 1, 3, 1])
        first = child.of("epoch")[0]["epoch"]
        self.assertAlmostEqual(first["trainLoss"], (1 + 1 / 2 + 1 / 3 + 1 / 4) / 4, places=6)
        self.assertAlmostEqual(first["testLoss"], 0.5)
        self.assertAlmostEqual(first["testAccuracy"], 0.25)
        self.assertGreater(first["seconds"], 0.0)
        self.assertAlmostEqual(first["imagesPerSecond"], 4 * 8 / first["seconds"], places=3)

    def test_started_names_the_script_its_hash_versions_and_the_models_parameters(self):
        child = Child(STEADY)
        started = child.of("started")[0]
        program, info = started["program"], started["started"]
        self.assertEqual(program["script"], "train.py")
        import hashlib
        with open(child.script, "rb") as f:
            self.assertEqual(program["scriptSha256"], hashlib.sha256(f.read()).hexdigest())
        for key in ("python", "torch", "cuda", "pythonExecutable"):
            self.assertIn(key, program)
        self.assertEqual(info["modelParameters"], 3 * 2 + 2)
        self.assertEqual(info["modelName"], "Linear")
        self.assertEqual(info["batchSize"], 8)
        self.assertEqual(info["threads"], 1)
        self.assertEqual(info["device"], "cpu")

    def test_the_scripts_prints_on_stdout_do_not_reach_the_channel(self):
        child = Child(HEADER + 'print("{\\"event\\": \\"epoch\\"}"); print("50%|##  |\\r", end="")\n'
                      + STEADY.replace(HEADER, ""))
        self.assertEqual(child.ended()["status"], "finished", child.output)
        self.assertIn('{"event": "epoch"}', child.output)

    def test_an_exception_mid_epoch_fails_the_run_with_its_last_traceback_lines(self):
        child = Child(HEADER + textwrap.dedent("""
            run = devicebench.run(model="m")
            for epoch in run.epochs(3):
                run.step(torch.tensor(1.0))
                if epoch == 2:
                    raise ValueError("the loader ran dry")
            """))
        end = child.ended()
        self.assertEqual(end["status"], "failed")
        self.assertIn("ValueError: the loader ran dry", end["reason"])
        self.assertIn('train.py", line 7', end["reason"])
        self.assertEqual([e["epoch"]["epoch"] for e in child.of("epoch")], [1])
        self.assertIn("Traceback", child.output)  # Python still prints it

    def test_sigterm_during_an_epoch_ends_the_run_cancelled_at_the_next_step(self):
        child = Child(HEADER + textwrap.dedent("""
            run = devicebench.run(model="m")
            for epoch in run.epochs(3):
                for _ in range(400):
                    time.sleep(0.005)
                    run.step(torch.tensor(1.0))
            """), stop_after_epochs=1)
        self.assertEqual(child.ended()["status"], "cancelled", child.output)
        self.assertIn("SIGTERM", child.ended()["reason"])
        self.assertEqual(len(child.of("epoch")), 1)

    def test_a_loss_that_is_not_finite_ends_the_run_diverged(self):
        child = Child(HEADER + textwrap.dedent("""
            run = devicebench.run(model="m")
            for epoch in run.epochs(3):
                for i in range(4):
                    run.step(torch.tensor(float("nan") if epoch == 2 else 1.0))
            """))
        self.assertEqual(child.ended()["status"], "diverged")
        self.assertIn("training loss became nan at step 5 (epoch 2)", child.ended()["reason"])
        self.assertIn(None, [s["loss"] for e in child.of("steps") for s in e["steps"]])

    def test_a_loss_that_is_not_a_number_fails_the_run_naming_what_it_got(self):
        child = Child(HEADER + "run = devicebench.run()\nfor e in run.epochs(3):\n"
                      "    run.step('0.5')\n")
        self.assertEqual(child.ended()["status"], "failed")
        self.assertIn("the loss must be a number or a one-element tensor, got str",
                      child.ended()["reason"])

    def test_an_accuracy_outside_zero_to_one_fails_the_run(self):
        child = Child(HEADER + "run = devicebench.run()\nfor e in run.epochs(3):\n"
                      "    run.step(1.0)\n    run.test(loss=0.1, accuracy=87.5)\n")
        self.assertEqual(child.ended()["status"], "failed")
        self.assertIn("accuracy=) must be a fraction from 0 to 1 (got 87.5)",
                      child.ended()["reason"])
        self.assertEqual(child.of("epoch"), [])

    def test_an_epoch_without_a_step_fails_the_run(self):
        child = Child(HEADER + "run = devicebench.run()\nfor e in run.epochs(3):\n    pass\n")
        self.assertIn("epoch 1 ended without a run.step(loss) call", child.ended()["reason"])

    def test_a_script_that_never_calls_run_fails_saying_so(self):
        child = Child(HEADER + "print('no run here')\n")
        self.assertEqual(child.ended(), {"event": "ended", "status": "failed",
                                         "reason": "the script ended without calling "
                                                   "devicebench.run()"})

    def test_a_script_that_breaks_out_of_its_epochs_fails_naming_those_it_finished(self):
        child = Child(HEADER + "run = devicebench.run()\nfor e in run.epochs(3):\n"
                      "    run.step(1.0)\n    if e == 2:\n        break\n")
        self.assertEqual(child.ended()["reason"], "the script ended after 1 of its 3 epochs")

    def test_a_forked_worker_never_writes_on_the_channel(self):
        child = Child(HEADER + textwrap.dedent("""
            run = devicebench.run()
            for epoch in run.epochs(3):
                pid = os.fork()
                if pid == 0:
                    run.step(1.0); run.test(accuracy=0.5); run._fetch()
                    devicebench._at_exit(); os._exit(0)
                os.waitpid(pid, 0)
                run.step(2.0)
            """))
        self.assertEqual(child.ended()["status"], "finished", child.output)
        losses = [s["loss"] for e in child.of("steps") for s in e["steps"]]
        self.assertEqual(losses, [2.0, 2.0, 2.0])
        self.assertEqual(len(child.of("ended")), 1)


@unittest.skipIf(PROBLEM, PROBLEM)
class ModuleOutsideDeviceBench(unittest.TestCase):
    def test_a_wrapped_model_is_named_by_what_it_wraps_with_its_rate_and_its_own_modules(self):
        tiny = textwrap.dedent("""
            import torch
            class TinyNet(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = torch.nn.Linear(4, 2)
                def forward(self, x):
                    return self.fc(x)
            """)
        child = Child(HEADER + textwrap.dedent("""
            from models.tiny import TinyNet
            net = torch.nn.DataParallel(TinyNet())
            optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
            run = devicebench.run(model=net, batch_size=8, lr=optimizer)
            for epoch in run.epochs(3):
                run.step(torch.tensor(1.0))
            """), files={"models/__init__.py": "", "models/tiny.py": tiny})
        self.assertEqual(child.ended()["status"], "finished", child.output)
        started = child.of("started")[0]["started"]
        self.assertEqual(started["modelName"], "TinyNet")
        self.assertEqual(started["modelWrapper"], "DataParallel")
        self.assertEqual(started["modelParameters"], 10)
        self.assertEqual(started["batchSize"], 8)
        self.assertAlmostEqual(started["learningRate"], 0.05)
        self.assertEqual(started["scriptFiles"], {
            os.path.join("models", "__init__.py"): hashlib.sha256(b"").hexdigest(),
            os.path.join("models", "tiny.py"): hashlib.sha256(tiny.encode()).hexdigest()})

    def test_steps_and_images_are_counted_and_a_short_last_batch_counts_short(self):
        child = Child(HEADER + textwrap.dedent("""
            run = devicebench.run(batch_size=8)
            data = torch.zeros(20, 3)
            for epoch in run.epochs(3):
                for start in range(0, 20, 8):
                    x = data[start:start + 8]
                    if epoch == 1:
                        run.step(torch.tensor(1.0), images=x)  # the batch: 8, 8, 4
                    elif epoch == 2:
                        run.step(torch.tensor(1.0), images=len(x))
                    else:
                        run.step(torch.tensor(1.0))  # the stated batch size: 8 each
            """))
        self.assertEqual(child.ended()["status"], "finished", child.output)
        epochs = [e["epoch"] for e in child.of("epoch")]
        self.assertEqual([e["steps"] for e in epochs], [3, 3, 3])
        self.assertEqual([e["trainImages"] for e in epochs], [20, 20, 24])
        for e in epochs:
            self.assertAlmostEqual(e["imagesPerSecond"], e["trainImages"] / e["seconds"])
        started = child.of("started")[0]["started"]
        self.assertNotIn("learningRate", [k for k, v in started.items() if v is not None])
        self.assertEqual(started["modelName"], "")

    def test_a_rate_or_an_image_count_that_is_not_one_fails_naming_it(self):
        for call, named in (("devicebench.run(lr='fast')", "devicebench.run(lr=)"),
                            ("devicebench.run(batch_size=0)", "devicebench.run(batch_size=)")):
            child = Child(HEADER + "run = %s\nfor e in run.epochs(1):\n    run.step(1.0)\n" % call)
            self.assertEqual(child.ended()["status"], "failed", child.output)
            self.assertIn(named, child.ended()["reason"])
        child = Child(HEADER + textwrap.dedent("""
            run = devicebench.run()
            for e in run.epochs(1):
                run.step(torch.tensor(1.0), images=-3)
            """))
        self.assertEqual(child.ended()["status"], "failed", child.output)
        self.assertIn("run.step(images=)", child.ended()["reason"])

    def test_without_devicebench_the_script_runs_its_own_epochs_and_nothing_is_timed(self):
        folder = tempfile.mkdtemp(prefix="devicebench-module-test-")
        script = os.path.join(folder, "alone.py")
        with open(script, "w") as f:
            f.write(HEADER + textwrap.dedent("""
                run = devicebench.run(model="m", batch_size=4)
                seen = []
                for epoch in run.epochs(4):
                    run.step(torch.tensor(1.0)); run.step("not checked"); run.test(accuracy=9)
                    seen.append(epoch)
                print(seen, run.device in ("cpu", "cuda"), run.active)
                """))
        env = {k: v for k, v in os.environ.items() if not k.startswith("DEVICEBENCH_")}
        env["PYTHONPATH"] = MODULE_DIR
        done = subprocess.run([PYTHON, script], env=env, capture_output=True, text=True,
                              timeout=LIMIT_SECONDS)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.strip(), "[1, 2, 3, 4] True False")


if __name__ == "__main__":
    unittest.main()
