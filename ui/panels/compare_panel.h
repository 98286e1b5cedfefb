// SPDX-License-Identifier: MIT
// The compare / export panel: the warm-up epochs left out of every run's stable mean, the
// baseline of the speed-ups, "Export PNG…" and "Export CSV…", and under them, in the error
// colour, what the machine's speed did to the comparison (machineSpeedNotes,
// comparison_export.h). A "Published results" check box (on by default) draws the published
// results (the article's table and the user's own files, devicebench/published.h) beside the
// runs in the bar chart and the exported PNG. It edits the RunStore's comparison settings and
// writes exports; it starts nothing. Under the check box, the two programs' ratio
// (programRatioLines, published_bars.h: "DeviceBench's faithful workload: 0.79 x the article's
// script on ..."), hidden when no script run has a faithful partner in view. Under the export
// buttons each run's cost line (costLine, cost.h: per stable epoch, per 10-epoch run, images per
// unit of money) at the store's prices, its source in the tooltip.
#pragma once

#include "charts/charts.h" // ChartOptions

#include <QString>
#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace devicebench {

class RunStore;

// Object names (tests): compareWarmupSpin, baselineCombo, exportPngButton, exportCsvButton,
// exportHtmlButton,
// machineSpeedNotesLabel, publishedCheck, programRatiosLabel, costLabel.
class ComparePanel : public QWidget {
    Q_OBJECT

public:
    // `store` must outlive the panel.
    explicit ComparePanel(RunStore &store, QWidget *parent = nullptr);

    // Rebuilds the baseline list when the runs or their labels changed (keeps the choice), and
    // the machine speed notes.
    void syncRuns();

    // How "Export PNG…" draws the loss chart: the window's chart options (smoothing, axes).
    void setChartOptions(const ChartOptions &options) { m_chartOptions = options; }
    // Export buttons enabled when `enabled` (results exist and no run is going).
    void setExportEnabled(bool enabled);

    // "Export PNG…" / "Export CSV…" with a file dialog; the outcome as statusMessage.
    void exportPngInteractive();
    void exportCsvInteractive();
    // "Export HTML…": the report page (exportComparisonHtml) with a file dialog.
    void exportHtmlInteractive();

    // Reads the published results (loadPublished(publishedFolders(extraDir))) into the store.
    // A file that cannot be read is skipped and named once, in statusMessage and the log; with
    // no built-in file, the check box is disabled and its tooltip says where it looked.
    void loadPublished(const QString &extraDir = QString());

    QCheckBox *publishedCheck() const { return m_publishedCheck; }
    QSpinBox *warmupSpin() const { return m_warmupSpin; }
    QPushButton *exportPngButton() const { return m_exportPngButton; }
    QPushButton *exportCsvButton() const { return m_exportCsvButton; }
    QPushButton *exportHtmlButton() const { return m_exportHtmlButton; }
    // The machine speed notes (hidden when there are none).
    QLabel *machineSpeedNotesLabel() const { return m_notes; }
    // The two programs' ratio lines (hidden when there are none).
    QLabel *programRatiosLabel() const { return m_ratios; }
    // Each run's cost line, "#1 cost: ...", without what it rests on (hidden with no runs).
    QLabel *costLabel() const { return m_costs; }

Q_SIGNALS:
    void statusMessage(QString text, bool error);

private:
    // A save dialog's texts: its title, the file name offered in the home folder, the filter,
    // and the title of the warning when writing fails.
    struct ExportDialog {
        QString title, fileName, filter, failure;
    };
    // The dialog, then `write(path, &error)`: "Saved <path>" as statusMessage, or a warning.
    void exportFileInteractive(const ExportDialog &dialog,
                               const std::function<bool(const QString &, QString *)> &write);
    // The row of export buttons (PNG, CSV, HTML), made in `box`.
    QHBoxLayout *makeExportRow(QWidget *box);
    void syncNotes(); // the machine speed notes and the programs' ratios from the store
    void syncCosts(); // the cost lines

    RunStore &m_store;
    ChartOptions m_chartOptions;
    QSpinBox *m_warmupSpin = nullptr;
    QComboBox *m_baselineCombo = nullptr;
    QCheckBox *m_publishedCheck = nullptr;
    QPushButton *m_exportPngButton = nullptr;
    QPushButton *m_exportHtmlButton = nullptr;
    QPushButton *m_exportCsvButton = nullptr;
    QLabel *m_notes = nullptr;
    QLabel *m_ratios = nullptr;
    QLabel *m_costs = nullptr;
};

} // namespace devicebench
