// SPDX-License-Identifier: MIT
// The epoch table: one row per run and finished epoch, its columns read from one table
// (kEpochTableColumns) whose values are the per-epoch CSV's (csv_columns.h), shown for reading.
#pragma once

#include "panels/epoch_columns.h"

#include "devicebench/csv_columns.h"

#include <QAbstractTableModel>
#include <QString>

#include <iterator>
#include <vector>

namespace devicebench {

class RunStore;
struct StoredRun;
struct EpochResult;

// How a cell shows its CSV column's value. A number that is not known or not finite reads "–".
enum class CellDisplay {
    Text,         // the CSV cell as it is
    Fixed,        // the number with `decimals`
    Seconds,      // Fixed, "⚠ " before it when the epoch was not the device's alone
    Percent,      // a fraction as percent with `decimals`: "12.5 %"
    Bytes,        // bytesText
    Joules,       // joulesText; "n/a" for an epoch that was sampled but measured no energy
    Yes,          // "yes" for the CSV's 1, else ""
    Comparable,   // EpochColumn::Comparable's words
    MachineSpeed, // the canary's change when the machine's speed changed, else ""
};

// One column of the window's table: what it is, its header, the per-epoch CSV column whose
// value it shows (whose unit the header's tooltip names) and how.
struct EpochTableColumn {
    EpochColumn key;
    const char *title;
    const char *csvColumn;
    CellDisplay display;
    int decimals = 0;
    bool leftAligned = false;
};

// The window's columns in order: the run, its comparability where it is seen without
// scrolling, what the epoch measured, what the machine did, then the two marks of a machine
// that was not itself, contended the last.
inline constexpr EpochTableColumn kEpochTableColumns[] = {
    {EpochColumn::Run, "run", "run", CellDisplay::Text, 0, true},
    {EpochColumn::Comparable, "comparable", "comparable", CellDisplay::Comparable, 0, true},
    {EpochColumn::Device, "device", "device", CellDisplay::Text, 0, true},
    {EpochColumn::Threads, "threads", "threads", CellDisplay::Text},
    {EpochColumn::Epoch, "epoch", "epoch", CellDisplay::Text},
    {EpochColumn::Seconds, "seconds", "seconds", CellDisplay::Seconds, 2},
    {EpochColumn::Warmup, "warm-up", "warmup", CellDisplay::Yes},
    {EpochColumn::TrainLoss, "train loss", "train_loss", CellDisplay::Fixed, 4},
    {EpochColumn::TestLoss, "test loss", "test_loss", CellDisplay::Fixed, 4},
    {EpochColumn::TestAccuracy, "test accuracy", "test_accuracy", CellDisplay::Percent, 1},
    {EpochColumn::ImagesPerSecond, "images/s", "images_per_s", CellDisplay::Fixed, 0},
    {EpochColumn::CpuCores, "CPU cores", "process_cores", CellDisplay::Fixed, 1},
    {EpochColumn::PeakMemory, "peak memory", "peak_rss_bytes", CellDisplay::Bytes},
    {EpochColumn::Energy, "energy", "energy_j", CellDisplay::Joules},
    {EpochColumn::SpeedChanged, "machine speed", "speed_changed", CellDisplay::MachineSpeed},
    {EpochColumn::Contended, "contended", "contended", CellDisplay::Yes},
};
inline constexpr int kEpochTableShownColumns = static_cast<int>(std::size(kEpochTableColumns));

// The column shown in section `section` (0 <= section < kEpochTableShownColumns).
EpochColumn epochTableColumn(int section);

// The table's entry of `column`, and its section.
const EpochTableColumn &epochTableEntry(EpochColumn column);
int epochTableSection(EpochColumn column);

// The per-epoch CSV column whose value `column` shows ("seconds", "process_cores").
QString epochColumnKey(EpochColumn column);

// One row: the run at store index `runIndex`, its epoch at `epochIndex` (0-based).
struct EpochRowRef {
    int runIndex = 0;
    int epochIndex = 0;
    bool operator==(const EpochRowRef &o) const {
        return runIndex == o.runIndex && epochIndex == o.epochIndex;
    }
};

// Every row of the store, runs in store order, epochs in order.
std::vector<EpochRowRef> epochRows(const RunStore &store);

// What the per-epoch CSV's line of `run`'s `epoch` is made from, for the window's run: its
// cells are those of the exported file (epochCsvColumn(name).cell(row)).
EpochCsvRow epochCsvRow(const StoredRun &run, const EpochResult &epoch);

// The text of one cell as the window shows it. Warm-up follows the store's warm-up setting
// (StoredRun::isWarmup), not the recorded flag.
QString epochCell(const StoredRun &run, const EpochResult &epoch, EpochColumn column);

// Read-only table model over a RunStore, refreshed explicitly (the window calls refresh()
// from its coalescing timer). The store must outlive the model. Colours: the run column's
// Qt::DecorationRole is the run's colour (theme::runColour(number), as in the charts); warm-up
// rows are muted and a "not comparable" cell is in the error colour (theme::Role), as are the
// seconds ("⚠ 1.23") and contended cells of a contended epoch, whose tooltip says what the
// epoch got from the machine (describeLoad, contention.h), and the seconds and machine speed
// cells of an epoch whose machine changed speed (its tooltip: the canary's change and noise).
// A header's tooltip names the CSV column the values are from, with its unit.
class EpochTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    explicit EpochTableModel(const RunStore &store, QObject *parent = nullptr);

    // Re-reads the store: appends new rows with beginInsertRows, or resets when rows vanished.
    void refresh();

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const RunStore &m_store;
    std::vector<EpochRowRef> m_rows;
};

} // namespace devicebench
