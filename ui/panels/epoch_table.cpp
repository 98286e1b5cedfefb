// SPDX-License-Identifier: MIT
#include "panels/epoch_table.h"
#include "panels/epoch_table_tips.h"

#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/machine_drift.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>
#include <QPalette>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>

namespace devicebench {

EpochColumn epochTableColumn(int section) {
    return kEpochTableColumns[static_cast<std::size_t>(section)].key;
}

const EpochTableColumn &epochTableEntry(EpochColumn column) {
    for (const EpochTableColumn &entry : kEpochTableColumns) {
        if (entry.key == column)
            return entry;
    }
    return kEpochTableColumns[0]; // not reached: every column is in the table (ui tests)
}

int epochTableSection(EpochColumn column) {
    return static_cast<int>(&epochTableEntry(column) - std::begin(kEpochTableColumns));
}

QString epochColumnKey(EpochColumn column) {
    return QString::fromLatin1(epochTableEntry(column).csvColumn);
}

std::vector<EpochRowRef> epochRows(const RunStore &store) {
    std::vector<EpochRowRef> rows;
    for (int r = 0; r < store.runCount(); ++r) {
        const int epochs = static_cast<int>(store.run(r).record.epochs.size());
        for (int e = 0; e < epochs; ++e)
            rows.push_back({r, e});
    }
    return rows;
}

EpochCsvRow epochCsvRow(const StoredRun &run, const EpochResult &epoch) {
    const bool warmup = run.isWarmup(epoch.epoch);
    return {run.record, epoch, run.label.toStdString(), run.state, warmup, run.differences};
}

namespace {

const QString kUnknown = QStringLiteral("–");

// The per-epoch CSV's column of each section, looked up once.
const CsvColumn<EpochCsvRow> &csvColumnOf(int section) {
    static const auto columns = [] {
        std::array<const CsvColumn<EpochCsvRow> *, kEpochTableShownColumns> found{};
        for (std::size_t s = 0; s < found.size(); ++s)
            found[s] = &epochCsvColumn(kEpochTableColumns[s].csvColumn);
        return found;
    }();
    return *columns[static_cast<std::size_t>(section)];
}

// A number column's value of `row`; none for a text column.
std::optional<double> valueOf(const CsvColumn<EpochCsvRow> &column, const EpochCsvRow &row) {
    return column.isNumber() ? column.value(row) : std::nullopt;
}

// `value` with `decimals`; "–" when not known or not finite. QString::number always uses the C
// locale: '.' as decimal point, no group separators.
QString fixed(std::optional<double> value, int decimals) {
    if (!value || !std::isfinite(*value))
        return kUnknown;
    return QString::number(*value, 'f', decimals);
}

// The seconds of an epoch that was not the device's alone (a busy machine, or one that changed
// speed) are marked.
bool secondsMarked(const EpochResult &epoch) { return epoch.load.contended || epoch.speedChanged; }

QString comparableText(const StoredRun &run) {
    if (run.isBaseline)
        return QStringLiteral("baseline");
    return run.comparable() ? QStringLiteral("yes")
                            : QStringLiteral("no: ") + differencesText(run, QStringLiteral(", "));
}

// The text of section `entry`'s cell: its CSV column's value of `row`, shown for reading.
QString shown(const EpochTableColumn &entry, const CsvColumn<EpochCsvRow> &csv,
              const StoredRun &run, const EpochResult &epoch) {
    const EpochCsvRow row = epochCsvRow(run, epoch);
    const std::optional<double> value = valueOf(csv, row);
    switch (entry.display) {
    case CellDisplay::Text:
        return QString::fromStdString(csv.cell(row));
    case CellDisplay::Fixed:
        return fixed(value, entry.decimals);
    case CellDisplay::Seconds:
        return (secondsMarked(epoch) ? QStringLiteral("⚠ ") : QString()) +
               fixed(value, entry.decimals);
    case CellDisplay::Percent:
        return value && std::isfinite(*value)
                   ? QString::number(100.0 * *value, 'f', entry.decimals) + QStringLiteral(" %")
                   : kUnknown;
    case CellDisplay::Bytes:
        return value && std::isfinite(*value) ? bytesText(*value) : kUnknown;
    case CellDisplay::Joules:
        if (value && std::isfinite(*value))
            return joulesText(*value);
        return epoch.system.sampled ? QStringLiteral("n/a") : kUnknown;
    case CellDisplay::Yes:
        return csv.cell(row) == "1" ? QStringLiteral("yes") : QString();
    case CellDisplay::Comparable:
        return comparableText(run);
    case CellDisplay::MachineSpeed:
        return epoch.speedChanged ? QString::fromStdString(describeCanaryChange(epoch.canaryChange))
                                  : QString();
    }
    return QString();
}

} // namespace

QString epochCell(const StoredRun &run, const EpochResult &epoch, EpochColumn column) {
    return shown(epochTableEntry(column), csvColumnOf(epochTableSection(column)), run, epoch);
}

namespace {

// The ForegroundRole of one cell.
QVariant cellForeground(const StoredRun &run, const EpochResult &epoch, EpochColumn column) {
    const theme::Theme shownTheme = theme::themeOf(QGuiApplication::palette()); // light/dark
    // A run that is not comparable with the baseline: its comparability cell in red.
    if (column == EpochColumn::Comparable && !run.comparable())
        return QBrush(theme::colour(theme::Role::ErrorText, shownTheme));
    // An epoch measured on a busy machine, or on one whose speed changed: its time and its mark
    // in red.
    if ((column == EpochColumn::Seconds && secondsMarked(epoch)) ||
        (column == EpochColumn::Contended && epoch.load.contended) ||
        (column == EpochColumn::SpeedChanged && epoch.speedChanged))
        return QBrush(theme::colour(theme::Role::ErrorText, shownTheme));
    // Warm-up epochs are kept but left out of the headline: show them greyed.
    if (run.isWarmup(epoch.epoch))
        return QBrush(theme::colour(theme::Role::MutedText, shownTheme));
    return QVariant();
}

} // namespace

EpochTableModel::EpochTableModel(const RunStore &store, QObject *parent)
    : QAbstractTableModel(parent), m_store(store) {
    m_rows = epochRows(m_store);
}

void EpochTableModel::refresh() {
    std::vector<EpochRowRef> rows = epochRows(m_store);
    const bool grows =
        rows.size() >= m_rows.size() && std::equal(m_rows.begin(), m_rows.end(), rows.begin());
    if (!grows) {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
        return;
    }
    if (!m_rows.empty()) // labels or states may have changed
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    if (rows.size() > m_rows.size()) {
        beginInsertRows(QModelIndex(), rowCount(), static_cast<int>(rows.size()) - 1);
        m_rows = std::move(rows);
        endInsertRows();
    }
}

int EpochTableModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int EpochTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : kEpochTableShownColumns;
}

