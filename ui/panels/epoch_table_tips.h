// SPDX-License-Identifier: MIT
// The epoch table's tooltips (epoch_table.h): what an epoch got from the machine, whether the
// machine changed speed, what it did (CPU, memory, energy), and why a run is not comparable.
#pragma once

#include "panels/epoch_columns.h"

#include <QString>
#include <QVariant>

namespace devicebench {

struct EpochResult;
struct StoredRun;

// Bytes as "812 MiB", or "1.25 GiB" from 1 GiB on.
QString bytesText(double bytes);
// Joules as "850 J", "12.3 kJ" from 10 kJ on, "1.25 MJ" from 10 MJ on (the counters resolve a
// joule at best: docs/MEASURING.md).
QString joulesText(double joules);

// The workload fields in which `run` differs from the baseline, joined by `separator`.
QString differencesText(const StoredRun &run, const QString &separator);

// The ToolTipRole of one cell of the window's epoch table; invalid when the cell has none.
QVariant epochCellToolTip(const StoredRun &run, const EpochResult &epoch, EpochColumn column);

} // namespace devicebench
