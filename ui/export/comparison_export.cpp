// SPDX-License-Identifier: MIT
#include "export/comparison_export.h"

#include "charts/accuracy_chart.h"
#include "charts/charts.h"
#include "charts/phase_chart.h"
#include "charts/system_chart.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/csv_export.h"
#include "devicebench/html_report.h"
#include "devicebench/machine_drift.h"
#include "devicebench/machine_speed.h"
#include "devicebench/version.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFont>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGuiApplication>
#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstddef>
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

QString controlPairText(const RunStore &store, const ControlPair &pair) {
    return QStringLiteral("#%1 vs #%2: %3")
        .arg(store.run(pair.indexA).number)
        .arg(store.run(pair.indexB).number)
        .arg(QString::number(pair.maxTestLossDiff, 'g', 3));
}

QString comparisonControlText(const RunStore &store) {
    const ControlSummary control = store.controlSummary();
    if (control.largest.indexA < 0)
        return QString();
    QString text = QStringLiteral("Control, max test-loss difference of comparable runs (same "
                                  "seed; above %1 is a warning; %2 pair%3): largest %4")
                       .arg(kTestLossWarning)
                       .arg(control.comparablePairs)
                       .arg(control.comparablePairs == 1 ? QString() : QStringLiteral("s"))
                       .arg(controlPairText(store, control.largest));
    const auto warnings = static_cast<qsizetype>(control.warnings.size());
    for (qsizetype i = 0; i < std::min(warnings, kControlWarningsListed); ++i)
        text += QStringLiteral(" · WARNING ") +
                controlPairText(store, control.warnings[static_cast<std::size_t>(i)]);
    if (warnings > kControlWarningsListed)
        text += QStringLiteral(" · and %1 more pairs above %2 (devicebench-cli compare --runs "
                               "lists every pair)")
                    .arg(warnings - kControlWarningsListed)
                    .arg(kTestLossWarning);
    else if (warnings == 0)
        text += QStringLiteral(" · no pair above %1").arg(kTestLossWarning);
    return text;
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

// The caption's font: the application's, at 10 points.
QFont captionFont() {
    QFont font = QGuiApplication::font();
    font.setPointSizeF(10.0);
    return font;
}

// The lines `text` takes when wrapped at words to `width` pixels in the caption's font.
int wrappedLines(const QString &text, int width) {
    const QFontMetrics metrics(captionFont());
    const QRect box = metrics.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, text);
    return std::max(1, (box.height() + metrics.height() - 1) / metrics.height());
}

// The caption's first line: what is compared, and how the training loss is drawn.
QString captionText(const RunStore &store, const ChartOptions &options) {
    return comparisonCaption(store) +
           (options.smoothing > 0.0
                ? QStringLiteral(" · training loss smoothed %1 (debiased EMA), raw steps faint")
                      .arg(options.smoothing, 0, 'f', 2)
                : QStringLiteral(" · training loss not smoothed"));
}

// The caption's height: its lines, then the control and the notes, each wrapped.
int captionHeight(const QString &caption, const QString &control, const QStringList &notes,
                  int width) {
    int lines = wrappedLines(caption, width - 32);
    if (!control.isEmpty())
        lines += wrappedLines(control, width - 32);
    for (const QString &note : notes)
        lines += wrappedLines(note, width - 32);
    return 12 + kCaptionLineHeight * lines;
}

// The caption under the charts, then the control line when there is one, then the machine
// speed notes (in the error colour), each wrapped at words within the picture, one under
// the other.
void paintCaption(QPainter &painter, const QString &caption, const QString &control,
                  const QStringList &notes, int width, int chartsHeight) {
    painter.setFont(captionFont());
    painter.setPen(theme::colour(theme::Role::ChartText, theme::Theme::Light));
    int line = 0;
    const auto draw = [&](const QString &text) {
        const int lines = wrappedLines(text, width - 32);
        painter.drawText(QRectF(16, chartsHeight + 6 + line * kCaptionLineHeight, width - 32,
                                lines * kCaptionLineHeight),
                         Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, text);
        line += lines;
    };
    draw(caption);
    if (!control.isEmpty())
        draw(control);
    painter.setPen(theme::colour(theme::Role::ErrorText, theme::Theme::Light));
    for (const QString &note : notes)
        draw(note);
}

} // namespace

