// SPDX-License-Identifier: MIT
// The run settings panel's program rows: "Workload" (faithful, the article's computation;
// tuned; the article's script, run in a child Python process: engine article_script.h) and
// "Python" (the Python that runs the script, shown only when it is chosen), feeding
// RunConfig::workload and RunConfig::python, and their QSettings keys run/workload and
// run/python. Whether that Python can run the script is the engine's to say, when a run is
// asked for (checkRunRequest), never on a change of the settings: it takes seconds.
// Object names (tests): workloadCombo, pythonEdit.
#pragma once

#include "devicebench/run_types.h"

#include <QString>

class QComboBox;
class QFormLayout;
class QLineEdit;
class QSettings;
class QWidget;

namespace devicebench {

class WorkloadSettings {
public:
    // Makes the combo (faithful chosen) and the Python field as children of `parent` and adds
    // them as rows "Workload" and "Python" to `form`.
    void addRows(QWidget *parent, QFormLayout *form);
    // Sets config->workload, and config->python to the field's Python for the article's
    // script only ("" otherwise, and "" = python3 when the field is empty).
    void apply(RunConfig *config) const;
    // Chooses config.workload; the field takes config.python when it names one or when the
    // workload is the script (a faithful config with no Python keeps the field as typed).
    void show(const RunConfig &config);
    // The Python as typed, trimmed ("" = python3), whatever the workload.
    QString python() const;
    // run/workload ("faithful", "tuned", "article-script") and run/python.
    void save(QSettings &settings) const;
    // A missing or unknown saved workload keeps the current choice.
    void restore(const QSettings &settings);

private:
    Workload workload() const;
    void syncPython(); // the Python row shown and enabled only for the script

    QComboBox *m_workload = nullptr;
    QLineEdit *m_python = nullptr;
    QFormLayout *m_form = nullptr; // the rows' form
};

} // namespace devicebench
