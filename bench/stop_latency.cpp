// SPDX-License-Identifier: MIT
// How soon does a stop request end a run? (the target: "Stop ends a run within one step, under
// 1 s here"; SIGINT to the CLI "finishes the current step, writes the record as cancelled".)
// Measures, --stops times each, at pseudo-random moments (fixed seed) 0.5-3 s into training:
//   dashboard  the dashboard's path: RunController::stop() on the main thread (what "Stop"
//              calls) until runEnded arrives on the main thread, status cancelled;
//   cli        devicebench-cli run: SIGINT until the process has exited (the step finished,
//              summary printed, record written as cancelled, LibTorch unloaded), exit code 130;
// and the training step time of the same settings (from a first run that reports every step's
// loss), so that each latency can be read in steps. Prints a table: median, p90 and max latency per
// path. usage: stop_latency [--stops N] [--data-dir DIR] [--threads N] [--workload faithful|tuned]
#include "bench_support.h"
#include "run_controller.h"

#include "devicebench/run_types.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <signal.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace devicebench;
using devicebench::bench::percentile;

namespace {

struct Options {
    int stops = 10;
    RunConfig config;
};

struct Sample {
    double latencySeconds = 0.0;
    bool cancelled = false; // status cancelled (dashboard) / exit code 130 (cli)
};

// One run through RunController, stopped `delayMs` after its start event. Appends the step
// times seen (seconds per step between step-loss events) to `stepSeconds`.
Sample viaController(const RunConfig &config, int delayMs, std::vector<double> *stepSeconds) {
    RunController controller;
    QEventLoop loop;
    QElapsedTimer clock;
    clock.start();
    qint64 stopAt = -1;
    Sample sample;
    std::int64_t lastStep = -1;
    qint64 lastStepAt = 0;
    QObject::connect(&controller, &RunController::runStarted, [&] {
        QTimer::singleShot(delayMs, &controller, [&] {
            stopAt = clock.nsecsElapsed();
            controller.stop();
        });
    });
    QObject::connect(&controller, &RunController::stepLosses,
                     [&](int, const std::vector<StepLoss> &losses) {
                         if (losses.empty())
                             return;
                         const qint64 now = clock.nsecsElapsed();
                         const std::int64_t step = losses.back().step;
                         if (lastStep > 0 && step > lastStep && stopAt < 0) {
                             stepSeconds->push_back(static_cast<double>(now - lastStepAt) / 1e9 /
                                                    static_cast<double>(step - lastStep));
                         }
                         lastStep = step;
                         lastStepAt = now;
                     });
    // A refused request never ends: say the engine's reasons and stop.
    QObject::connect(&controller, &RunController::runRejected, [](const QStringList &reasons) {
        std::fprintf(stderr, "the run was refused: %s\n",
                     qPrintable(reasons.join(QStringLiteral("; "))));
        std::exit(1);
    });
    QObject::connect(&controller, &RunController::runEnded, [&](int, const RecordedRun &run) {
        const RunOutcome &o = run.outcome;
        const qint64 now = clock.nsecsElapsed();
        sample.latencySeconds = stopAt < 0 ? -1.0 : static_cast<double>(now - stopAt) / 1e9;
        sample.cancelled = o.status == RunStatus::Cancelled;
        if (o.status == RunStatus::Failed) {
            std::fprintf(stderr, "run failed: %s\n", o.reason.c_str());
            std::exit(1);
        }
        loop.quit();
    });
    RunRequest request;
    request.config = config;
    controller.startRun(request);
    loop.exec();
    return sample;
}

// One CLI run, sent SIGINT `delayMs` after it printed its "data:" line (loading done).
Sample viaCli(const RunConfig &config, int delayMs) {
    QTemporaryDir dir;
    QProcess cli;
    QStringList args = {QStringLiteral("run"),
                        QStringLiteral("--device"),
                        QString::fromStdString(config.device),
                        QStringLiteral("--epochs"),
                        QString::number(config.epochs),
                        QStringLiteral("--warmup-epochs"),
                        QString::number(config.warmupEpochs),
                        QStringLiteral("--threads"),
                        QString::number(config.threads),
                        QStringLiteral("--workload"),
                        QString::fromLatin1(toString(config.workload)),
                        QStringLiteral("--record"),
                        dir.filePath(QStringLiteral("run.json"))};
    if (config.synthetic) {
        args << QStringLiteral("--synthetic");
    } else {
        args << QStringLiteral("--data-dir") << QString::fromStdString(config.dataDir);
    }
    QEventLoop loop;
    QElapsedTimer clock;
    qint64 stopAt = -1;
    QByteArray out;
    QObject::connect(&cli, &QProcess::readyReadStandardOutput, [&] {
        out += cli.readAllStandardOutput();
        if (stopAt < 0 && !clock.isValid() && out.contains("\ndata: ")) {
            clock.start();
            QTimer::singleShot(delayMs, &cli, [&] {
                stopAt = clock.nsecsElapsed();
                ::kill(static_cast<pid_t>(cli.processId()), SIGINT);
            });
        }
    });
    QObject::connect(&cli, &QProcess::finished, &loop, &QEventLoop::quit);
    cli.start(QStringLiteral(DEVICEBENCH_CLI), args);
    loop.exec();
    Sample sample;
    sample.latencySeconds =
        stopAt < 0 ? -1.0 : static_cast<double>(clock.nsecsElapsed() - stopAt) / 1e9;
    sample.cancelled = cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 130;
    if (stopAt < 0) {
        std::fprintf(stderr, "the CLI ended before it was stopped (exit %d):\n%s%s\n",
                     cli.exitCode(), out.constData(), cli.readAllStandardError().constData());
        std::exit(1);
    }
    return sample;
}

int intArg(const char *flag, const char *value) {
    char *end = nullptr;
    const long v = std::strtol(value, &end, 10);
    if (end == value || *end != '\0' || v < 1 || v > 1000) {
        std::fprintf(stderr, "%s: expected a whole number from 1 to 1000, got '%s'\n", flag, value);
        std::exit(2);
    }
    return static_cast<int>(v);
}

Options parseArgs(int argc, char **argv) {
    Options o;
    o.config.epochs = 1;
    o.config.warmupEpochs = 0;
    o.config.threads = 2;
    o.config.dataDir = "../shared/datasets/cifar-10-batches-bin";
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr, "%s needs a value\n", flag.c_str());
            std::exit(2);
        }
        const char *value = argv[++i];
        if (flag == "--stops") {
            o.stops = intArg("--stops", value);
        } else if (flag == "--threads") {
            o.config.threads = intArg("--threads", value);
        } else if (flag == "--data-dir") {
            o.config.dataDir = value;
        } else if (flag == "--workload") {
            if (!parseWorkload(value, &o.config.workload)) {
                std::fprintf(stderr, "--workload: faithful or tuned, got '%s'\n", value);
                std::exit(2);
            }
        } else {
            std::fprintf(stderr,
                         "unknown flag %s\nusage: stop_latency [--stops N] [--data-dir DIR] "
                         "[--threads N] [--workload faithful|tuned]\n",
                         flag.c_str());
            std::exit(2);
        }
    }
    return o;
}

