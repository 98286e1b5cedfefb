// SPDX-License-Identifier: MIT
// Does the dashboard stay light and smooth with many long runs in view? Prints:
//   1. with --data-dir: the time to load the full CIFAR-10 binary set (loadCifar10), median
//      of 5 loads, and the bytes it holds;
//   2. the process's resident memory before and after the real MainWindow (offscreen) imports
//      --runs finished run records of --epochs x --steps-per-epoch step losses each (default
//      10 runs x 10 epochs x 782 steps = 7,820 steps, the article's experiment);
//   3. the time of a full redraw of the window with those runs in view (QWidget::grab(): the
//      loss chart with every run's curve, bar chart, table), median, p99 and max of --repeats;
//   4. a real training run (synthetic data, --live-images images, 2 epochs, 2 threads)
//      started in that window: the 10 ms probe timer's lateness on the main thread (p50, p99,
//      max) while the loss chart redraws live with all the other runs in view, and the peak
//      resident memory (VmHWM) at the end.
// The records are made here (a plausible decaying loss with noise), written with the engine's
// writeRunRecord and imported through MainWindow::importRecords, as "Import runs..." does.
// usage: dashboard_scale [--runs N] [--epochs N] [--steps-per-epoch N] [--repeats N]
//                        [--live-images N] [--data-dir DIR] [--per-widget] [--no-live]
// The table of loss chart settings (smoothing, log scale, time axis, zoom) comes after
// the full redraw; --no-live stops there.
#include "bench_support.h"
#include "charts/charts.h"
#include "fetch_controller.h"
#include "panels/charts_panel.h"
#include "probe_controller.h"
#include "run_controller.h"
#include "store/run_store.h"
#include "window/main_window.h"
#include "wiring.h"

#include "devicebench/cifar10.h"
#include "devicebench/fingerprint.h"
#include "devicebench/run_record.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QGraphicsScene>
#include <QImage>
#include <QLineSeries>
#include <QPainter>
#include <QPixmap>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace devicebench;
using devicebench::bench::LatenessProbe;
using devicebench::bench::percentile;

namespace {

struct Options {
    int runs = 10;
    int epochs = 10;
    int stepsPerEpoch = 782;
    int repeats = 30;
    long long liveImages = 6400;
    bool perWidget = false; // --per-widget: time each widget's redraw too
    bool noLive = false;    // --no-live: stop after the redraw tables (no live run)
    std::string dataDir;
};

// "VmRSS" or "VmHWM" of /proc/self/status, in MB.
double statusMb(const char *field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::string key = std::string(field) + ":";
    while (std::getline(in, line)) {
        if (line.rfind(key, 0) == 0)
            return std::atof(line.c_str() + key.size()) / 1024.0; // kB -> MB
    }
    return -1.0;
}

RunRecord makeRecord(const Options &o, int index) {
    RunRecord r;
    r.runId = "scale-" + std::to_string(index);
    r.createdUtc = "2026-11-30T00:00:00Z";
    r.config.device = "cpu";
    r.config.epochs = o.epochs;
    r.config.warmupEpochs = 2;
    r.config.threads = 1 + index % 2;
    r.config.dataDir = "/data/cifar-10-batches-bin";
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = r.config.threads;
    r.started.trainImages = static_cast<std::int64_t>(o.stepsPerEpoch) * 64;
    r.started.testImages = 10000;
    r.started.stepsPerEpoch = o.stepsPerEpoch;
    r.fingerprint = Fingerprint{};
    r.fingerprint.hostName = "host-" + std::to_string(index);
    r.fingerprint.cpuModel = "Example CPU";
    r.fingerprint.logicalCores = 2;
    r.data.path = r.config.dataDir;
    r.data.variant = "cifar-10-binary";
    r.data.trainImages = r.started.trainImages;
    r.data.testImages = 10000;
    r.data.contentHash = "0123456789abcdef";
    std::mt19937 rng(static_cast<unsigned>(index));
    std::normal_distribution<double> noise(0.0, 0.08);
    const double epochSeconds = 20.0 + 15.0 * (index % 2);
    std::int64_t step = 0;
    for (int e = 1; e <= o.epochs; ++e) {
        for (int s = 0; s < o.stepsPerEpoch; ++s) {
            ++step;
            const double t = static_cast<double>(step) / o.stepsPerEpoch;
            TimedStepLoss l;
            l.epoch = e;
            l.step = step;
            l.loss = 1.0 + 1.3 * std::exp(-t / 2.5) + noise(rng);
            l.seconds = epochSeconds * t;
            r.steps.push_back(l);
        }
        EpochResult er;
        er.epoch = e;
        er.seconds = epochSeconds * (e <= 2 ? 1.1 : 1.0) + 0.01 * index;
        er.warmup = e <= 2;
        er.trainLoss = 1.0 + 1.3 * std::exp(-(e - 0.5) / 2.5);
        er.testLoss = er.trainLoss + 0.05;
        er.testAccuracy = 0.3 + 0.025 * e;
        er.imagesPerSecond = 60000.0 / er.seconds;
        r.epochs.push_back(er);
    }
    r.status = "finished";
    return r;
}

long long intArg(const std::string &flag, const char *value) {
    char *end = nullptr;
    const long long v = std::strtoll(value, &end, 10);
    if (end == value || *end != '\0' || v <= 0) {
        std::fprintf(stderr, "%s: not a positive whole number: '%s'\n", flag.c_str(), value);
        std::exit(2);
    }
    return v;
}

} // namespace

