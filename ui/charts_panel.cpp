// SPDX-License-Identifier: MIT
#include "charts_panel.h"

#include "charts.h"
#include "desktop.h"
#include "epoch_table.h"
#include "run_store.h"

#include "devicebench/comparison.h"

#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace devicebench {

ChartsPanel::ChartsPanel(const RunStore &store, QWidget *parent) : QWidget(parent), m_store(store) {
    m_lossChart = new LossChart;
    m_lossView = new QChartView(m_lossChart); // the view owns the chart
    m_lossView->setObjectName(QStringLiteral("lossChartView"));
    m_lossView->setRenderHint(QPainter::Antialiasing);
    m_lossView->setMinimumHeight(280);

    m_speedChart = new SpeedChart;
    m_barView = new QChartView(m_speedChart);
    m_barView->setObjectName(QStringLiteral("barChartView"));
    m_barView->setRenderHint(QPainter::Antialiasing);
    m_barView->setMinimumSize(480, 260);

    m_tableModel = new EpochTableModel(store, this);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("epochTable"));
    m_table->setModel(m_tableModel);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false); // labels stay on one line
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);

    m_controlLabel = new QLabel;
    m_controlLabel->setObjectName(QStringLiteral("controlLabel"));
    m_controlLabel->setWordWrap(true);
    m_controlLabel->setTextFormat(Qt::RichText);
    m_controlLabel->setToolTip(QStringLiteral(
        "Runs with the same config and seed start from identical weights and data order: "
        "their test losses should differ only by float rounding"));
    auto *barPane = new QWidget;
    auto *barLayout = new QVBoxLayout(barPane);
    barLayout->setContentsMargins(0, 0, 0, 0);
    barLayout->addWidget(m_barView, 1);
    barLayout->addWidget(m_controlLabel);

    auto *bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(barPane);
    bottom->addWidget(m_table);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 1);
    bottom->setSizes({680, 560});

    auto *centre = new QSplitter(Qt::Vertical, this);
    centre->addWidget(m_lossView);
    centre->addWidget(bottom);
    centre->setStretchFactor(0, 3);
    centre->setStretchFactor(1, 2);
    centre->setSizes({520, 380});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(centre);

    // Charts readable on the palette in use (--theme dark, or a dark desktop palette).
    const bool dark = isDarkPalette(palette());
    applyChartTheme(m_lossChart, dark);
    applyChartTheme(m_speedChart, dark);
}

void ChartsPanel::sync(bool running) {
    m_lossChart->sync(m_store);
    m_speedChart->sync(m_store);
    const int rowsBefore = m_tableModel->rowCount();
    m_tableModel->refresh();
    if (m_tableModel->rowCount() != rowsBefore)
        m_table->resizeColumnsToContents(); // new labels (e.g. imported runs) are seen whole
    if (m_table->model()->rowCount() > 0 && running)
        m_table->scrollToBottom();
    updateControlText();
}

void ChartsPanel::updateControlText() {
    QStringList lines;
    for (const ControlPair &pair : m_store.controlPairs()) {
        const QString a = QStringLiteral("#%1").arg(m_store.run(pair.indexA).number);
        const QString b = QStringLiteral("#%1").arg(m_store.run(pair.indexB).number);
        if (!std::isfinite(pair.maxTestLossDiff))
            continue;
        QString line = QStringLiteral("%1 vs %2: max test-loss difference %3")
                           .arg(a, b, QString::number(pair.maxTestLossDiff, 'g', 3));
        if (pair.warning)
            line = QStringLiteral("<span style=\"color:%1\"><b>WARNING</b> ")
                       .arg(errorColour(palette())) +
                   line +
                   QStringLiteral(" (above %1: the runs did not compute the same thing)</span>")
                       .arg(kTestLossWarning);
        lines.append(line);
    }
    m_controlLabel->setText(lines.isEmpty()
                                ? QString()
                                : QStringLiteral("<b>Control</b> (comparable runs, same seed): ") +
                                      lines.join(QStringLiteral(" · ")));
    m_controlLabel->setVisible(!lines.isEmpty());
}

} // namespace devicebench