QVariant EpochTableModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return QVariant();
    const EpochRowRef ref = m_rows[static_cast<std::size_t>(index.row())];
    if (ref.runIndex >= m_store.runCount())
        return QVariant();
    const StoredRun &run = m_store.run(ref.runIndex);
    if (ref.epochIndex >= static_cast<int>(run.record.epochs.size()))
        return QVariant();
    const EpochResult &epoch = run.record.epochs[static_cast<std::size_t>(ref.epochIndex)];
    const EpochTableColumn &entry = kEpochTableColumns[static_cast<std::size_t>(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return shown(entry, csvColumnOf(index.column()), run, epoch);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            Qt::Alignment((entry.leftAligned ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    case Qt::ForegroundRole:
        return cellForeground(run, epoch, entry.key);
    case Qt::DecorationRole:
        // The run's colour beside its label, as in the charts' legend and bars.
        if (entry.key == EpochColumn::Run)
            return theme::runColour(run.number);
        return QVariant();
    case Qt::ToolTipRole:
        return epochCellToolTip(run, epoch, entry.key);
    default:
        return QVariant();
    }
}

QVariant EpochTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical)
        return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    if (orientation != Qt::Horizontal || section < 0 || section >= kEpochTableShownColumns)
        return QVariant();
    const EpochTableColumn &entry = kEpochTableColumns[static_cast<std::size_t>(section)];
    if (role == Qt::DisplayRole)
        return QString::fromLatin1(entry.title);
    if (role != Qt::ToolTipRole)
        return QVariant();
    // Where the values are in the exported per-epoch CSV, and in what unit.
    const CsvColumn<EpochCsvRow> &csv = csvColumnOf(section);
    const QString unit = QString::fromStdString(csv.unit);
    const QString text = QStringLiteral("CSV column %1").arg(QString::fromStdString(csv.name));
    return unit.isEmpty() ? text : text + QStringLiteral(" (%1)").arg(unit);
}

} // namespace devicebench
