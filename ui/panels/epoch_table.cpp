// SPDX-License-Identifier: MIT
#include "panels/epoch_table.h"
#include "panels/epoch_table_tips.h"

#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/contention.h"
#include "devicebench/machine_drift.h"
#include "devicebench/system_metrics.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>
#include <QPalette>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace devicebench {

QString epochColumnKey(EpochColumn column) {
    switch (column) {
    case EpochColumn::Run:
        return QStringLiteral("run");
    case EpochColumn::Device:
        return QStringLiteral("device");
    case EpochColumn::Threads:
        return QStringLiteral("threads");
    case EpochColumn::Epoch:
        return QStringLiteral("epoch");
    case EpochColumn::Seconds:
        return QStringLiteral("seconds");
    case EpochColumn::Warmup:
        return QStringLiteral("warmup");
    case EpochColumn::TrainLoss:
        return QStringLiteral("train_loss");
    case EpochColumn::TestLoss:
        return QStringLiteral("test_loss");
    case EpochColumn::TestAccuracy:
        return QStringLiteral("test_accuracy");
    case EpochColumn::ImagesPerSecond:
        return QStringLiteral("images_per_s");
    case EpochColumn::Data:
        return QStringLiteral("data");
    case EpochColumn::Status:
        return QStringLiteral("status");
    case EpochColumn::Host:
        return QStringLiteral("host");
    case EpochColumn::Comparable:
        return QStringLiteral("comparable");
    case EpochColumn::Differences:
        return QStringLiteral("differences");
    case EpochColumn::Contended:
        return QStringLiteral("contended");
    case EpochColumn::SpeedChanged:
        return QStringLiteral("speed_changed");
    case EpochColumn::CpuCores:
        return QStringLiteral("cpu_cores");
    case EpochColumn::PeakMemory:
        return QStringLiteral("peak_memory_bytes");
    case EpochColumn::Energy:
        return QStringLiteral("energy_j");
    }
    return QString();
}

EpochColumn epochTableColumn(int section) {
    // The comparability right after the run, where it is seen without scrolling.
    if (section == 1)
        return EpochColumn::Comparable;
    // After images/s: the two marks of a machine that was not itself, contended the last.
    if (section == kEpochTableShownColumns - 1)
        return EpochColumn::Contended;
    if (section == kEpochTableShownColumns - 2)
        return EpochColumn::SpeedChanged;
    // After images/s: what the machine did (cores, memory, energy).
    constexpr int kImagesSection = static_cast<int>(EpochColumn::ImagesPerSecond) + 1;
    if (section > kImagesSection)
        return static_cast<EpochColumn>(static_cast<int>(EpochColumn::CpuCores) + section -
                                        kImagesSection - 1);
    return static_cast<EpochColumn>(section < 1 ? section : section - 1);
}

