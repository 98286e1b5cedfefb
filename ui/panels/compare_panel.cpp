// SPDX-License-Identifier: MIT
#include "panels/compare_panel.h"

#include "charts/published_bars.h"
#include "export/comparison_export.h"
#include "panels/run_settings_panel.h" // makeSpin
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/cost.h"
#include "devicebench/published.h"
#include "devicebench/resource_files.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QList>
#include <QMessageBox>
#include <QPair>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <string>

namespace devicebench {

namespace {

QString publishedToolTip() {
    const std::string user = userDataDir();
    return QStringLiteral("Draws the published results beside your runs, as hatched bars: the "
                          "article's table, and your own reference files in %1. Never the "
                          "baseline; the hover says whether a run is like for like.")
        .arg(user.empty() ? QStringLiteral("$XDG_DATA_HOME/devicebench/published")
                          : QString::fromStdString(user + "/published"));
}

} // namespace

ComparePanel::ComparePanel(RunStore &store, QWidget *parent) : QWidget(parent), m_store(store) {
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *box = new QGroupBox(QStringLiteral("Compare and export"), this);
    outer->addWidget(box);
    auto *layout = new QVBoxLayout(box);
    auto *form = new QFormLayout;
    m_warmupSpin = makeSpin(box, "compareWarmupSpin", -1, 999, -1,
                            QStringLiteral("Warm-up epochs left out of every run's stable mean; "
                                           "re-derives everything without re-running"));
    m_warmupSpin->setSpecialValueText(QStringLiteral("each run's own"));
    m_baselineCombo = new QComboBox(box);
    m_baselineCombo->setObjectName(QStringLiteral("baselineCombo"));
    m_baselineCombo->setToolTip(
        QStringLiteral("Speed-ups are this run's stable mean over each run's; runs whose "
                       "workload differs from it are flagged not comparable"));
    m_baselineCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_baselineCombo->setMinimumContentsLength(14);
    m_baselineCombo->addItem(QStringLiteral("slowest run"), 0);
    form->addRow(QStringLiteral("Warm-up epochs"), m_warmupSpin);
    form->addRow(QStringLiteral("Baseline"), m_baselineCombo);
    layout->addLayout(form);
    m_publishedCheck = new QCheckBox(QStringLiteral("Published results"), box);
    m_publishedCheck->setObjectName(QStringLiteral("publishedCheck"));
    m_publishedCheck->setChecked(m_store.publishedShown());
    m_publishedCheck->setToolTip(publishedToolTip());
    layout->addWidget(m_publishedCheck);
    m_ratios = new QLabel(box);
    m_ratios->setObjectName(QStringLiteral("programRatiosLabel"));
    m_ratios->setWordWrap(true);
    m_ratios->setTextFormat(Qt::PlainText);
    m_ratios->setToolTip(
        QStringLiteral("An article's-script run and a faithful run of the same settings on the "
                       "same device: the faithful run's stable mean over the script's, the "
                       "share of the script's time DeviceBench's engine takes"));
    m_ratios->setVisible(false);
    layout->addWidget(m_ratios);

    layout->addLayout(makeExportRow(box));
    auto *note = new QLabel(
        QStringLiteral("Export CSV writes FILE.csv (per epoch) and FILE-summary.csv (per run)."),
        box);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText); // muted on light and dark
    layout->addWidget(note);
    m_costs = new QLabel(box);
    m_costs->setObjectName(QStringLiteral("costLabel"));
    m_costs->setWordWrap(true);
    m_costs->setTextFormat(Qt::PlainText);
    m_costs->setVisible(false);
    layout->addWidget(m_costs);
    m_notes = new QLabel(box);
    m_notes->setObjectName(QStringLiteral("machineSpeedNotesLabel"));
    m_notes->setWordWrap(true);
    m_notes->setTextFormat(Qt::RichText);
    m_notes->setVisible(false);
    layout->addWidget(m_notes);

