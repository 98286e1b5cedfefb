// SPDX-License-Identifier: MIT
#include "export/comparison_export.h"

#include "charts/charts.h"
#include "charts/phase_chart.h"
#include "charts/system_chart.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/csv_export.h"
#include "devicebench/machine_drift.h"
#include "devicebench/machine_speed.h"
#include "devicebench/version.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFont>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPainter>
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

QStringList machineSpeedNotes(const RunStore &store) {
    QStringList notes;
    const int baseline = store.baselineIndex();
    const std::string baselineName =
        baseline >= 0 ? "run #" + std::to_string(store.run(baseline).number) : std::string();
    for (const StoredRun &run : store.runs()) {
        if (!speedChangedStableEpochs(run.record.epochs, run.warmupEpochs).empty())
            notes.append(QStringLiteral("#%1: %2")
                             .arg(run.number)
                             .arg(QString::fromStdString(
                                 driftSummary(run.record.epochs, run.warmupEpochs))));
        const std::string across = machineSpeedWarning(
            run.machineSpeed, "run #" + std::to_string(run.number), baselineName);
        if (!across.empty())
            notes.append(QString::fromStdString(across));
    }
    return notes;
}

namespace {

// The height of each line under the caption (control, machine speed notes).
constexpr int kCaptionLineHeight = 22;

// Puts a fresh chart in `scene` (which owns it from then on), as the picture draws it: square,
// light, no shadow.
void addPictureChart(QGraphicsScene &scene, QChart *chart) {
    scene.addItem(chart);
    chart->setBackgroundRoundness(0);
    theme::applyToChart(chart, theme::Theme::Light); // the picture is always light
    chart->setDropShadowEnabled(false);
}

// Layouts are normally activated from the event loop; do it now.
void placeChart(QChart *chart, const QRectF &rect) {
    chart->setGeometry(rect);
    chart->layout()->activate();
}

// The caption line under the charts, then the control-pair line when there is one, then the
// machine speed notes (in the error colour), a line each.
void paintCaption(QPainter &painter, const RunStore &store, const ChartOptions &options,
                  const QString &control, const QStringList &notes, int width, int chartsHeight) {
    QFont font = painter.font();
    font.setPointSizeF(10.0);
    painter.setFont(font);
    painter.setPen(theme::colour(theme::Role::ChartText, theme::Theme::Light));
    QString caption = comparisonCaption(store);
    caption += options.smoothing > 0.0
                   ? QStringLiteral(" · training loss smoothed %1 (debiased EMA), raw steps faint")
                         .arg(options.smoothing, 0, 'f', 2)
                   : QStringLiteral(" · training loss not smoothed");
    painter.drawText(QRectF(16, chartsHeight, width - 32, 30), Qt::AlignLeft | Qt::AlignVCenter,
                     caption);
    const auto drawLine = [&](int line, const QString &text) {
        painter.drawText(QRectF(16, chartsHeight + 24 + line * kCaptionLineHeight, width - 32, 28),
                         Qt::AlignLeft | Qt::AlignVCenter, text);
    };
    int line = 0;
    if (!control.isEmpty())
        drawLine(line++, control);
    painter.setPen(theme::colour(theme::Role::ErrorText, theme::Theme::Light));
    for (const QString &note : notes)
        drawLine(line++, note);
}

} // namespace

SystemPanes systemPanesFor(const RunStore &store) {
    return sampledQuantities(store).empty() ? SystemPanes::Omitted : SystemPanes::Included;
}

int systemPanesHeight(const RunStore &store, SystemPanes panes) {
    if (panes == SystemPanes::Omitted)
        return 0;
    const auto quantities = static_cast<int>(sampledQuantities(store).size());
    return (quantities + 1) / 2 * kSystemPaneHeight;
}

LossChart *pictureLossChart(QGraphicsScene &scene, const RunStore &store,
                            const ChartOptions &options, const QRectF &rect) {
    auto *loss = new LossChart;
    addPictureChart(scene, loss);
    loss->setOptions(options);
    loss->sync(store);
    placeChart(loss, rect);
    return loss;
}

namespace {

// The System view's panes in `rect`: one SystemChart per quantity a run in view has, two a row.
void placeSystemPanes(QGraphicsScene &scene, const RunStore &store, const QRectF &rect) {
    const std::vector<SystemQuantity> quantities = sampledQuantities(store);
    const double paneWidth = rect.width() / 2.0;
    for (std::size_t i = 0; i < quantities.size(); ++i) {
        auto *chart = new SystemChart;
        addPictureChart(scene, chart);
        chart->setQuantity(quantities[i]);
        chart->sync(store);
        const bool alone = i + 1 == quantities.size() && i % 2 == 0; // the last, on its own
        placeChart(chart, QRectF(rect.left() + static_cast<double>(i % 2) * paneWidth,
                                 rect.top() + static_cast<double>(i / 2) * kSystemPaneHeight,
                                 alone ? rect.width() : paneWidth, kSystemPaneHeight));
    }
}

} // namespace

