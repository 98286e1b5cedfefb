// SPDX-License-Identifier: MIT
// The epoch table: one row per run and finished epoch. The same rows and cells feed the
// window's QTableView and the CSV export (one source, two formats).
#pragma once

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace devicebench {

class RunStore;
struct StoredRun;
struct EpochResult;

// Columns in CSV order (the first twelve are the original export's, unchanged; new columns
// come after them). The window's table shows kEpochTableShownColumns of them, see
// epochTableColumn().
enum class EpochColumn {
    Run,             // run label
    Device,          // canonical device ("cpu", "cuda:0")
    Threads,         // intra-op threads in use
    Epoch,           // from 1
    Seconds,         // wall time of training + test pass (s)
    Warmup,          // CSV 1/0; table "yes"/""
    TrainLoss,       // nats
    TestLoss,        // nats
    TestAccuracy,    // CSV fraction 0..1; table percent
    ImagesPerSecond, // (train + test images) / seconds
    Data,            // "cifar-10" or "synthetic"
    Status,          // run state: running/finished/cancelled/diverged/failed/interrupted
    Host,            // host name of the machine the run ran on (fingerprint)
    Comparable,   // same workload as the baseline: CSV 1/0; table "baseline"/"yes"/"no: <fields>"
    Differences,  // workload fields differing from the baseline, joined by ';' (comparison.h)
    Contended,    // the epoch ran on a busy machine (EpochLoad, contention.h): CSV 1/0, "" when
                  // not measured; table "yes"/"" (the seconds cell is marked too)
    SpeedChanged, // the machine's speed changed (the canary, machine_drift.h): CSV 1/0, "" when
                  // the epoch has no canary; table "canary +22 %"/"" (seconds cell marked too)
    // What the machine did during the epoch (EpochSystem, system_metrics.h); "" in CSV and "–"
    // in the table for an epoch that was not sampled:
    CpuCores,   // mean CPU cores the run's processes kept busy: CSV %.3f, table "3.2"
    PeakMemory, // peak resident memory of the run's processes: CSV bytes, table "812 MiB" or
                // "1.25 GiB"
    Energy,     // the epoch's joules (epochJoules): CSV %.1f ("" when not measured), table
                // "850 J" or "12.3 kJ", "n/a" when not measured (the tooltip says why)
};
inline constexpr int kEpochColumnCount = 20;
inline constexpr int kEpochTableShownColumns = 16;

// Column shown in table section `section` (0 <= section < kEpochTableShownColumns): run (whose
// label names device and host), comparable, then device ... images/s, CPU cores, peak memory,
// energy, then machine speed and contended, the last.
EpochColumn epochTableColumn(int section);

enum class CellFormat {
    Csv,     // C locale, enough digits (seconds %.4f, losses %.6f, accuracy %.6f fraction)
    Display, // rounded for reading (seconds %.2f, losses %.4f, accuracy in percent)
};

// CSV header name ("run", "device", ..., "images_per_s", "data", "status").
QString epochColumnKey(EpochColumn column);
// Table header ("run", "device", ..., "images/s").
QString epochColumnTitle(EpochColumn column);

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

// The workload fields in which `run` differs from the baseline, joined by `separator`.
QString differencesText(const StoredRun &run, const QString &separator);

// The text of one cell. Non-finite numbers: "nan"/"inf"/"-inf" in CSV, "–" in Display.
// Warm-up follows the store's warm-up setting (StoredRun::isWarmup), not the recorded flag.
QString epochCell(const StoredRun &run, const EpochResult &epoch, EpochColumn column,
                  CellFormat format);

// Read-only table model over a RunStore, refreshed explicitly (the window calls refresh()
// from its coalescing timer). The store must outlive the model. Colours: the run column's
// Qt::DecorationRole is the run's colour (theme::runColour(number), as in the charts); warm-up
// rows are muted and a "not comparable" cell is in the error colour (theme::Role), as are the
// seconds ("⚠ 1.23") and contended cells of a contended epoch, whose tooltip says what the
// epoch got from the machine (describeLoad, contention.h), and the seconds and machine speed
// cells of an epoch whose machine changed speed (its tooltip: the canary's change and noise).
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
