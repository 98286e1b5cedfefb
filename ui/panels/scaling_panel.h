// SPDX-License-Identifier: MIT
// The dashboard's Scaling view: how the data-parallel jobs in view scale with their world size. The
// scaling chart (scaling_chart.h) above a table of its points (series, world size, images/s, ideal,
// efficiency, all-reduce share, run) and a note that says what the numbers are, or what to import
// when there is nothing to draw. It draws what the RunStore holds (imported job records and
// single-process runs) when sync() is called; the window calls it with its other views.
#pragma once

#include <QWidget>

class QChartView;
class QLabel;
class QTableWidget;

namespace devicebench {

class RunStore;
class ScalingChart;

// Object names (tests): scalingChartView, scalingTable, scalingNoteLabel.
class ScalingPanel : public QWidget {
    Q_OBJECT

public:
    // The table's columns.
    enum Column { Series, WorldSize, ImagesPerSecond, Ideal, Efficiency, AllReduce, Run };

    // `store` must outlive the panel.
    explicit ScalingPanel(const RunStore &store, QWidget *parent = nullptr);

    // Redraws chart, table and note from the store (nothing when what they show is unchanged).
    void sync();

    ScalingChart *chart() const { return m_chart; }
    QTableWidget *table() const { return m_table; }
    // The note under the table (plain text).
    QString note() const;

private:
    void fillTable();
    void updateNote();

    const RunStore &m_store;
    ScalingChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_note = nullptr;
};

} // namespace devicebench
