// SPDX-License-Identifier: MIT
// Does live reporting to the dashboard change what it measures?
// Runs the same training alternately (A B, B A, A B ...):
//   A  engine alone: runTraining on a worker thread with an observer that does nothing;
//   B  dashboard: the real MainWindow (offscreen) starts the run through RunController, with
//      live loss chart, epoch table, bar chart and status bar redrawn from its timer;
// and prints each run's stable mean seconds per epoch, the medians, and B / A, and the CPU
// time the main thread (the window) used during B as a share of one core. In both modes
// a 10 ms probe timer ticks on the main thread; during B its lateness measures how
// responsive the window stays (p50, p99, max).
// With --controller-only a third run per round, C, goes through RunController alone (events
// posted to the main thread, no window), to tell event traffic from drawing.
// usage: dashboard_overhead [--pairs N] [--epochs N] [--train-images N] [--test-images N]
//                           [--threads N] [--data-dir DIR] [--controller-only]
#include "bench_support.h"
#include "fetch_controller.h"
#include "probe_controller.h"
#include "run_controller.h"
#include "store/run_store.h"
#include "window/main_window.h"
#include "wiring.h"

#include "devicebench/devices.h"
#include "devicebench/summary.h"
#include "devicebench/trainer.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace devicebench;
using devicebench::bench::LatenessProbe;
using devicebench::bench::percentile;

namespace {

struct Options {
    int pairs = 3;
    bool withControllerOnly = false; // --controller-only: a third mode, C
    RunConfig config;
};

class NullObserver : public TrainingObserver {
public:
    void onRunEnded(const RunOutcome &o) override { outcome = o; }
    RunOutcome outcome;
};

double engineAlone(const RunConfig &config) {
    NullObserver observer;
    std::atomic<bool> stop{false};
    RunOutcome outcome;
    QEventLoop loop;
    LatenessProbe probe(nullptr);
    std::thread worker([&] {
        outcome = runTraining(config, observer, stop);
        QMetaObject::invokeMethod(
            &loop, [&loop] { loop.quit(); }, Qt::QueuedConnection);
    });
    loop.exec();
    worker.join();
    if (outcome.status != RunStatus::Finished) {
        std::fprintf(stderr, "engine run failed: %s\n", outcome.reason.c_str());
        std::exit(1);
    }
    return outcome.summary.stableMean;
}

// The controller alone: the worker posts every event to the main thread as the dashboard's
// does, but no window takes them. Separates the cost of the event traffic from drawing.
double viaControllerOnly(const RunConfig &config) {
    RunController controller;
    QEventLoop loop;
    RunOutcome outcome;
    LatenessProbe probe(nullptr);
    // A refused request never ends: say the engine's reasons and stop.
    QObject::connect(&controller, &RunController::runRejected, [](const QStringList &reasons) {
        std::fprintf(stderr, "the run was refused: %s\n",
                     qPrintable(reasons.join(QStringLiteral("; "))));
        std::exit(1);
    });
    QObject::connect(&controller, &RunController::runEnded, &loop,
                     [&](int, const RecordedRun &run) {
                         outcome = run.outcome;
                         loop.quit();
                     });
    RunRequest request;
    request.config = config;
    controller.startRun(request);
    loop.exec();
    if (outcome.status != RunStatus::Finished) {
        std::fprintf(stderr, "controller run failed: %s\n", outcome.reason.c_str());
        std::exit(1);
    }
    return outcome.summary.stableMean;
}

// CPU seconds used so far by the calling thread (the main thread: the window's own work).
double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double viaDashboard(const RunConfig &config, std::vector<double> *latenessMs,
                    std::vector<double> *mainThreadShare) {
    const double cpu0 = threadCpuSeconds();
    QElapsedTimer wall;
    wall.start();
    RunController controller;
    // A fresh runs folder each time: the window saves its record after every epoch as a user's
    // would, but starts with no earlier runs in view (the user's own folder is not touched).
    QTemporaryDir runsFolder;
    // Wired as the dashboard wires it; its first device probe ends before anything is timed.
    ProbeController deviceProbe;
    FetchController fetch;
    MainWindow window(nullptr, runsFolder.path());
    wireDashboard(window, controller, deviceProbe, fetch);
    while (deviceProbe.isBusy())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    window.setRunConfig(config);
    window.resize(1500, 950);
    window.show();
    QEventLoop loop;
    RunOutcome outcome;
    // A refused request never ends: say the engine's reasons and stop.
    QObject::connect(&controller, &RunController::runRejected, [](const QStringList &reasons) {
        std::fprintf(stderr, "the run was refused: %s\n",
                     qPrintable(reasons.join(QStringLiteral("; "))));
        std::exit(1);
    });
    QObject::connect(&controller, &RunController::runEnded, &loop,
                     [&](int, const RecordedRun &run) {
                         outcome = run.outcome;
                         loop.quit();
                     });
    LatenessProbe probe(latenessMs);
    window.startRun(config.device); // a refusal is the controller's: runRejected above
    loop.exec();
    mainThreadShare->push_back((threadCpuSeconds() - cpu0) /
                               (static_cast<double>(wall.nsecsElapsed()) / 1e9));
    if (outcome.status != RunStatus::Finished) {
        std::fprintf(stderr, "dashboard run failed: %s\n", outcome.reason.c_str());
        std::exit(1);
    }
    return outcome.summary.stableMean;
}

Options parse(int argc, char **argv) {
    Options o;
    RunConfig &c = o.config;
    c.synthetic = true;
    c.epochs = 4;
    c.warmupEpochs = 1;
    c.trainImages = 12800;
    c.testImages = 2000;
    c.threads = availableCores();
    for (int i = 1; i < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--controller-only") {
            o.withControllerOnly = true;
            --i;
            continue;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "%s needs a value\n", flag.c_str());
            std::exit(2);
        }
        const char *value = argv[i + 1];
        if (flag == "--pairs") {
            o.pairs = std::atoi(value);
        } else if (flag == "--epochs") {
            c.epochs = std::atoi(value);
        } else if (flag == "--train-images") {
            c.trainImages = std::atoll(value);
        } else if (flag == "--test-images") {
            c.testImages = std::atoll(value);
        } else if (flag == "--threads") {
            c.threads = std::atoi(value);
        } else if (flag == "--data-dir") {
            c.dataDir = value;
            c.synthetic = false;
        } else {
            std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
            std::exit(2);
        }
    }
    if (const auto errors = validateRunConfig(c); !errors.empty()) {
        std::fprintf(stderr, "bad settings: %s\n", errors.front().c_str());
        std::exit(2);
    }
    return o;
}

} // namespace