int main(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--per-widget") {
            o.perWidget = true;
            continue;
        }
        if (flag == "--no-live") {
            o.noLive = true;
            continue;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "%s needs a value\n", flag.c_str());
            return 2;
        }
        const char *v = argv[++i];
        if (flag == "--runs")
            o.runs = static_cast<int>(intArg(flag, v));
        else if (flag == "--epochs")
            o.epochs = static_cast<int>(intArg(flag, v));
        else if (flag == "--steps-per-epoch")
            o.stepsPerEpoch = static_cast<int>(intArg(flag, v));
        else if (flag == "--repeats")
            o.repeats = static_cast<int>(intArg(flag, v));
        else if (flag == "--live-images")
            o.liveImages = intArg(flag, v);
        else if (flag == "--data-dir")
            o.dataDir = v;
        else {
            std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
            return 2;
        }
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::printf("# dashboard scale: %d runs x %d epochs x %d steps in view\n", o.runs, o.epochs,
                o.stepsPerEpoch);
    std::printf("resident memory at start: %.0f MB\n", statusMb("VmRSS"));

    if (!o.dataDir.empty()) {
        std::vector<double> seconds;
        double bytes = 0.0;
        for (int i = 0; i < 5; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const Cifar10 data = loadCifar10(o.dataDir);
            seconds.push_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            bytes = static_cast<double>(data.train.images.nbytes() + data.test.images.nbytes() +
                                        data.train.labels.nbytes() + data.test.labels.nbytes());
        }
        std::printf("load full data set: median %.3f s, max %.3f s of 5 loads (%.0f MB held)\n",
                    percentile(seconds, 0.5), percentile(seconds, 1.0), bytes / 1e6);
        std::printf("resident memory after the loads: %.0f MB (peak %.0f MB)\n", statusMb("VmRSS"),
                    statusMb("VmHWM"));
    }

    QTemporaryDir recordsDir;
    QTemporaryDir runsFolder;
    QStringList paths;
    for (int i = 0; i < o.runs; ++i) {
        const QString path = recordsDir.filePath(QStringLiteral("run-%1.json").arg(i));
        writeRunRecord(path.toStdString(), makeRecord(o, i));
        paths << path;
    }
    const double rssBefore = statusMb("VmRSS");
    RunController controller;
    // Wired as the dashboard wires it; its first device probe ends before anything is timed.
    ProbeController deviceProbe;
    FetchController fetch;
    MainWindow window(nullptr, runsFolder.path());
    wireDashboard(window, controller, deviceProbe, fetch);
    while (deviceProbe.isBusy())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    window.resize(1500, 950);
    window.show();
    QElapsedTimer importClock;
    importClock.start();
    const auto report = window.importRecords(paths, /*showDialog=*/false);
    window.redrawNow();
    QApplication::processEvents();
    const double importMs = static_cast<double>(importClock.nsecsElapsed()) / 1e6;
    if (report.loaded != o.runs) {
        std::fprintf(stderr, "imported %d of %d records: %s\n", report.loaded, o.runs,
                     qPrintable(report.rejected.join(QStringLiteral("; "))));
        return 1;
    }
    std::printf("imported %d runs (%lld step losses) in %.0f ms\n", report.loaded,
                static_cast<long long>(o.runs) * o.epochs * o.stepsPerEpoch, importMs);
    std::printf("resident memory: window with the runs %.0f MB (before the window %.0f MB), "
                "peak so far %.0f MB\n",
                statusMb("VmRSS"), rssBefore, statusMb("VmHWM"));

    std::vector<double> paintMs;
    for (int i = 0; i < o.repeats; ++i) {
        QElapsedTimer t;
        t.start();
        const QPixmap pixmap = window.grab();
        paintMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        if (pixmap.isNull()) {
            std::fprintf(stderr, "grab() gave an empty picture\n");
            return 1;
        }
    }
    std::printf("full window redraw (grab, 1500x950) with %d runs in view: median %.1f ms, "
                "p99 %.1f ms, max %.1f ms over %d redraws\n",
                o.runs, percentile(paintMs, 0.5), percentile(paintMs, 0.99),
                percentile(paintMs, 1.0), o.repeats);

    {
        // The loss chart alone, rendered through its scene (what its view paints).
        std::vector<double> chartMs;
        QImage image(1400, 450, QImage::Format_ARGB32_Premultiplied);
        for (int i = 0; i < o.repeats; ++i) {
            QElapsedTimer t;
            t.start();
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            window.lossChart()->scene()->render(&painter);
            painter.end();
            chartMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        }
        std::printf("loss chart alone (scene render 1400x450): median %.1f ms, p99 %.1f ms\n",
                    percentile(chartMs, 0.5), percentile(chartMs, 0.99));
        chartMs.clear();
        for (int i = 0; i < o.repeats; ++i) {
            QElapsedTimer t;
            t.start();
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            window.speedChart()->scene()->render(&painter);
            painter.end();
            chartMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        }
        std::printf("speed chart alone (scene render 1400x450): median %.1f ms, p99 %.1f ms\n",
                    percentile(chartMs, 0.5), percentile(chartMs, 0.99));
    }

    {
        // The loss chart's settings. Per setting: "apply" = setting it in the
        // window's controls (rebuilds every run's points, smoothing, decimation for the
        // visible range, axes), then "redraw" = a full window grab and the loss chart's scene
        // alone, medians of --repeats.
        struct Setting {
            const char *name;
            double smoothing;
            XAxisMode axis;
            bool log;
            bool zoomEpoch; // x range of epoch 5 only (every step drawn)
        };
        const Setting settings[] = {
            {"smoothing 0 (raw only)", 0.0, XAxisMode::Epochs, false, false},
            {"smoothing 0.6 (default)", 0.6, XAxisMode::Epochs, false, false},
            {"smoothing 0.99", 0.99, XAxisMode::Epochs, false, false},
            {"smoothing 0.6, log scale", 0.6, XAxisMode::Epochs, true, false},
            {"smoothing 0.6, time axis", 0.6, XAxisMode::Seconds, false, false},
            {"smoothing 0.6, zoom: epoch 5", 0.6, XAxisMode::Epochs, false, true},
        };
        ChartsPanel *panel = window.chartsPanel();
        const ChartOptions before = panel->chartOptions();
        std::printf("\nloss chart settings, %d runs x %d steps in view (medians of %d):\n", o.runs,
                    o.epochs * o.stepsPerEpoch, o.repeats);
        std::printf("| setting | apply (ms) | window redraw (ms) | loss chart alone (ms) | "
                    "points drawn per run |\n|---|---:|---:|---:|---:|\n");
        QImage image(1400, 450, QImage::Format_ARGB32_Premultiplied);
        for (const Setting &setting : settings) {
            std::vector<double> applyMs;
            std::vector<double> windowMs;
            std::vector<double> chartMs;
            ChartOptions options;
            options.smoothing = setting.smoothing;
            options.xAxis = setting.axis;
            options.logScale = setting.log;
            for (int i = 0; i < std::max(3, o.repeats / 5); ++i) {
                ChartOptions other = options;
                other.smoothing = setting.smoothing > 0.5 ? 0.3 : 0.5; // force a rebuild
                panel->setChartOptions(other);
                QElapsedTimer t;
                t.start();
                panel->setChartOptions(options);
                if (setting.zoomEpoch)
                    window.lossChart()->setXRange(4.0, 5.0);
                applyMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
            }
            QApplication::processEvents();
            for (int i = 0; i < o.repeats; ++i) {
                QElapsedTimer t;
                t.start();
                (void)window.grab();
                windowMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
                t.restart();
                QPainter painter(&image);
                painter.setRenderHint(QPainter::Antialiasing);
                window.lossChart()->scene()->render(&painter);
                painter.end();
                chartMs.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
            }
            const int runId = window.store().run(0).id;
            std::printf("| %s | %.1f | %.1f | %.1f | %lld |\n", setting.name,
                        percentile(applyMs, 0.5), percentile(windowMs, 0.5),
                        percentile(chartMs, 0.5),
                        static_cast<long long>(window.lossChart()->trainSeries(runId)->count()));
            window.lossChart()->resetView();
        }
        panel->setChartOptions(before);
        std::printf("\n");
    }

    if (o.perWidget) {
        // Where a full redraw's time goes: each visible widget of some size, grabbed alone.
        for (QWidget *w : window.findChildren<QWidget *>()) {
            if (!w->isVisible() || w->width() * w->height() < 20000)
                continue;
            QElapsedTimer t;
            t.start();
            for (int i = 0; i < 5; ++i)
                (void)w->grab();
            std::printf("  %-28s %-20s %4dx%-4d %.1f ms\n", w->metaObject()->className(),
                        qPrintable(w->objectName()), w->width(), w->height(),
                        static_cast<double>(t.nsecsElapsed()) / 5e6);
        }
    }
    if (o.noLive)
        return 0;
    // A live run in the same window: the chart redraws as its loss arrives.
    RunConfig live;
    live.device = "cpu";
    live.synthetic = true;
    live.epochs = 2;
    live.warmupEpochs = 1;
    live.threads = 2;
    live.trainImages = o.liveImages;
    live.testImages = 1000;
    window.setRunConfig(live);
    QEventLoop loop;
    RunOutcome outcome;
    // A refused request never ends: say the engine's reasons and stop.
    QObject::connect(&controller, &RunController::runRejected, [](const QStringList &reasons) {
        std::fprintf(stderr, "the run was refused: %s\n",
                     qPrintable(reasons.join(QStringLiteral("; "))));
        std::exit(1);
    });
    QObject::connect(&controller, &RunController::runEnded, &loop,
                     [&](int, const RecordedRun &ended) {
                         outcome = ended.outcome;
                         loop.quit();
                     });
    std::vector<double> lateness;
    LatenessProbe probe(&lateness);
    window.startRun("cpu"); // a refusal is the controller's: runRejected above
    loop.exec();
    if (outcome.status != RunStatus::Finished) {
        std::fprintf(stderr, "live run did not finish: %s\n", outcome.reason.c_str());
        return 1;
    }
    window.redrawNow();
    std::printf("live run (%lld synthetic images, 2 epochs, 2 threads) with %d runs in view: "
                "%zu probe ticks, lateness p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
                static_cast<long long>(o.liveImages), o.runs, lateness.size(),
                percentile(lateness, 0.5), percentile(lateness, 0.99), percentile(lateness, 1.0));
    std::printf("resident memory at the end: %.0f MB, peak (VmHWM) %.0f MB\n", statusMb("VmRSS"),
                statusMb("VmHWM"));
    return 0;
}