    connect(m_exportPngButton, &QPushButton::clicked, this, &ComparePanel::exportPngInteractive);
    connect(m_exportCsvButton, &QPushButton::clicked, this, &ComparePanel::exportCsvInteractive);
    connect(m_exportHtmlButton, &QPushButton::clicked, this, &ComparePanel::exportHtmlInteractive);
    connect(m_publishedCheck, &QCheckBox::toggled, this,
            [this](bool on) { m_store.setPublishedShown(on); });
    connect(m_warmupSpin, qOverload<int>(&QSpinBox::valueChanged), this,
            [this](int value) { m_store.setWarmupEpochs(value); });
    connect(m_baselineCombo, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int index) {
                if (index >= 0)
                    m_store.setBaseline(m_baselineCombo->itemData(index).toInt());
            });
}

void ComparePanel::loadPublished(const QString &extraDir) {
    PublishedLoad load = devicebench::loadPublished(publishedFolders(extraDir.toStdString()));
    QStringList skipped;
    for (const std::string &problem : load.problems) {
        skipped.append(QStringLiteral("skipped ") + QString::fromStdString(problem));
        qWarning("devicebench: published results: %s", qUtf8Printable(skipped.back()));
    }
    if (!skipped.isEmpty())
        Q_EMIT statusMessage(
            QStringLiteral("Published results: ") + skipped.join(QStringLiteral("; ")), true);
    m_publishedCheck->setEnabled(load.builtInFound);
    if (load.builtInFound) {
        m_store.setPublished(std::move(load.sets));
        m_publishedCheck->setToolTip(publishedToolTip());
        return;
    }
    // A build or bundle without its data files: nothing to draw (as the CLI's run says nothing).
    m_store.setPublished({});
    const std::string dir = resourceDir();
    m_publishedCheck->setToolTip(
        QStringLiteral("No built-in published results: none found in %1 (set %2 to the folder "
                       "that holds published/)")
            .arg(dir.empty() ? QStringLiteral("(the program's folder could not be read)")
                             : QString::fromStdString(dir + "/published"),
                 QString::fromUtf8(kResourcesVariable)));
}

void ComparePanel::syncNotes() {
    const QStringList notes = machineSpeedNotes(m_store);
    QStringList lines;
    for (const QString &note : notes)
        lines.append(QStringLiteral("⚠ ") + note.toHtmlEscaped());
    const QString text =
        notes.isEmpty() ? QString()
                        : QStringLiteral("<span style=\"color:%1\">%2</span>")
                              .arg(theme::colourName(theme::Role::ErrorText,
                                                     theme::themeOf(QGuiApplication::palette())),
                                   lines.join(QStringLiteral("<br>")));
    if (m_notes->text() != text)
        m_notes->setText(text);
    m_notes->setVisible(!notes.isEmpty());
    const QStringList ratios = programRatioLines(m_store);
    const QString ratioText = ratios.join(QLatin1Char('\n'));
    if (m_ratios->text() != ratioText)
        m_ratios->setText(ratioText);
    m_ratios->setVisible(!ratios.isEmpty());
}

void ComparePanel::syncCosts() {
    QStringList lines;
    QStringList full;
    for (const StoredRun &run : m_store.runs()) {
        const QString line = QString::fromStdString(costLine(run.cost));
        // The figures here; what they rest on (the price's source, often a long page) in the
        // tooltip and the bar's hover.
        lines.append(
            QStringLiteral("#%1 %2").arg(run.number).arg(line.section(QStringLiteral("; "), 0, 0)));
        full.append(QStringLiteral("#%1 %2").arg(run.number).arg(line));
    }
    const QString text = lines.join(QLatin1Char('\n'));
    if (m_costs->text() != text) {
        m_costs->setText(text);
        m_costs->setToolTip(full.join(QLatin1Char('\n')) +
                            QStringLiteral("\n\nPrices: Settings > Prices…"));
    }
    m_costs->setVisible(!lines.isEmpty());
}