int main(int argc, char **argv) {
    if (std::getenv("QT_QPA_PLATFORM") == nullptr) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &msg) {
        if (type == QtCriticalMsg || type == QtFatalMsg) {
            std::fprintf(stderr, "Qt: %s\n", qPrintable(msg));
        }
    });
    QApplication app(argc, argv);
    const Options o = parse(argc, argv);
    const RunConfig &c = o.config;
    std::printf("# dashboard overhead: %s, %lld training + %lld test images, %d epochs "
                "(%d warm-up), %d threads, %d pairs A B\n",
                c.synthetic ? "synthetic data" : c.dataDir.c_str(),
                static_cast<long long>(c.trainImages), static_cast<long long>(c.testImages),
                c.epochs, c.warmupEpochs, c.threads, o.pairs);
    std::printf("%-5s %-28s %14s\n", "pair", "mode", "stable mean s");
    std::vector<double> a, b, cOnly, lateness, mainShare;
    // A B, then B A, and so on: neither mode always runs second, after the other has warmed
    // the caches or heated the machine.
    for (int p = 1; p <= o.pairs; ++p) {
        const auto runA = [&] {
            a.push_back(engineAlone(c));
            std::printf("%-5d %-28s %14.3f\n", p, "A engine, no observer", a.back());
            std::fflush(stdout);
        };
        const auto runB = [&] {
            b.push_back(viaDashboard(c, &lateness, &mainShare));
            std::printf("%-5d %-28s %14.3f\n", p, "B dashboard, live charts", b.back());
            std::fflush(stdout);
        };
        if (p % 2 == 1) {
            runA();
            runB();
        } else {
            runB();
            runA();
        }
        if (o.withControllerOnly) {
            cOnly.push_back(viaControllerOnly(c));
            std::printf("%-5d %-28s %14.3f\n", p, "C controller, no window", cOnly.back());
            std::fflush(stdout);
        }
    }
    if (!cOnly.empty()) {
        std::printf("median C %.3f s, C / A = %.4f (%+.2f%%)\n", median(cOnly),
                    median(cOnly) / median(a), 100.0 * (median(cOnly) / median(a) - 1.0));
    }
    const double ma = median(a), mb = median(b);
    std::printf("median A %.3f s, median B %.3f s, B / A = %.4f (%+.2f%%)\n", ma, mb, mb / ma,
                100.0 * (mb / ma - 1.0));
    // Per pair: B / A of the two runs made next to each other. Their geometric mean with a 95%
    // Student-t interval (on the log ratios) says how sure the difference is.
    std::vector<double> logRatios;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        logRatios.push_back(std::log(b[i] / a[i]));
    if (logRatios.size() >= 2) {
        const double n = static_cast<double>(logRatios.size());
        double mean = 0.0;
        for (double r : logRatios)
            mean += r / n;
        double var = 0.0;
        for (double r : logRatios)
            var += (r - mean) * (r - mean) / (n - 1.0);
        const double half =
            studentT975(static_cast<int>(logRatios.size()) - 1) * std::sqrt(var / n);
        std::vector<double> ratios;
        for (double r : logRatios)
            ratios.push_back(std::exp(r));
        std::printf("per pair B / A: median %.4f, geometric mean %.4f (%+.2f%%), "
                    "95%% interval [%.4f, %.4f]\n",
                    median(ratios), std::exp(mean), 100.0 * (std::exp(mean) - 1.0),
                    std::exp(mean - half), std::exp(mean + half));
    }
    std::printf("main thread (the window) during B: median %.2f%% of one core's time\n",
                100.0 * median(mainShare));
    std::printf("event loop during B: %zu probe ticks, lateness p50 %.2f ms, p99 %.2f ms, "
                "max %.2f ms\n",
                lateness.size(), percentile(lateness, 0.5), percentile(lateness, 0.99),
                percentile(lateness, 1.0));
    return 0;
}
