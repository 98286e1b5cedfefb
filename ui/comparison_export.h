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

// "Control, max test-loss difference of comparable runs ...: #1 vs #2: 1.2e-06 · WARNING #1 vs
// #3: 0.25"; empty when no two comparable runs share an epoch. Printed under the caption.
QString comparisonControlText(const RunStore &store);

// Renders the loss chart (top) and the stable-mean bar chart (bottom) with the caption into a
// new ARGB32 image of `size`, in the light theme (theme.h: background, text and run colours
// from the chart palette, whatever the window's theme). Builds fresh chart objects, so it works
// without any window shown, but a QApplication (a QGuiApplication is not enough for Qt Charts)
// must exist on this thread; the offscreen platform is fine. Throws theme::ThemeError when the
// chart palette resource cannot be read.
QImage renderComparison(const RunStore &store, QSize size = QSize(kExportWidth, kExportHeight));

// The per-epoch CSV text: header line
//   run,device,threads,epoch,seconds,warmup,train_loss,test_loss,test_accuracy,images_per_s,data,
//   status,host,comparable,differences
// then one line per run and finished epoch (epochRows()/epochCell() in epoch_table.h, CSV
// format: C locale, warmup 1/0, test_accuracy a fraction 0..1). Lines end with "\n"; fields
// holding a comma, quote, CR or LF are quoted with quotes doubled (RFC 4180).
QString comparisonCsv(const RunStore &store);

// The summary CSV text: one row per run, header line
//   run,device,host,threads,status,epochs,warmup_epochs,mean_all_s,stable_mean_s,median_s,
//   stddev_s,min_s,max_s,cv,ci95_low_s,ci95_high_s,images_per_s,speedup,speedup_low,
//   speedup_high,baseline,comparable,differences,max_test_loss_diff,cpu_model,physical_cores,
//   logical_cores,cpu_quota,affinity,omp_num_threads,intra_op_threads,blas,libtorch,cuda_built,
//   cuda_runtime,cudnn,driver,gpu_name,gpu_cc,gpu_memory_bytes,cudnn_benchmark,app_version,os
// Times in seconds (the store's warm-up setting), cv a fraction, speed-ups against the
// baseline (whose label is in `baseline`) with their 95% interval; unknown numbers "nan";
// max_test_loss_diff against the baseline, empty for the baseline itself. gpu_* describe the
// run's GPU for a CUDA run, and every GPU of the machine (joined by ';') otherwise.
QString summaryCsv(const RunStore &store);
inline constexpr int kSummaryColumnCount = 43;

// Where the summary CSV goes beside the per-epoch CSV `csvPath`: "x/out.csv" ->
// "x/out-summary.csv" (a path without ".csv" gets "-summary.csv" appended).
QString summaryCsvPath(const QString &csvPath);

// RFC 4180 quoting of one field (unchanged when it needs none).
QString csvField(const QString &field);

// Write renderComparison() as PNG / comparisonCsv() as UTF-8 to `path` through QSaveFile, so
// the file is either complete or untouched. exportComparisonCsv also writes summaryCsv() to
// summaryCsvPath(path) (the per-epoch file first; on failure the summary is not written). Return false on failure and then, if `error` is not
// null, set it to a message naming the path and the OS error (e.g. "Cannot write
// /x/y.png: No such file or directory").
bool exportComparisonPng(const RunStore &store, const QString &path, QString *error);
bool exportComparisonCsv(const RunStore &store, const QString &path, QString *error);

} // namespace devicebench
