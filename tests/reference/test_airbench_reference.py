# SPDX-License-Identifier: MIT
"""reference/airbench/airbench_reference.py (airbench94, PyPI airbench==0.1.8) run by
DeviceBench on the CPU, end to end through the CLI: 2,048 training and 1,000 test images, 2
epochs, 2 threads. It must end with exit 0 and a finished run record whose two epochs carry
test accuracies and whose training loss goes down; --epochs beyond the schedule's 10 passes
must be refused naming the limit.

  python3 -m unittest tests/reference/test_airbench_reference.py -v      # from the repo root

Settings (environment):
  DEVICEBENCH_CLI          the CLI (default build/default/app/devicebench-cli); argv[1] also
  DEVICEBENCH_TEST_PYTHON  the Python the CLI runs the script with (default the venv of
                           scripts/install-torch.sh, with scripts/install-airbench.sh's package)
  DEVICEBENCH_TEST_DATA    CIFAR-10's binary folder (default $DEVICEBENCH_DATA, else
                           ../shared/datasets/cifar-10-batches-bin beside the repo)
Without any of them the tests skip, printing one line that begins "airbench reference tests
skipped:" (ctest's SKIP_REGULAR_EXPRESSION). The CPU run takes 1-3 minutes on 2 cores.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "reference", "airbench", "airbench_reference.py")
CACHE = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
CLI = os.environ.get("DEVICEBENCH_CLI") or os.path.join(ROOT, "build", "default", "app",
                                                         "devicebench-cli")
if len(sys.argv) > 1 and os.path.basename(sys.argv[1]).startswith("devicebench-cli"):
    CLI = sys.argv.pop(1)  # ctest: python3 test.py $<TARGET_FILE:devicebench-cli>
VENV = os.environ.get("DEVICEBENCH_TORCH_VENV") or os.path.join(CACHE, "devicebench",
                                                                "venv-torch2.11.0")
PYTHON = os.environ.get("DEVICEBENCH_TEST_PYTHON") or os.path.join(VENV, "bin", "python")
DATA = (os.environ.get("DEVICEBENCH_TEST_DATA") or os.environ.get("DEVICEBENCH_DATA")
        or os.path.join(ROOT, "..", "shared", "datasets", "cifar-10-batches-bin"))


def problem():
    if not os.access(CLI, os.X_OK):
        return "no DeviceBench CLI at %s (build it, or set DEVICEBENCH_CLI)" % CLI
    if not os.access(PYTHON, os.X_OK):
        return "no Python at %s (scripts/install-torch.sh, or DEVICEBENCH_TEST_PYTHON)" % PYTHON
    check = subprocess.run([PYTHON, "-c", "import torch, torchvision, airbench.lib_airbench94"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if check.returncode != 0:
        return "%s cannot import torch, torchvision and airbench (scripts/install-airbench.sh)" \
            % PYTHON
    if not os.path.isfile(os.path.join(DATA, "test_batch.bin")):
        return "no CIFAR-10 binary files in %s (DEVICEBENCH_TEST_DATA)" % DATA
    return ""


PROBLEM = problem()
if PROBLEM:  # the line ctest recognises as "skipped"
    print("airbench reference tests skipped: %s" % PROBLEM)


def run_cli(folder, epochs, extra_args=()):
    record = os.path.join(folder, "run.json")
    env = dict(os.environ, DEVICEBENCH_AIRBENCH_CACHE=os.path.join(folder, "cache"))
    command = [CLI, "run", "--workload", "script", "--script", SCRIPT, "--python", PYTHON,
               "--device", "cpu", "--threads", "2", "--epochs", str(epochs),
               "--record", record,
               "--script-arg=--data-dir=%s" % DATA,
               "--script-arg=--train-images=2048", "--script-arg=--test-images=1000"]
    command += list(extra_args)
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          env=env, timeout=900, universal_newlines=True)
    with open(record) if os.path.exists(record) else open(os.devnull) as f:
        text = f.read()
    return done, (json.loads(text) if text else None)


@unittest.skipIf(PROBLEM, PROBLEM)
class AirbenchReferenceTest(unittest.TestCase):

    def test_two_epochs_on_the_cpu(self):
        with tempfile.TemporaryDirectory(prefix="airbench-reference-") as folder:
            done, record = run_cli(folder, 2)
            output = done.stdout[-4000:]
            self.assertEqual(done.returncode, 0, output)
            self.assertIsNotNone(record, "no run record; output:\n" + output)
            self.assertEqual(record["status"], "finished", record.get("reason"))
            self.assertEqual(record["config"]["model"], "airbench94")
            self.assertEqual(record["config"]["device"], "cpu")
            epochs = record["epochs"]
            self.assertEqual([e["epoch"] for e in epochs], [1, 2])
            for e in epochs:
                accuracy = e["testAccuracy"]
                self.assertIsNotNone(accuracy, "epoch %d has no test accuracy" % e["epoch"])
                self.assertTrue(0.0 <= accuracy <= 1.0, accuracy)
                self.assertIsNotNone(e["testLoss"])
            # 2,048 images at batch 1024 (the loader drops no image here): 2 steps an epoch
            losses = [s["loss"] for s in record["steps"]]
            self.assertEqual(len(losses), 4, record["steps"])
            self.assertLess(epochs[1]["trainLoss"], epochs[0]["trainLoss"],
                            "the training loss did not go down: %s" % losses)
            self.assertLess(losses[-1], losses[0], losses)

    def test_more_epochs_than_the_schedule_is_refused(self):
        with tempfile.TemporaryDirectory(prefix="airbench-reference-") as folder:
            done, record = run_cli(folder, 11)
            self.assertNotEqual(done.returncode, 0, done.stdout[-4000:])
            self.assertIsNotNone(record, done.stdout[-4000:])
            self.assertEqual(record["status"], "failed")
            self.assertIn("give --epochs 10 or fewer", record["reason"])
            self.assertEqual(record["epochs"], [])


if __name__ == "__main__":
    unittest.main()