QString epochColumnTitle(EpochColumn column) {
    switch (column) {
    case EpochColumn::Seconds:
        return QStringLiteral("seconds");
    case EpochColumn::Warmup:
        return QStringLiteral("warm-up");
    case EpochColumn::TrainLoss:
        return QStringLiteral("train loss");
    case EpochColumn::TestLoss:
        return QStringLiteral("test loss");
    case EpochColumn::TestAccuracy:
        return QStringLiteral("test accuracy");
    case EpochColumn::ImagesPerSecond:
        return QStringLiteral("images/s");
    case EpochColumn::SpeedChanged:
        return QStringLiteral("machine speed");
    case EpochColumn::CpuCores:
        return QStringLiteral("CPU cores");
    case EpochColumn::PeakMemory:
        return QStringLiteral("peak memory");
    case EpochColumn::Energy:
        return QStringLiteral("energy");
    default:
        return epochColumnKey(column);
    }
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

namespace {

QString number(double value, int csvDecimals, int displayDecimals, CellFormat format) {
    if (!std::isfinite(value)) {
        if (format == CellFormat::Display)
            return QStringLiteral("–");
        if (std::isnan(value))
            return QStringLiteral("nan");
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    }
    // QString::number always uses the C locale: '.' as decimal point, no group separators.
    return QString::number(value, 'f', format == CellFormat::Csv ? csvDecimals : displayDecimals);
}

// The seconds of an epoch that was not the device's alone (a busy machine, or one that changed
// speed) are marked.
bool secondsMarked(const EpochResult &epoch) { return epoch.load.contended || epoch.speedChanged; }

// The text of the CPU cores, peak memory and energy cells.
QString systemCell(const EpochSystem &system, EpochColumn column, CellFormat format) {
    const bool csv = format == CellFormat::Csv;
    if (!system.sampled)
        return csv ? QString() : QStringLiteral("–");
    switch (column) {
    case EpochColumn::CpuCores:
        if (!system.processCores.known())
            return csv ? QString() : QStringLiteral("–");
        return number(system.processCores.mean, 3, 1, format);
    case EpochColumn::PeakMemory:
        if (!system.rssBytes.known())
            return csv ? QString() : QStringLiteral("–");
        return csv ? number(system.rssBytes.peak, 0, 0, format) : bytesText(system.rssBytes.peak);
    case EpochColumn::Energy: {
        const double joules = epochJoules(system);
        if (!std::isfinite(joules))
            return csv ? QString() : QStringLiteral("n/a");
        return csv ? number(joules, 1, 1, format) : joulesText(joules);
    }
    default:
        return QString();
    }
}

} // namespace

QString differencesText(const StoredRun &run, const QString &separator) {
    QStringList fields;
    for (const std::string &field : run.differences)
        fields.append(QString::fromStdString(field));
    return fields.join(separator);
}

QString epochCell(const StoredRun &run, const EpochResult &epoch, EpochColumn column,
                  CellFormat format) {
    const bool csv = format == CellFormat::Csv;
    const RunRecord &record = run.record;
    switch (column) {
    case EpochColumn::Run:
        return run.label;
    case EpochColumn::Device:
        return QString::fromStdString(record.started.device.empty() ? record.config.device
                                                                    : record.started.device);
    case EpochColumn::Threads:
        return QString::number(record.started.threads);
    case EpochColumn::Epoch:
        return QString::number(epoch.epoch);
    case EpochColumn::Seconds:
        if (!csv && secondsMarked(epoch)) // a busy machine's epoch, or a changed one's
            return QStringLiteral("⚠ ") + number(epoch.seconds, 4, 2, format);
        return number(epoch.seconds, 4, 2, format);
    case EpochColumn::Warmup:
        if (csv)
            return run.isWarmup(epoch.epoch) ? QStringLiteral("1") : QStringLiteral("0");
        return run.isWarmup(epoch.epoch) ? QStringLiteral("yes") : QString();
    case EpochColumn::TrainLoss:
        return number(epoch.trainLoss, 6, 4, format);
    case EpochColumn::TestLoss:
        return number(epoch.testLoss, 6, 4, format);
    case EpochColumn::TestAccuracy:
        if (csv)
            return number(epoch.testAccuracy, 6, 6, format);
        return std::isfinite(epoch.testAccuracy)
                   ? QString::number(100.0 * epoch.testAccuracy, 'f', 1) + QStringLiteral(" %")
                   : QStringLiteral("–");
    case EpochColumn::ImagesPerSecond:
        return number(epoch.imagesPerSecond, 2, 0, format);
    case EpochColumn::Data:
        return (record.started.synthetic || record.config.synthetic) ? QStringLiteral("synthetic")
                                                                     : QStringLiteral("cifar-10");
    case EpochColumn::Status:
        return runStateName(run.state);
    case EpochColumn::Host:
        return QString::fromStdString(record.fingerprint.hostName);
    case EpochColumn::Comparable:
        if (csv)
            return run.comparable() ? QStringLiteral("1") : QStringLiteral("0");
        if (run.isBaseline)
            return QStringLiteral("baseline");
        return run.comparable()
                   ? QStringLiteral("yes")
                   : QStringLiteral("no: ") + differencesText(run, QStringLiteral(", "));
    case EpochColumn::Differences:
        return differencesText(run, QStringLiteral(";"));
    case EpochColumn::Contended:
        if (csv)
            return !epoch.load.measured   ? QString()
                   : epoch.load.contended ? QStringLiteral("1")
                                          : QStringLiteral("0");
        return epoch.load.contended ? QStringLiteral("yes") : QString();
    case EpochColumn::SpeedChanged:
        if (csv)
            return !epoch.canary.measured ? QString()
                   : epoch.speedChanged   ? QStringLiteral("1")
                                          : QStringLiteral("0");
        return epoch.speedChanged ? QString::fromStdString(describeCanaryChange(epoch.canaryChange))
                                  : QString();
    case EpochColumn::CpuCores:
    case EpochColumn::PeakMemory:
    case EpochColumn::Energy:
        return systemCell(epoch.system, column, format);
    }
    return QString();
}

namespace {

// The ForegroundRole of one cell.
QVariant cellForeground(const StoredRun &run, const EpochResult &epoch, EpochColumn column) {
    const theme::Theme shown = theme::themeOf(QGuiApplication::palette()); // light/dark
    // A run that is not comparable with the baseline: its comparability cell in red.
    if (column == EpochColumn::Comparable && !run.comparable())
        return QBrush(theme::colour(theme::Role::ErrorText, shown));
    // An epoch measured on a busy machine, or on one whose speed changed: its time and its mark
    // in red.
    if ((column == EpochColumn::Seconds && secondsMarked(epoch)) ||
        (column == EpochColumn::Contended && epoch.load.contended) ||
        (column == EpochColumn::SpeedChanged && epoch.speedChanged))
        return QBrush(theme::colour(theme::Role::ErrorText, shown));
    // Warm-up epochs are kept but left out of the headline: show them greyed.
    if (run.isWarmup(epoch.epoch))
        return QBrush(theme::colour(theme::Role::MutedText, shown));
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
    const auto column = epochTableColumn(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return epochCell(run, epoch, column, CellFormat::Display);
    case Qt::TextAlignmentRole:
        if (column == EpochColumn::Run || column == EpochColumn::Device ||
            column == EpochColumn::Comparable)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ForegroundRole:
        return cellForeground(run, epoch, column);
    case Qt::DecorationRole:
        // The run's colour beside its label, as in the charts' legend and bars.
        if (column == EpochColumn::Run)
            return theme::runColour(run.number);
        return QVariant();
    case Qt::ToolTipRole:
        return epochCellToolTip(run, epoch, column);
    default:
        return QVariant();
    }
}

QVariant EpochTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole)
        return QVariant();
    if (orientation == Qt::Horizontal && section >= 0 && section < kEpochTableShownColumns)
        return epochColumnTitle(epochTableColumn(section));
    if (orientation == Qt::Vertical)
        return section + 1;
    return QVariant();
}

} // namespace devicebench