void printRow(const char *path, const std::vector<Sample> &samples, double stepSeconds) {
    std::vector<double> seconds;
    int cancelled = 0;
    for (const Sample &s : samples) {
        seconds.push_back(s.latencySeconds);
        cancelled += s.cancelled ? 1 : 0;
    }
    const double median = percentile(seconds, 0.5);
    std::printf("%-10s %6zu %10.3f %8.3f %8.3f %14.2f %10d/%zu\n", path, samples.size(), median,
                percentile(seconds, 0.9), percentile(seconds, 1.0),
                stepSeconds > 0 ? median / stepSeconds : 0.0, cancelled, samples.size());
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    registerRunMetaTypes();
    const Options o = parseArgs(argc, argv);
    std::mt19937 random(1);
    std::uniform_int_distribution<int> delayMs(500, 3000);
    std::vector<Sample> dashboard;
    std::vector<Sample> cli;
    // The step time: one run that fetches every step's loss (the stop runs keep the default
    // fetch interval, as the dashboard does, and see too few loss events to time steps).
    std::vector<double> stepSeconds;
    RunConfig everyStep = o.config;
    everyStep.lossFetchInterval = 1;
    viaController(everyStep, 3000, &stepSeconds);
    std::vector<double> unused;
    for (int i = 0; i < o.stops; ++i) { // alternate the two paths
        dashboard.push_back(viaController(o.config, delayMs(random), &unused));
        cli.push_back(viaCli(o.config, delayMs(random)));
        std::fprintf(stderr, "stop %d/%d: dashboard %.3f s, cli %.3f s\n", i + 1, o.stops,
                     dashboard.back().latencySeconds, cli.back().latencySeconds);
    }
    const double step = percentile(stepSeconds, 0.5);
    std::printf("stop latency: %s, %s workload, batch size %d, %d threads, %s\n",
                o.config.device.c_str(), toString(o.config.workload), o.config.batchSize,
                o.config.threads, o.config.dataDir.c_str());
    std::printf(
        "training step time: median %.4f s (%zu steps of a run fetching every step's loss)\n\n",
        step, stepSeconds.size());
    std::printf("%-10s %6s %10s %8s %8s %14s %12s\n", "path", "stops", "median s", "p90 s", "max s",
                "median/step", "cancelled");
    printRow("dashboard", dashboard, step);
    printRow("cli", cli, step);
    std::printf("\ndashboard: stop() to runEnded on the main thread; cli: SIGINT to process "
                "exit (record written, exit code 130 counted as cancelled)\n");
    return 0;
}
