// SPDX-License-Identifier: MIT
// For the ui tests of the epoch table: the exported per-epoch CSV's cells of a window's run, what
// the window's cells of the same values are checked against.
#pragma once

#include "panels/epoch_table.h"
#include "store/run_store.h"

#include <QString>

namespace devicebench::test {

// The per-epoch CSV's cell (csv_columns.h) in `column` of `run`'s `epoch`, before quoting.
inline QString csvCell(const StoredRun &run, const EpochResult &epoch, const char *column) {
    return QString::fromStdString(epochCsvColumn(column).cell(epochCsvRow(run, epoch)));
}

} // namespace devicebench::test
