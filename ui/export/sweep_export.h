// SPDX-License-Identifier: MIT
// The sweep's picture: what "Export PNG" of the dashboard's Sweep view and `devicebench-cli sweep
// --png` (sweep_png.h) write. Drawn with fresh chart objects on any thread that has a QApplication
// (the offscreen platform is fine), in the light theme.
#pragma once

#include "devicebench/sweep.h"

#include <QImage>
#include <QString>

#include <vector>

namespace devicebench {

// Width of the exported picture in pixels; its height follows the heat map's rows.
inline constexpr int kSweepExportWidth = 1400;
inline constexpr int kSweepChartHeight = 620;

// The grid, as a title: "Sweep: small-cnn, resnet18 · batch sizes 16, 64, 256 · 32 px ·
// cpu x1, cpu x2 · 20 timed steps after 5 warm-up" (each value as the records hold it, in
// order of first appearance; several step counts are listed).
QString sweepGridText(const std::vector<SweepCellRecord> &records);
// The machines the records were measured on: "<CPU model> @ <host>", with the GPUs of CUDA
// cells ("NVIDIA H200 @ host"), distinct ones joined by " · ".
QString sweepMachineText(const std::vector<SweepCellRecord> &records);
// "DeviceBench <version> · <yyyy-MM-dd HH:mm>", then " · synthetic data: times are real,
// accuracy is meaningless" when any cell used synthetic data.
QString sweepCaption(const std::vector<SweepCellRecord> &records);

// The picture: the grid and machine title, the chart (SweepChart, sweep_chart.h), the speed-up
// heat map against `baseline` (a device label; empty: the first device), the cells left out,
// the caption. kSweepExportWidth wide. Throws theme::ThemeError when the chart palette
// resource cannot be read.
QImage renderSweep(const std::vector<SweepCellRecord> &records, const QString &baseline);

// renderSweep as PNG into `path`, atomically (writeExportFile). False on failure, with *error
// (when not null) naming the path and the reason ("Cannot write /x/y.png: ..."); without a
// cell record there is nothing to draw ("Nothing to draw in /x/y.png: no cell records; ...")
// and no file is written.
bool exportSweepPng(const std::vector<SweepCellRecord> &records, const QString &baseline,
                    const QString &path, QString *error);

} // namespace devicebench
