// SPDX-License-Identifier: MIT
// The run settings panel's program rows: "Workload" (faithful, the article's computation;
// tuned; the article's script, run in a child Python process: engine article_script.h; your
// Python script: engine script_run.h), "Python" (the Python that runs a script, shown only when
// one is chosen), "Script" (your script's file, a field and a chooser) and "Arguments" (its
// arguments, split as a shell would), both shown only for your script, feeding
// RunConfig::workload, python, script and scriptArgs, and their QSettings keys run/workload,
// run/python, run/script and run/scriptArgs. Whether the Python can run the script is the
// engine's to say, when a run is asked for (checkRunRequest), never on a change of the
// settings: it takes seconds.
// Object names (tests): workloadCombo, pythonEdit, scriptEdit, scriptChooseButton,
// scriptArgsEdit.
#pragma once

#include "devicebench/run_types.h"

#include <QString>

#include <functional>

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
    // Sets config->workload, config->python to the field's Python for a script only ("" otherwise,
    // and "" = python3 when the field is empty), and for your script config->script and
    // config->scriptArgs; for a recipe its network (config->model, 32 px), over the model rows'.
    void apply(RunConfig *config) const;
    // Called with the row when the choice becomes a recipe (the speedrun): the panel then shows
    // the recipe's batch size, target and precision (its preset) and greys out what it sets.
    void setRecipeChosen(std::function<void(const WorkloadRow *)> chosen);
    // Chooses config.workload; the field takes config.python when it names one or when the
    // workload is the script (a faithful config with no Python keeps the field as typed).
    void show(const RunConfig &config);
    // The Python as typed, trimmed ("" = python3), whatever the workload.
    QString python() const;
    // run/workload ("faithful", "tuned", "article-script", "script"), run/python, run/script
    // and run/scriptArgs.
    void save(QSettings &settings) const;
    // A missing or unknown saved workload keeps the current choice.
    void restore(const QSettings &settings);

private:
    Workload workload() const;
    void syncPython(); // the Python row shown for a script, the script rows for yours
    void addScriptRows(QWidget *parent, QFormLayout *form);

    QComboBox *m_workload = nullptr;
    std::function<void(const WorkloadRow *)> m_recipeChosen; // nullptr row: not a recipe
    QLineEdit *m_python = nullptr;
    QWidget *m_scriptRow = nullptr; // the field and its chooser
    QLineEdit *m_script = nullptr;
    QLineEdit *m_scriptArgs = nullptr;
    QFormLayout *m_form = nullptr; // the rows' form
};

} // namespace devicebench