QImage renderComparison(const RunStore &store, QSize size, const ChartOptions &options,
                        SystemPanes panes) {
    const int systemHeight = systemPanesHeight(store, panes);
    QImage image(QSize(size.width(), size.height() + systemHeight),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(theme::colour(theme::Role::ChartBackground, theme::Theme::Light));

    const int width = size.width();
    const QString control = comparisonControlText(store);
    const QStringList notes = machineSpeedNotes(store);
    const int lines = (control.isEmpty() ? 0 : 1) + static_cast<int>(notes.size());
    const int captionHeight = 34 + kCaptionLineHeight * lines;
    const int chartsHeight = size.height() - captionHeight; // without the System view
    const int lossHeight = chartsHeight * 57 / 100;
    // With a phase-timed run, where the time goes beside the loss chart, as in the window.
    const bool phases = PhaseChart::anyPhaseTimed(store);
    const int lossWidth = phases ? width * 64 / 100 : width;

    // Fresh charts in a private scene: nothing is shown, nothing is shared with a window.
    QGraphicsScene scene;
    pictureLossChart(scene, store, options, QRectF(0, 0, lossWidth, lossHeight));
    if (systemHeight > 0)
        placeSystemPanes(scene, store, QRectF(0, lossHeight, width, systemHeight));
    auto *bars = new SpeedChart;
    addPictureChart(scene, bars);
    bars->setMeasure(options.barMeasure);
    bars->sync(store);
    placeChart(bars, QRectF(0, lossHeight + systemHeight, width, chartsHeight - lossHeight));
    if (phases) {
        auto *phaseChart = new PhaseChart;
        addPictureChart(scene, phaseChart);
        phaseChart->sync(store);
        placeChart(phaseChart, QRectF(lossWidth, 0, width - lossWidth, lossHeight));
    }
    const int allChartsHeight = chartsHeight + systemHeight;
    scene.setSceneRect(0, 0, width, allChartsHeight);

    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    scene.render(&painter, QRectF(0, 0, width, allChartsHeight), scene.sceneRect());
    paintCaption(painter, store, options, control, notes, width, allChartsHeight);
    painter.end();
    return image;
}

QString csvField(const QString &field) {
    return QString::fromStdString(csvField(field.toStdString()));
}

QString comparisonCsv(const RunStore &store) {
    return QString::fromStdString(epochCsv(store.runSet()));
}

QString summaryCsv(const RunStore &store) {
    return QString::fromStdString(summaryCsv(store.runSet()));
}

QString summaryCsvPath(const QString &csvPath) {
    return QString::fromStdString(summaryCsvPath(csvPath.toStdString()));
}

bool writeRenderedPng(const std::function<QImage()> &render, const QString &path, QString *error) {
    QImage image;
    try {
        image = render();
    } catch (const theme::ThemeError &e) { // a broken palette resource: say so, write nothing
        if (error != nullptr)
            *error = QStringLiteral("Cannot write %1: %2")
                         .arg(QDir::toNativeSeparators(path), QString::fromUtf8(e.what()));
        return false;
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        if (error != nullptr)
            *error = QStringLiteral("Cannot write %1: PNG encoding failed")
                         .arg(QDir::toNativeSeparators(path));
        return false;
    }
    try {
        writeExportFile(path.toStdString(), bytes.toStdString());
    } catch (const ExportError &e) {
        if (error != nullptr)
            *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

bool exportComparisonPng(const RunStore &store, const QString &path, QString *error,
                         const ChartOptions &options, SystemPanes panes) {
    return writeRenderedPng(
        [&] { return renderComparison(store, QSize(kExportWidth, kExportHeight), options, panes); },
        path, error);
}

bool exportComparisonCsv(const RunStore &store, const QString &path, QString *error) {
    try {
        // With "Published results" on, the summary holds the rows drawn beside the runs.
        const bool published = store.publishedShown() && !store.publishedSets().empty();
        const PublishedBeside beside = store.publishedRows();
        writeComparisonCsv(store.runSet(), path.toStdString(), published ? &beside : nullptr,
                           published ? &store.publishedSets() : nullptr);
    } catch (const ExportError &e) {
        if (error != nullptr)
            *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

} // namespace devicebench
