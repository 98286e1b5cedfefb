// SPDX-License-Identifier: MIT
// The workloads a run can train, as one table: a row per workload says what it is called, what
// it trains and how it runs. Every part of DeviceBench that needs to know something about a
// workload (the checks, the CLI's options and help, the dashboard's choice, the record, the
// comparison) asks its row; none compares against a list of workloads. What each workload
// computes, and how a new one is added: docs/WORKLOADS.md.
// Plain C++: no LibTorch, no Qt.
#pragma once

#include <string>
#include <vector>

namespace devicebench {

// What the run computes, and how (MEASURING.md rule 1: a comparison must say when the workload
// differs). Its row in kWorkloads says the rest.
//  - Faithful: the article's computation (NCHW, a new float batch every step, gradients zeroed,
//    the test pass under NoGradGuard).
//  - Tuned: the same training, the same results within float tolerance, computed the fastest
//    way measured on the device (engine/train/src/workload.h says how).
//  - ArticleScript: the article's own Python script, the program that timed the published
//    rows, in a child Python process (article_script.h): small-cnn at 32 px in float32.
//  - Script: the user's own training script (RunConfig::script), timed by DeviceBench's Python
//    module in a child Python process (script_run.h); its model, data and batches are its own.
//  - Speedrun: the CIFAR-10 speed record's recipe (airbench94: 94 % in under 10 epochs), its own
//    network, optimiser, schedule and augmentation, in the engine (docs/SPEEDRUN.md).
enum class Workload { Faithful, Tuned, ArticleScript, Script, Speedrun };

// Where a workload's training runs.
enum class WorkloadRunner {
    EngineLoop,    // the engine's training loop in this process (trainer.h), on LibTorch
    ArticleScript, // the article's Python script in a child process (article_script.h)
    UserScript,    // the user's --script in a child process (script_run.h)
    EngineRecipe,  // a recipe of its own (network, optimiser, epoch) in this process, on LibTorch
};

// One workload's row.
struct WorkloadRow {
    Workload id;
    const char *name;  // the command line's and the record's text, e.g. "tuned"
    const char *label; // the dashboard's choice, e.g. "tuned (fastest measured)"
    const char *help;  // what it trains, one sentence for --help and the dashboard's tooltip
    WorkloadRunner runner;
    // Reads its own data: no data folder, no CIFAR-10 identity in the record.
    bool ownData;
    // Model, image size and precision are DeviceBench's settings (false: the script's own).
    bool engineModel;
    // Every epoch reports a test loss and accuracy (false: they may be missing, "not reported").
    bool alwaysTests;
    // A recipe's own settings (EngineRecipe rows): the network it trains (RunConfig::model; no
    // other is taken), its batch size and its target accuracy in percent when none is asked
    // for. nullptr / 0: the run's settings as given.
    const char *recipeModel = nullptr;
    int defaultBatchSize = 0;
    double defaultTargetPercent = 0.0;

    // Trains in a child Python process, on that Python's torch rather than this LibTorch.
    bool pythonChild() const {
        return runner == WorkloadRunner::ArticleScript || runner == WorkloadRunner::UserScript;
    }
    // Takes the --script options (the script, its arguments, its start time-out).
    bool userScript() const { return runner == WorkloadRunner::UserScript; }
    // Brings its own network, optimiser and epoch (the model, image size and learning rate are
    // the recipe's).
    bool recipe() const { return runner == WorkloadRunner::EngineRecipe; }
};

// Every workload, in the order the command line and the dashboard list them.
inline constexpr WorkloadRow kWorkloads[] = {
    {Workload::Faithful, "faithful", "faithful (the article's)",
     "the article's computation, on DeviceBench's engine", WorkloadRunner::EngineLoop,
     /*ownData=*/false, /*engineModel=*/true, /*alwaysTests=*/true},
    {Workload::Tuned, "tuned", "tuned (fastest measured)",
     "the same training computed the fastest way measured (channels-last, no per-step "
     "allocation, ...): the same results within float tolerance",
     WorkloadRunner::EngineLoop, false, true, true},
    {Workload::ArticleScript, "article-script", "the article's script (Python)",
     "the article's own Python script, run by --python (the only runs comparable with the "
     "article's published rows)",
     WorkloadRunner::ArticleScript, false, true, true},
    {Workload::Script, "script", "your Python script",
     "your own training script (--script), timed by DeviceBench's Python module "
     "(docs/YOUR-SCRIPT.md)",
     WorkloadRunner::UserScript, /*ownData=*/true, /*engineModel=*/false, /*alwaysTests=*/false},
    {Workload::Speedrun, "speedrun", "speedrun (94 % on CIFAR-10)",
     "the CIFAR-10 speed record's recipe (airbench94: whitening, label smoothing, Nesterov SGD, "
     "lookahead, test-time augmentation) to 94 % test accuracy (docs/SPEEDRUN.md)",
     WorkloadRunner::EngineRecipe, /*ownData=*/false, /*engineModel=*/true, /*alwaysTests=*/true,
     /*recipeModel=*/"airbench94", /*defaultBatchSize=*/1024, /*defaultTargetPercent=*/94.0},
};

// The row of `workload`.
const WorkloadRow &workloadRow(Workload workload);

// The row named `name` (a WorkloadRow::name), or nullptr for a name this version does not know
// (a record from another tool or a later version keeps its text).
const WorkloadRow *findWorkload(const std::string &name);

// The names of the workloads whose row passes `keep` (all of them by default), in table order.
std::vector<std::string> workloadNames(bool (*keep)(const WorkloadRow &) = nullptr);

// The same names as one phrase for a message: "faithful, tuned, article-script or script".
std::string workloadChoices(bool (*keep)(const WorkloadRow &) = nullptr);

// Row filters for workloadNames and workloadChoices.
inline bool trainsInEngine(const WorkloadRow &row) { return !row.pythonChild(); }
// The engine's own loop over its models (a sweep's step runs, a rank of a data-parallel job).
inline bool trainsInEngineLoop(const WorkloadRow &row) {
    return row.runner == WorkloadRunner::EngineLoop;
}

// The row's name, e.g. "tuned".
const char *toString(Workload workload);

// Parses a WorkloadRow::name; false (and *workload unchanged) for anything else.
bool parseWorkload(const std::string &text, Workload *workload);

} // namespace devicebench