int pictureBarsHeight(const SpeedChart &bars, int fitHeight) {
    const auto rows = static_cast<int>(bars.barValues().size());
    return std::max(
        {fitHeight, bars.neededHeight(), bars.horizontal() ? rows * kPictureRowHeight + 160 : 0});
}

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
    const int width = size.width();
    const QString control = comparisonControlText(store);
    const QStringList notes = machineSpeedNotes(store);
    const QString caption = captionText(store, options);
    const int chartsHeight =
        size.height() - captionHeight(caption, control, notes, width); // without the System view
    const int lossHeight = chartsHeight * 57 / 100;
    // With a phase-timed run, where the time goes beside the loss chart, as in the window; with
    // a run that has a target, its accuracy against time (over the phases when both).
    const bool phases = PhaseChart::anyPhaseTimed(store);
    const bool accuracy = AccuracyChart::anyTarget(store);
    const int lossWidth = accuracy ? width * 58 / 100 : (phases ? width * 64 / 100 : width);

    // Fresh charts in a private scene: nothing is shown, nothing is shared with a window.
    QGraphicsScene scene;
    // The bars first: placed before they are synced (the width decides whether they turn
    // horizontal), then given the height that labels every bar (the picture grows).
    auto *bars = new SpeedChart;
    addPictureChart(scene, bars);
    bars->setMeasure(options.barMeasure);
    bars->setRunsOneByOne(options.runsOneByOne);
    const int fitHeight = chartsHeight - lossHeight;
    placeChart(bars, QRectF(0, 0, width, fitHeight));
    bars->sync(store);
    const int barsHeight = pictureBarsHeight(*bars, fitHeight);
    placeChart(bars, QRectF(0, lossHeight + systemHeight, width, barsHeight));
    pictureLossChart(scene, store, options, QRectF(0, 0, lossWidth, lossHeight));
    if (systemHeight > 0)
        placeSystemPanes(scene, store, QRectF(0, lossHeight, width, systemHeight));
    const QRectF side(lossWidth, 0, width - lossWidth, lossHeight);
    if (phases) {
        auto *phaseChart = new PhaseChart;
        addPictureChart(scene, phaseChart);
        phaseChart->sync(store);
        placeChart(phaseChart, accuracy ? side.adjusted(0, side.height() / 2, 0, 0) : side);
    }
    if (accuracy) {
        auto *accuracyChart = new AccuracyChart;
        addPictureChart(scene, accuracyChart);
        accuracyChart->sync(store);
        placeChart(accuracyChart, phases ? side.adjusted(0, 0, 0, -side.height() / 2) : side);
    }
    const int allChartsHeight = lossHeight + systemHeight + barsHeight;
    scene.setSceneRect(0, 0, width, allChartsHeight);

    QImage image(QSize(width, size.height() + systemHeight + barsHeight - fitHeight),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(theme::colour(theme::Role::ChartBackground, theme::Theme::Light));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    scene.render(&painter, QRectF(0, 0, width, allChartsHeight), scene.sceneRect());
    paintCaption(painter, caption, control, notes, width, allChartsHeight);
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

QString savedCsvFiles(const QString &csvPath) {
    std::vector<std::string> paths = comparisonCsvPaths(csvPath.toStdString());
    for (std::string &path : paths)
        path = QDir::toNativeSeparators(QString::fromStdString(path)).toStdString();
    return QString::fromStdString(listedPaths(paths));
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

namespace {

// False, with "Nothing to export in FILE: no runs; the CSV is not written", when the store
// holds no run: a file of headers only would pass for a comparison.
bool anyRunToExport(const RunStore &store, const QString &path, const QString &kind,
                    QString *error) {
    if (!store.runs().empty())
        return true;
    if (error != nullptr)
        *error = QStringLiteral("Nothing to export in %1: no runs; the %2 is not written")
                     .arg(QDir::toNativeSeparators(path), kind);
    return false;
}

} // namespace

bool exportComparisonPng(const RunStore &store, const QString &path, QString *error,
                         const ChartOptions &options, SystemPanes panes) {
    const bool anyShown =
        std::any_of(store.runs().begin(), store.runs().end(),
                    [&](const StoredRun &run) { return !store.isRunHidden(run.id); });
    if (!anyShown) { // an empty picture would pass for a comparison
        if (error != nullptr)
            *error =
                QStringLiteral("Nothing to draw in %1: no runs in view; the PNG is not written")
                    .arg(QDir::toNativeSeparators(path));
        return false;
    }
    return writeRenderedPng(
        [&] { return renderComparison(store, QSize(kExportWidth, kExportHeight), options, panes); },
        path, error);
}

bool exportComparisonHtml(const RunStore &store, const QString &path, QString *error) {
    if (!anyRunToExport(store, path, QStringLiteral("report"), error))
        return false;
    try {
        const bool published = store.publishedShown() && !store.publishedSets().empty();
        const PublishedBeside beside = store.publishedRows();
        writeHtmlReport(path.toStdString(), store.runSet(),
                        published ? &store.publishedSets() : nullptr,
                        published ? &beside : nullptr);
    } catch (const ReportError &e) {
        if (error != nullptr)
            *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

bool exportComparisonCsv(const RunStore &store, const QString &path, QString *error) {
    if (!anyRunToExport(store, path, QStringLiteral("CSV"), error))
        return false;
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
