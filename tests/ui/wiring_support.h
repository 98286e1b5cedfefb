// SPDX-License-Identifier: MIT
// The ui tests wire their windows as the dashboard does (app/dashboard/wiring.h): a window's
// requests go to the test's RunController, and a device probe and a CIFAR-10 fetch controller
// are made for it.
#pragma once

#include "fetch_controller.h"
#include "probe_controller.h"
#include "run_controller.h"
#include "window/main_window.h"
#include "wiring.h"

#include <QSignalSpy>

#include <string>
#include <utility>

namespace devicebench::test {

// Wires `window` to `runs` with wireDashboard(); the probe controller (running `probe`,
// default: the real listDevices() and collectFingerprint()) and the fetch controller are
// children of the window, destroyed with it. The first probe starts at once. A pointer, not a
// reference: GCC 14 takes a reference to the result of a call with a temporary argument (the
// probe) for a dangling one.
inline ProbeController *wire(MainWindow &window, RunController &runs,
                             ProbeController::ProbeFunction probe = {}) {
    auto *probeController = new ProbeController(std::move(probe), &window);
    auto *fetch = new FetchController({}, &window);
    wireDashboard(window, runs, *probeController, *fetch);
    return probeController;
}

// Asks `window` for a run on `device` and returns the run id the controller's accepted signal
// gave it (a direct connection, as the wiring makes); 0 when the run was refused.
inline int startRun(MainWindow &window, const std::string &device) {
    QSignalSpy refused(&window, &MainWindow::runRefused);
    window.startRun(device);
    return refused.isEmpty() ? window.activeJobId() : 0;
}

} // namespace devicebench::test
