// SPDX-License-Identifier: MIT
// SweepPanel (sweep_panel.h): the records it shows, the baseline, Open folder, the exports and
// the settings.
#include "sweep/sweep_panel.h"

#include "charts/sweep_chart.h"
#include "charts/sweep_heat_map.h"
#include "export/sweep_export.h"
#include "sweep/sweep_form.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

namespace devicebench {

namespace {

const QString kFolder = QStringLiteral("sweep/folder");

} // namespace

QString SweepPanel::folder() const { return m_folderEdit->text().trimmed(); }

void SweepPanel::setFolder(const QString &folder) { m_folderEdit->setText(folder); }

bool SweepPanel::openFolder(const QString &folder, QStringList *errors) {
    QStringList problems;
    std::vector<SweepCellRecord> records;
    if (!QFileInfo(folder).isDir()) {
        problems.append(QStringLiteral("%1 is not a folder").arg(QDir::toNativeSeparators(folder)));
    } else {
        std::vector<std::string> skipped;
        try {
            records = loadSweepFolder(folder.toStdString(), &skipped);
        } catch (const std::exception &e) { // an unreadable folder
            problems.append(QString::fromUtf8(e.what()));
        }
        for (const std::string &message : skipped)
            problems.append(QString::fromStdString(message));
        setFolder(folder);
    }
    setRecords(records);
    if (!records.empty())
        m_form->setSpec(sweepSpecOf(records)); // "Run sweep" then resumes that grid
    if (problems.isEmpty()) {
        showMessage(QString(), false);
        Q_EMIT statusMessage(QStringLiteral("Opened %1: %2 cells")
                                 .arg(QDir::toNativeSeparators(folder))
                                 .arg(records.size()),
                             false);
    } else {
        showMessage(QStringLiteral("Opened %1 cells; ").arg(records.size()) +
                        problems.join(QStringLiteral("; ")),
                    true);
    }
    if (errors != nullptr)
        *errors = problems;
    return problems.isEmpty();
}

void SweepPanel::setRecords(const std::vector<SweepCellRecord> &records) {
    m_records = records;
    redraw();
    updateButtons();
}

void SweepPanel::redraw() {
    // The baseline's choices: the records' devices; the chosen one kept while it is there.
    const QStringList devices = sweepDeviceLabels(m_records);
    const QString chosen = m_baselineCombo->currentText();
    {
        const QSignalBlocker blocker(m_baselineCombo);
        QStringList items;
        for (int i = 0; i < m_baselineCombo->count(); ++i)
            items.append(m_baselineCombo->itemText(i));
        if (items != devices) {
            m_baselineCombo->clear();
            m_baselineCombo->addItems(devices);
            m_baselineCombo->setCurrentIndex(
                static_cast<int>(std::max<qsizetype>(0, devices.indexOf(chosen))));
        }
    }
    syncMeasures();
    m_chart->sync(m_records);
    const QString note = m_chart->leftOutNote();
    m_noteLabel->setText(note);
    m_noteLabel->setVisible(!note.isEmpty());
    m_heatMap->setTable(heatMapTable());
}

void SweepPanel::syncMeasures() {
    // Speed-up always; a gain over fp32 per other precision the records hold. The chosen one
    // is kept while it is there.
    QStringList wanted{QStringLiteral("speedup")};
    for (const Precision precision : sweepGainPrecisions(m_records))
        wanted.append(QString::fromUtf8(shortName(precision)));
    QStringList shown;
    for (int i = 0; i < m_measureCombo->count(); ++i)
        shown.append(m_measureCombo->itemData(i).toString());
    if (shown == wanted)
        return;
    const QString chosen = m_measureCombo->currentData().toString();
    const QSignalBlocker blocker(m_measureCombo);
    while (m_measureCombo->count() > 1)
        m_measureCombo->removeItem(1);
    for (qsizetype i = 1; i < wanted.size(); ++i)
        m_measureCombo->addItem(wanted[i] + QStringLiteral(" over fp32"), wanted[i]);
    m_measureCombo->setCurrentIndex(std::max(0, m_measureCombo->findData(chosen)));
    m_baselineCombo->setEnabled(m_measureCombo->currentIndex() == 0);
}

SpeedUpTable SweepPanel::heatMapTable() const {
    Precision precision = Precision::Float32;
    if (parsePrecision(m_measureCombo->currentData().toString().toStdString(), &precision))
        return precisionGainTable(m_records, precision);
    return speedUpTable(m_records, baseline());
}

bool SweepPanel::setBaseline(const QString &label) {
    const int index = m_baselineCombo->findText(label);
    if (index < 0)
        return false;
    m_baselineCombo->setCurrentIndex(index); // redraws the heat map when it changes
    return true;
}

QString SweepPanel::baseline() const { return m_baselineCombo->currentText(); }

bool SweepPanel::exportPng(const QString &path, QString *error) const {
    return exportSweepPng(m_records, baseline(), path, error);
}

bool SweepPanel::exportCsv(const QString &path, QString *error) const {
    std::string message;
    if (writeSweepCsv(m_records, baseline().toStdString(), path.toStdString(), &message))
        return true;
    if (error != nullptr)
        *error = QString::fromStdString(message);
    return false;
}

void SweepPanel::exportPngInteractive() {
    const QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Export the sweep as PNG"),
        QDir(folder()).filePath(QStringLiteral("sweep.png")), QStringLiteral("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportPng(path, &error))
        Q_EMIT statusMessage(QStringLiteral("Saved %1").arg(QDir::toNativeSeparators(path)), false);
    else
        QMessageBox::warning(this, QStringLiteral("Export PNG"), error);
}

void SweepPanel::exportCsvInteractive() {
    const QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Export the sweep as CSV (one row per cell)"),
        QDir(folder()).filePath(QStringLiteral("sweep.csv")), QStringLiteral("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportCsv(path, &error))
        Q_EMIT statusMessage(QStringLiteral("Saved %1").arg(QDir::toNativeSeparators(path)), false);
    else
        QMessageBox::warning(this, QStringLiteral("Export CSV"), error);
}

void SweepPanel::saveSettings(QSettings &settings) const {
    m_form->saveSettings(settings);
    settings.setValue(kFolder, folder());
}

void SweepPanel::restoreSettings(const QSettings &settings) {
    m_form->restoreSettings(settings);
    const QString saved = settings.value(kFolder).toString().trimmed();
    if (!saved.isEmpty())
        setFolder(saved);
}

} // namespace devicebench
