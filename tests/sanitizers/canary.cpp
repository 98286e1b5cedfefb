// SPDX-License-Identifier: MIT
// Sanitizer canaries: each mode commits one deliberate bug that its sanitizer preset must
// report (tests/sanitizers/CMakeLists.txt checks the report's first line). They pin down that
// the presets' flags, options and suppressions (docs/SANITIZERS.md) leave our own code
// checked: a sanitizer run that can no longer see a bug in our code would fail here instead
// of passing everything in silence.
//
//   canary heap-buffer-overflow   ASan: writes one int past a new[] block
//   canary leak                   LSan: loses the only pointer to a heap block
//   canary signed-overflow        UBSan: INT_MAX + 1
//   canary race-in-run-worker     TSan: a RunController train function (on the run's worker
//                                 thread) writes a variable the main thread reads unsynchronised
#include "run_controller.h"

#include <QCoreApplication>
#include <QThread>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <thread>

namespace {

int g_shared = 0; // the raced variable of race-in-run-worker

int heapBufferOverflow() {
    int *block = new int[4];
    volatile int index = 4;
    block[index] = 1; // one past the end
    const int value = block[0];
    delete[] block;
    return value;
}

int leak() {
    volatile int *block = new int[64];
    block[0] = 1;
    block = nullptr; // the only pointer is gone; LeakSanitizer reports it at exit
    return 0;
}

int signedOverflow() {
    volatile int big = INT_MAX;
    const int sum = big + 1;
    return sum == INT_MIN ? 0 : 1;
}

int raceInRunWorker(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    devicebench::RunController controller([](const devicebench::RunConfig &,
                                             devicebench::TrainingObserver &,
                                             const std::atomic<bool> &) {
        g_shared = 1; // worker thread, no lock
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        devicebench::RunOutcome outcome;
        outcome.status = devicebench::RunStatus::Finished;
        return outcome;
    });
    bool ended = false;
    QObject::connect(&controller, &devicebench::RunController::runEnded,
                     [&ended](int, const devicebench::RecordedRun &) { ended = true; });
    devicebench::RunRequest request; // valid, so that the controller starts the job
    request.config.synthetic = true;
    controller.startRun(request);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const int seen = g_shared; // main thread, no lock, while the worker still runs
    while (!ended) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return seen == 1 ? 0 : 3; // 3: the worker had not written yet (the race is still there)
}

} // namespace

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (std::strcmp(mode, "heap-buffer-overflow") == 0)
        return heapBufferOverflow();
    if (std::strcmp(mode, "leak") == 0)
        return leak();
    if (std::strcmp(mode, "signed-overflow") == 0)
        return signedOverflow();
    if (std::strcmp(mode, "race-in-run-worker") == 0)
        return raceInRunWorker(argc, argv);
    std::fprintf(stderr, "usage: canary heap-buffer-overflow | leak | signed-overflow | "
                         "race-in-run-worker\n");
    return 2;
}
