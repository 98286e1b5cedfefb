// SPDX-License-Identifier: MIT
// Export of a comparison (every run in a RunStore) as one PNG picture or one CSV table.
// Shared by the dashboard and the headless command-line runner.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

namespace devicebench {

class RunStore;

// Size of the exported picture in pixels.
inline constexpr int kExportWidth = 1400;
inline constexpr int kExportHeight = 1100;

// The caption printed under the charts: "DeviceBench <version> · <yyyy-MM-dd HH:mm>", then
// " · synthetic data: times are real, accuracy is meaningless" when any run used synthetic data.
QString comparisonCaption(const RunStore &store);

// Renders the loss chart (top) and the stable-mean bar chart (bottom) with the caption on a
// white background into a new ARGB32 image of `size`. Builds fresh chart objects, so it works
// without any window shown, but a QApplication (a QGuiApplication is not enough for Qt Charts)
// must exist on this thread; the offscreen platform is fine.
QImage renderComparison(const RunStore &store, QSize size = QSize(kExportWidth, kExportHeight));

// The CSV text: header line
//   run,device,threads,epoch,seconds,warmup,train_loss,test_loss,test_accuracy,images_per_s,data,status
// then one line per run and finished epoch (epochRows()/epochCell() in epoch_table.h, CSV
// format: C locale, warmup 1/0, test_accuracy a fraction 0..1). Lines end with "\n"; fields
// holding a comma, quote, CR or LF are quoted with quotes doubled (RFC 4180).
QString comparisonCsv(const RunStore &store);

// RFC 4180 quoting of one field (unchanged when it needs none).
QString csvField(const QString &field);

// Write renderComparison() as PNG / comparisonCsv() as UTF-8 to `path` through QSaveFile, so
// the file is either complete or untouched. Return false on failure and then, if `error` is not
// null, set it to a message naming the path and the OS error (e.g. "Cannot write
// /x/y.png: No such file or directory").
bool exportComparisonPng(const RunStore &store, const QString &path, QString *error);
bool exportComparisonCsv(const RunStore &store, const QString &path, QString *error);

} // namespace devicebench