void ComparePanel::syncRuns() {
    syncNotes();
    syncCosts();
    QList<QPair<int, QString>> items;
    for (const StoredRun &run : m_store.runs())
        items.append({run.id, run.label});
    bool same = m_baselineCombo->count() == items.size() + 1;
    for (qsizetype i = 0; same && i < items.size(); ++i) {
        const int comboIndex = static_cast<int>(i) + 1;
        same = m_baselineCombo->itemData(comboIndex).toInt() == items[i].first &&
               m_baselineCombo->itemText(comboIndex) == items[i].second;
    }
    if (same)
        return;
    const QSignalBlocker blocker(m_baselineCombo);
    m_baselineCombo->clear();
    m_baselineCombo->addItem(QStringLiteral("slowest run"), 0);
    for (const auto &item : items)
        m_baselineCombo->addItem(item.second, item.first);
    const int chosen = m_baselineCombo->findData(m_store.baselineSetting());
    m_baselineCombo->setCurrentIndex(chosen >= 0 ? chosen : 0);
}

QHBoxLayout *ComparePanel::makeExportRow(QWidget *box) {
    m_exportPngButton = new QPushButton(QStringLiteral("Export PNG…"), box);
    m_exportPngButton->setObjectName(QStringLiteral("exportPngButton"));
    m_exportPngButton->setToolTip(QStringLiteral("Both charts in one picture"));
    m_exportCsvButton = new QPushButton(QStringLiteral("Export CSV…"), box);
    m_exportCsvButton->setObjectName(QStringLiteral("exportCsvButton"));
    m_exportCsvButton->setToolTip(
        QStringLiteral("Writes FILE.csv (one row per epoch) and FILE-summary.csv beside it "
                       "(one row per run: statistics, speed-up, comparability, fingerprint)"));
    m_exportHtmlButton = new QPushButton(QStringLiteral("Export HTML…"), box);
    m_exportHtmlButton->setObjectName(QStringLiteral("exportHtmlButton"));
    m_exportHtmlButton->setToolTip(
        QStringLiteral("One self-contained page to share: the answer, the tables, interactive "
                       "charts and every run's settings; opens offline in any browser"));
    auto *exportRow = new QHBoxLayout;
    exportRow->addWidget(m_exportPngButton);
    exportRow->addWidget(m_exportCsvButton);
    exportRow->addWidget(m_exportHtmlButton);
    return exportRow;
}

void ComparePanel::setExportEnabled(bool enabled) {
    m_exportPngButton->setEnabled(enabled);
    m_exportCsvButton->setEnabled(enabled);
    m_exportHtmlButton->setEnabled(enabled);
}

void ComparePanel::exportFileInteractive(
    const ExportDialog &dialog, const std::function<bool(const QString &, QString *)> &write) {
    const QString path = QFileDialog::getSaveFileName(
        this, dialog.title, QDir::home().filePath(dialog.fileName), dialog.filter);
    if (path.isEmpty())
        return;
    QString error;
    if (write(path, &error))
        Q_EMIT statusMessage(QStringLiteral("Saved %1").arg(QDir::toNativeSeparators(path)), false);
    else
        QMessageBox::warning(this, dialog.failure, error);
}

void ComparePanel::exportHtmlInteractive() {
    exportFileInteractive({QStringLiteral("Export comparison as an HTML report"),
                           QStringLiteral("devicebench-report.html"),
                           QStringLiteral("HTML pages (*.html)"), QStringLiteral("Export HTML")},
                          [this](const QString &path, QString *error) {
                              return exportComparisonHtml(m_store, path, error);
                          });
}

void ComparePanel::exportPngInteractive() {
    exportFileInteractive({QStringLiteral("Export comparison as PNG"),
                           QStringLiteral("devicebench-comparison.png"),
                           QStringLiteral("PNG images (*.png)"), QStringLiteral("Export PNG")},
                          [this](const QString &path, QString *error) {
                              return exportComparisonPng(m_store, path, error, m_chartOptions,
                                                         systemPanesFor(m_store));
                          });
}

void ComparePanel::exportCsvInteractive() {
    const QString path = QFileDialog::getSaveFileName(
        this,
        QStringLiteral("Export CSV: FILE.csv per epoch, FILE-summary.csv per run and "
                       "FILE-groups.csv per group beside it"),
        QDir::home().filePath(QStringLiteral("devicebench-epochs.csv")),
        QStringLiteral("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportComparisonCsv(m_store, path, &error))
        Q_EMIT statusMessage(QStringLiteral("Saved ") + savedCsvFiles(path), false);
    else
        QMessageBox::warning(this, QStringLiteral("Export CSV"), error);
}

} // namespace devicebench
