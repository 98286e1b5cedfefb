// SPDX-License-Identifier: MIT
#include "panels/scaling_panel.h"

#include "charts/scaling_chart.h"
#include "store/run_store.h"
#include "theme/appearance.h"

#include <QChartView>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <vector>

namespace devicebench {

namespace {

QString number(double value, int decimals) {
    return std::isfinite(value) ? QString::number(value, 'f', decimals) : QStringLiteral("n/a");
}

QTableWidgetItem *cell(const QString &text, bool right) {
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (right)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

ScalingPanel::ScalingPanel(const RunStore &store, QWidget *parent)
    : QWidget(parent), m_store(store) {
    m_chart = new ScalingChart;
    m_view = new QChartView(m_chart); // the view owns the chart
    m_view->setObjectName(QStringLiteral("scalingChartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(320);
    applyChartTheme(m_chart, isDarkPalette(palette()));

    m_table = new QTableWidget(0, 7);
    m_table->setObjectName(QStringLiteral("scalingTable"));
    m_table->setHorizontalHeaderLabels(
        {QStringLiteral("Series"), QStringLiteral("World size"), QStringLiteral("images/s"),
         QStringLiteral("Ideal images/s"), QStringLiteral("Efficiency"),
         QStringLiteral("All-reduce share"), QStringLiteral("Run")});
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("scalingNoteLabel"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *bottom = new QWidget;
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_table, 1);
    bottomLayout->addWidget(m_note);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_view);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setCollapsible(0, false);
    split->setSizes({640, 200}); // the chart first; the table scrolls
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);
    sync();
}

void ScalingPanel::sync() {
    if (!m_chart->sync(m_store))
        return;
    fillTable();
    updateNote();
}

void ScalingPanel::fillTable() {
    int rows = 0;
    for (const ScalingSeries &s : m_chart->series())
        rows += static_cast<int>(s.points.size());
    m_table->setRowCount(rows);
    int row = 0;
    for (const ScalingSeries &s : m_chart->series()) {
        for (const ScalingPoint &p : s.points) {
            const StoredRun &run = m_store.run(p.runIndex);
            m_table->setItem(row, Series, cell(QString::fromStdString(s.name), false));
            m_table->setItem(row, WorldSize, cell(QString::number(p.worldSize), true));
            m_table->setItem(row, ImagesPerSecond, cell(number(p.imagesPerSecond, 1), true));
            m_table->setItem(row, Ideal, cell(number(p.idealImagesPerSecond, 1), true));
            const QString efficiency = efficiencyText(p.efficiency);
            m_table->setItem(row, Efficiency,
                             cell(efficiency.isEmpty() ? QStringLiteral("n/a") : efficiency, true));
            m_table->setItem(
                row, AllReduce,
                cell(std::isfinite(p.allReduceShare)
                         ? QStringLiteral("%1 %").arg(p.allReduceShare * 100.0, 0, 'f', 1)
                         : QStringLiteral("n/a"),
                     true));
            QString runText = run.label;
            if (p.otherRuns > 0)
                runText += QStringLiteral(" (+%1 more at this world size)").arg(p.otherRuns);
            m_table->setItem(row, Run, cell(runText, false));
            ++row;
        }
    }
    m_table->resizeColumnsToContents();
}

void ScalingPanel::updateNote() {
    const std::vector<ScalingSeries> &series = m_chart->series();
    if (series.empty()) {
        m_note->setText(QStringLiteral(
            "No data-parallel job in view. Import the records of a job (devicebench-cli launch "
            "--nproc-per-node N -- run ... writes a job record and one per rank), with a 1-rank "
            "job or a single-process run of the same global batch size for the efficiency."));
        return;
    }
    QString text = QStringLiteral(
        "Efficiency: images/s of N ranks / (N x images/s of 1 rank). images/s as in the "
        "comparison: training + test images of the whole job per stable-mean second of an "
        "epoch (a job's epoch is its slowest rank's). The 1-rank point is a 1-rank job, else a "
        "single-process run of the same workload. Rank records are not drawn: each is one "
        "process's own clock.");
    for (const ScalingSeries &s : series)
        if (s.singleRankIndex() < 0)
            text += QStringLiteral("\n%1: no 1-rank run in view, so no ideal line and no "
                                   "efficiency.")
                        .arg(QString::fromStdString(s.name));
    m_note->setText(text);
}

QString ScalingPanel::note() const { return m_note->text(); }

} // namespace devicebench
