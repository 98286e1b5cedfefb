// SPDX-License-Identifier: MIT
// The live charts panel: the loss chart (training loss per step, test loss per epoch), the
// stable-mean bar chart with the control-pair line under it, and the epoch table, in
// splitters. It draws what the RunStore holds when sync() is called (the window coalesces
// those calls).
#pragma once

#include <QWidget>

class QChartView;
class QLabel;
class QTableView;

namespace devicebench {

class EpochTableModel;
class LossChart;
class RunStore;
class SpeedChart;

// Object names (tests): lossChartView, barChartView, controlLabel, epochTable.
class ChartsPanel : public QWidget {
    Q_OBJECT

public:
    // `store` must outlive the panel.
    explicit ChartsPanel(const RunStore &store, QWidget *parent = nullptr);

    // Redraws charts, control line and table from the store; while `running`, the table
    // follows its last row.
    void sync(bool running);

    LossChart *lossChart() const { return m_lossChart; }
    SpeedChart *speedChart() const { return m_speedChart; }

private:
    void updateControlText();

    const RunStore &m_store;
    LossChart *m_lossChart = nullptr;
    SpeedChart *m_speedChart = nullptr;
    QChartView *m_lossView = nullptr;
    QChartView *m_barView = nullptr;
    EpochTableModel *m_tableModel = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_controlLabel = nullptr;
};

} // namespace devicebench
