// SPDX-License-Identifier: MIT
#include "comparison_export.h"

#include "charts.h"
#include "epoch_table.h"
#include "run_store.h"
#include "theme.h"

#include "devicebench/version.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFont>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPainter>
#include <QSaveFile>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

namespace devicebench {

QString comparisonCaption(const RunStore &store) {
    QString caption =
        QStringLiteral("DeviceBench %1 · %2")
            .arg(QString::fromUtf8(kVersion),
                 QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    if (store.anySynthetic())
        caption += QStringLiteral(" · synthetic data: times are real, accuracy is meaningless");
    return caption;
}

QString comparisonControlText(const RunStore &store) {
    QStringList parts;
    for (const ControlPair &pair : store.controlPairs()) {
        if (!std::isfinite(pair.maxTestLossDiff))
            continue;
        parts.append(QStringLiteral("%1#%2 vs #%3: %4")
                         .arg(pair.warning ? QStringLiteral("WARNING ") : QString())
                         .arg(store.run(pair.indexA).number)
                         .arg(store.run(pair.indexB).number)
                         .arg(QString::number(pair.maxTestLossDiff, 'g', 3)));
    }
    if (parts.isEmpty())
        return QString();
    return QStringLiteral("Control, max test-loss difference of comparable runs (same seed; "
                          "above %1 is a warning): ")
               .arg(kTestLossWarning) +
           parts.join(QStringLiteral(" · "));
}

QImage renderComparison(const RunStore &store, QSize size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(theme::colour(theme::Role::ChartBackground, theme::Theme::Light));

    const int width = size.width();
    const QString control = comparisonControlText(store);
    const int captionHeight = control.isEmpty() ? 34 : 56;
    const int chartsHeight = size.height() - captionHeight;
    const int lossHeight = chartsHeight * 57 / 100;
    const QRectF lossRect(0, 0, width, lossHeight);
    const QRectF barRect(0, lossHeight, width, chartsHeight - lossHeight);

    // Fresh charts in a private scene: nothing is shown, nothing is shared with a window.
    QGraphicsScene scene;
    auto *loss = new LossChart;
    auto *bars = new SpeedChart;
    scene.addItem(loss); // the scene owns them from here
    scene.addItem(bars);
    for (QChart *chart : {static_cast<QChart *>(loss), static_cast<QChart *>(bars)}) {
        chart->setBackgroundRoundness(0);
        theme::applyToChart(chart, theme::Theme::Light); // the picture is always light
        chart->setDropShadowEnabled(false);
    }
    loss->sync(store);
    bars->sync(store);
    loss->setGeometry(lossRect);
    bars->setGeometry(barRect);
    // Layouts are normally activated from the event loop; do it now.
    loss->layout()->activate();
    bars->layout()->activate();
    scene.setSceneRect(0, 0, width, chartsHeight);

    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    scene.render(&painter, QRectF(0, 0, width, chartsHeight), scene.sceneRect());

    QFont font = painter.font();
    font.setPointSizeF(10.0);
    painter.setFont(font);
    painter.setPen(theme::colour(theme::Role::ChartText, theme::Theme::Light));
    painter.drawText(QRectF(16, chartsHeight, width - 32, 30), Qt::AlignLeft | Qt::AlignVCenter,
                     comparisonCaption(store));
    if (!control.isEmpty())
        painter.drawText(QRectF(16, chartsHeight + 24, width - 32, 28),
                         Qt::AlignLeft | Qt::AlignVCenter, control);
    painter.end();
    return image;
}

QString csvField(const QString &field) {
    const bool needsQuotes = field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"')) ||
                             field.contains(QLatin1Char('\n')) || field.contains(QLatin1Char('\r'));
    if (!needsQuotes)
        return field;
    QString quoted = field;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString comparisonCsv(const RunStore &store) {
    QStringList header;
    for (int c = 0; c < kEpochColumnCount; ++c)
        header.append(epochColumnKey(static_cast<EpochColumn>(c)));
    QString csv = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const EpochRowRef &ref : epochRows(store)) {
        const StoredRun &run = store.run(ref.runIndex);
        const EpochResult &epoch = run.record.epochs[static_cast<std::size_t>(ref.epochIndex)];
        QStringList fields;
        for (int c = 0; c < kEpochColumnCount; ++c)
            fields.append(
                csvField(epochCell(run, epoch, static_cast<EpochColumn>(c), CellFormat::Csv)));
        csv += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

namespace {

QString csvNumber(double value, int decimals) {
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(value, 'f', decimals);
}

QString q(const std::string &text) { return QString::fromStdString(text); }

} // namespace

QString summaryCsvPath(const QString &csvPath) {
    QString base = csvPath;
    if (base.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive))
        base.chop(4);
    return base + QStringLiteral("-summary.csv");
}

QString summaryCsv(const RunStore &store) {
    static const char *const kHeader[] = {"run",
                                          "device",
                                          "host",
                                          "threads",
                                          "status",
                                          "epochs",
                                          "warmup_epochs",
                                          "mean_all_s",
                                          "stable_mean_s",
                                          "median_s",
                                          "stddev_s",
                                          "min_s",
                                          "max_s",
                                          "cv",
                                          "ci95_low_s",
                                          "ci95_high_s",
                                          "images_per_s",
                                          "speedup",
                                          "speedup_low",
                                          "speedup_high",
                                          "baseline",
                                          "comparable",
                                          "differences",
                                          "max_test_loss_diff",
                                          "cpu_model",
                                          "physical_cores",
                                          "logical_cores",
                                          "cpu_quota",
                                          "affinity",
                                          "omp_num_threads",
                                          "intra_op_threads",
                                          "blas",
                                          "libtorch",
                                          "cuda_built",
                                          "cuda_runtime",
                                          "cudnn",
                                          "driver",
                                          "gpu_name",
                                          "gpu_cc",
                                          "gpu_memory_bytes",
                                          "cudnn_benchmark",
                                          "app_version",
                                          "os"};
    static_assert(std::size(kHeader) == kSummaryColumnCount);
    QStringList header;
    for (const char *name : kHeader)
        header.append(QString::fromLatin1(name));
    QString csv = header.join(QLatin1Char(',')) + QLatin1Char('\n');

    const int baselineIndex = store.baselineIndex();
    const QString baselineLabel = baselineIndex >= 0 ? store.run(baselineIndex).label : QString();
    for (const StoredRun &run : store.runs()) {
        const RunRecord &r = run.record;
        const Summary &s = run.summary;
        const Fingerprint &f = r.fingerprint;
        const std::string device = r.started.device.empty() ? r.config.device : r.started.device;
        // The run's GPU for a CUDA run; every GPU of the machine otherwise.
        std::vector<const GpuInfo *> gpus;
        for (const GpuInfo &gpu : f.gpus) {
            if (device.rfind("cuda", 0) != 0 || device == "cuda:" + std::to_string(gpu.index))
                gpus.push_back(&gpu);
        }
        QStringList gpuNames;
        QStringList gpuCc;
        QStringList gpuMemory;
        for (const GpuInfo *gpu : gpus) {
            gpuNames.append(q(gpu->name));
            gpuCc.append(QStringLiteral("%1.%2").arg(gpu->computeMajor).arg(gpu->computeMinor));
            gpuMemory.append(QString::number(gpu->memoryBytes));
        }
        const QStringList fields = {
            run.label,
            q(device),
            q(f.hostName),
            QString::number(r.started.threads),
            runStateName(run.state),
            QString::number(r.epochs.size()),
            QString::number(run.warmupEpochs),
            csvNumber(s.epochSeconds.empty() ? std::nan("") : s.meanAll, 4),
            csvNumber(s.hasStable ? s.stableMean : std::nan(""), 4),
            csvNumber(s.hasStable ? s.median : std::nan(""), 4),
            csvNumber(s.hasStable ? s.stddev : std::nan(""), 4),
            csvNumber(s.hasStable ? s.min : std::nan(""), 4),
            csvNumber(s.hasStable ? s.max : std::nan(""), 4),
            csvNumber(s.hasStable ? s.cv : std::nan(""), 6),
            csvNumber(s.hasStable ? s.ciLow : std::nan(""), 4),
            csvNumber(s.hasStable ? s.ciHigh : std::nan(""), 4),
            csvNumber(s.hasStable ? s.imagesPerSecond : std::nan(""), 2),
            csvNumber(run.speedUp.ratio, 4),
            csvNumber(run.speedUp.low, 4),
            csvNumber(run.speedUp.high, 4),
            baselineLabel,
            run.comparable() ? QStringLiteral("1") : QStringLiteral("0"),
            differencesText(run, QStringLiteral(";")),
            run.isBaseline ? QString() : csvNumber(run.maxTestLossDiff, 6),
            q(f.cpuModel),
            QString::number(f.physicalCores),
            QString::number(f.logicalCores),
            q(f.cpuQuota),
            q(f.affinity),
            q(f.ompNumThreads),
            QString::number(f.intraOpThreads),
            q(f.blasLibrary),
            q(f.libtorchVersion),
            f.cudaBuilt ? QStringLiteral("1") : QStringLiteral("0"),
            q(f.cudaRuntimeVersion),
            q(f.cudnnVersion),
            q(f.driverVersion),
            gpuNames.join(QLatin1Char(';')),
            gpuCc.join(QLatin1Char(';')),
            gpuMemory.join(QLatin1Char(';')),
            f.cudnnBenchmark ? QStringLiteral("1") : QStringLiteral("0"),
            q(f.appVersion),
            q(f.os),
        };
        QStringList quoted;
        for (const QString &field : fields)
            quoted.append(csvField(field));
        csv += quoted.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

namespace {

bool writeAtomically(const QString &path, const QByteArray &bytes, QString *error) {
    const QString shown = QDir::toNativeSeparators(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error != nullptr)
            *error = QStringLiteral("Cannot write %1: %2").arg(shown, file.errorString());
        return false;
    }
    if (const qint64 written = file.write(bytes); written != bytes.size()) {
        // A short write sets no error (the disk filled up part way): say what happened.
        if (error != nullptr)
            *error = QStringLiteral("Cannot write %1: %2")
                         .arg(shown, file.error() != QFileDevice::NoError
                                         ? file.errorString()
                                         : QStringLiteral("only %1 of %2 bytes could be written "
                                                          "(disk full?)")
                                               .arg(std::max<qint64>(written, 0))
                                               .arg(bytes.size()));
        file.cancelWriting();
        return false;
    }
    // QSaveFile::commit() does not notice a failed final flush (Qt 6.4) and would rename a
    // partial file into place: flush, and check, first.
    if (!file.flush()) {
        if (error != nullptr) {
            const QString why = file.errorString();
            *error = QStringLiteral("Cannot write %1: %2")
                         .arg(shown, why.isEmpty() || why == QLatin1String("Unknown error")
                                         ? QStringLiteral("it could not be written whole "
                                                          "(disk full?)")
                                         : why);
        }
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        if (error != nullptr)
            *error = QStringLiteral("Cannot write %1: %2").arg(shown, file.errorString());
        return false;
    }
    return true;
}

} // namespace

bool exportComparisonPng(const RunStore &store, const QString &path, QString *error) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImage image;
    try {
        image = renderComparison(store);
    } catch (const theme::ThemeError &e) { // a broken palette resource: say so, write nothing
        if (error != nullptr)
            *error = QStringLiteral("Cannot write %1: %2")
                         .arg(QDir::toNativeSeparators(path), QString::fromUtf8(e.what()));
        return false;
    }
    if (!image.save(&buffer, "PNG")) {
        if (error != nullptr)
            *error = QStringLiteral("Cannot write %1: PNG encoding failed")
                         .arg(QDir::toNativeSeparators(path));
        return false;
    }
    return writeAtomically(path, bytes, error);
}

bool exportComparisonCsv(const RunStore &store, const QString &path, QString *error) {
    return writeAtomically(path, comparisonCsv(store).toUtf8(), error) &&
           writeAtomically(summaryCsvPath(path), summaryCsv(store).toUtf8(), error);
}

} // namespace devicebench
