// SPDX-License-Identifier: MIT
// Export of a comparison (every run in a RunStore) as one PNG picture or CSV tables. The PNG is
// drawn here with Qt Charts; the CSV functions are the dashboard's QString face of the engine's
// writers (devicebench/csv_export.h), which the command-line runner uses directly.
#pragma once

#include "charts/charts.h" // ChartOptions

#include "devicebench/csv_export.h"

#include <QImage>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>

class QGraphicsScene;

namespace devicebench {

class RunStore;
class LossChart;
struct ControlPair;

// Size of the exported picture in pixels.
inline constexpr int kExportWidth = 1400;
inline constexpr int kExportHeight = 1100;

// The caption printed under the charts: "DeviceBench <version> · <yyyy-MM-dd HH:mm>", then
// " · synthetic data: times are real, accuracy is meaningless" when any run used synthetic data.
QString comparisonCaption(const RunStore &store);

// The control summarised (RunStore::controlSummary): "Control, max test-loss difference of
// comparable runs (...; 19900 pairs): largest #1 vs #2: 1.2e-06 · WARNING #1 vs #3: 0.25",
// every pair above the warning up to kControlWarningsListed, then how many more; never every
// pair. Empty when no two comparable runs share an epoch. Printed under the caption, wrapped.
inline constexpr qsizetype kControlWarningsListed = 20;
QString comparisonControlText(const RunStore &store);
// "#3 vs #17: 1.2e-06".
QString controlPairText(const RunStore &store, const ControlPair &pair);

// What the machine's speed did to the comparison (docs/MEASURING.md, "A machine that changes
// speed"), one note per line, in store order: "#2: machine speed changed: canary up to +22 %
// over the stable epochs, ..." (driftSummary, machine_drift.h) for each run with stable epochs
// flagged speedChanged, and "the machine was 18 % slower during run #2 than during run #1: the
// speed-up is biased ..." (machineSpeedWarning, machine_speed.h) for each run whose speed-up is
// biased. Empty when there is nothing to warn of. The compare panel lists them; the picture
// prints them under the control line.
QStringList machineSpeedNotes(const RunStore &store);

// Whether the comparison picture holds the System view (system_chart.h): one pane per quantity
// that a run in view has (sampledQuantities), two side by side, under the loss chart.
enum class SystemPanes { Omitted, Included };
// Included when a run the store shows was sampled: what the window's "Export PNG" and
// --export-png pass (the CLI's --png omits them).
SystemPanes systemPanesFor(const RunStore &store);
// The height in pixels the System view's panes add to the picture: kSystemPaneHeight per row of
// two; 0 when Omitted or when no run in view was sampled.
inline constexpr int kSystemPaneHeight = 300;
int systemPanesHeight(const RunStore &store, SystemPanes panes);

// Renders the loss chart (top; when any run is phase-timed, where the time goes beside it:
// PhaseChart, phase_chart.h; when any run has a target accuracy, the Accuracy view beside it,
// over the phases when both: AccuracyChart, accuracy_chart.h), with `panes` included the System
// view's panes under it (systemPanesHeight more pixels: the image is then taller than `size`), and
// the stable-mean bar chart (bottom) with the caption into a new ARGB32 image of `size`, in the
// light theme (theme.h: background, text and run colours from the chart palette, whatever the
// window's theme). Builds fresh chart objects, so it works without any window shown, but a
// QApplication (a QGuiApplication is not enough for Qt Charts) must exist on this thread; the
// offscreen platform is fine. Throws theme::ThemeError when the chart palette resource cannot be
// read. `options`: the loss chart's smoothing, x axis and scale and the bars' measure (the
// window's, when it exports); the loss chart's title states the smoothing. The picture shows the
// whole of every run the store does not hide (no zoom). The picture's loss chart, as
// renderComparison draws it: a fresh LossChart put in `scene` (which owns it), in the light theme,
// synced with `store` under `options` and placed at `rect`.
LossChart *pictureLossChart(QGraphicsScene &scene, const RunStore &store,
                            const ChartOptions &options, const QRectF &rect);

// When the bar chart turns horizontal (more bars than fit its width, SpeedChart), it is made
// tall enough for kPictureRowHeight pixels a bar and the image is that much taller than `size`.
inline constexpr int kPictureRowHeight = 16;
// The height the picture gives `bars`, placed at the picture's width and `fitHeight` pixels and
// synced: at least `fitHeight`, what its labels and footer need (SpeedChart::neededHeight) and,
// horizontal, kPictureRowHeight pixels a bar, so that every bar is labelled.
int pictureBarsHeight(const SpeedChart &bars, int fitHeight);
QImage renderComparison(const RunStore &store, QSize size = QSize(kExportWidth, kExportHeight),
                        const ChartOptions &options = ChartOptions(),
                        SystemPanes panes = SystemPanes::Omitted);

// The per-epoch CSV text: epochCsv(store.runSet()) (devicebench/csv_export.h, which
// documents the columns and cell formats).
QString comparisonCsv(const RunStore &store);

// The summary CSV text: summaryCsv(store.runSet()) (devicebench/csv_export.h).
QString summaryCsv(const RunStore &store);

// Where the summary CSV goes beside the per-epoch CSV `csvPath`: "x/out.csv" ->
// "x/out-summary.csv" (a path without ".csv" gets "-summary.csv" appended).
QString summaryCsvPath(const QString &csvPath);

// The files exportComparisonCsv writes for `csvPath`, as a status line names them: "a, b and c"
// (per epoch, per run, per group; native separators).
QString savedCsvFiles(const QString &csvPath);

// RFC 4180 quoting of one field (unchanged when it needs none).
QString csvField(const QString &field);

// Write renderComparison() as PNG / the two CSV files (writeComparisonCsv(), csv_export.h) to
// `path` atomically (writeExportFile(): a temporary file in the same folder, then a
// rename), so a file is either complete or untouched. exportComparisonCsv writes the
// per-epoch file first; on its failure the summary is not written. Return false on failure
// and then, if `error` is not null, set it to a message naming the path and the OS error
// (e.g. "Cannot write /x/y.png: No such file or directory"). With no run in view (none, or
// every one hidden) there is nothing to draw: the PNG is refused ("Nothing to draw in
// /x/y.png: no runs in view; ...") and no file is written.
bool exportComparisonPng(const RunStore &store, const QString &path, QString *error,
                         const ChartOptions &options = ChartOptions(),
                         SystemPanes panes = SystemPanes::Omitted);

// The PNG writing of every picture export (comparison, sweep): `render()`'s image encoded as
// PNG and written to `path` atomically, as above. A theme::ThemeError from `render` (a broken
// palette resource) writes nothing. False on failure with `error` (when not null) naming the
// path and the reason.
bool writeRenderedPng(const std::function<QImage()> &render, const QString &path, QString *error);
bool exportComparisonCsv(const RunStore &store, const QString &path, QString *error);

// The HTML report of the store's runs (writeHtmlReport, devicebench/html_report.h: one
// self-contained page), with the published rows when the store shows them, written atomically.
// False on failure with `error` (when not null) naming the path and the OS error.
bool exportComparisonHtml(const RunStore &store, const QString &path, QString *error);

} // namespace devicebench
