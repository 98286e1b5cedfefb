// SPDX-License-Identifier: MIT
// The console's view of a run (`run`, `reproduce`): each event printed as it comes, and the
// run's summary at its end. Used by cli_planned_runs.cpp.
#pragma once

#include "devicebench/recorded_run.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"
#include "devicebench/run_set_feed.h"
#include "devicebench/run_types.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench::cli {

// "1 thread", "2 threads".
std::string threadsText(int threads);

// Whether stderr is a terminal: progress lines ("\r epoch 2 step 40/782") go there only then.
bool stderrIsATerminal();

// Behind the run's recorder: prints the run's events as they come, and feeds the run into the
// run set (RunSetFeed, as the dashboard's store does) for the CSV/PNG export; finish() ends it
// there with the run's result. Interleaved runs' lines start with the run's number ("#2 epoch
// 3/10 ...").
class ConsoleObserver : public RecordObserver {
public:
    ConsoleObserver(std::ostream &out, std::ostream &err, RunSet &store, int runId,
                    const RunConfig &config, bool interleaved)
        : m_out(out), m_err(err), m_feed(store, runId), m_runId(runId), m_config(config),
          m_prefix(interleaved ? "#" + std::to_string(runId) + " " : std::string()),
          m_progress(stderrIsATerminal()) {}

    void onRecordStarted(const RunRecord &record) override { m_feed.onRecordStarted(record); }
    void onRunStarted(const RunStarted &info) override;
    void onStepLosses(const std::vector<StepLoss> &losses) override;
    void onSystemSamples(const std::vector<SystemSample> &samples) override {
        m_feed.onSystemSamples(samples);
    }
    void onEpochFinished(const EpochResult &e) override;
    void onRunEnded(const RunOutcome &outcome) override;
    // The run's end in the set: its record as written (RunSetFeed::finish).
    void finish(const RecordedRun &run) { m_feed.finish(run); }

private:
    std::string trainedText(const RunStarted &info) const;

    std::ostream &m_out;
    std::ostream &m_err;
    RunSetFeed m_feed;
    int m_runId;
    RunConfig m_config;
    std::string m_prefix;
    RunStarted m_info;
    bool m_progress;
};

// The summary of a finished (or ended) run on `out`: its epoch seconds, the means, the
// warnings of a busy or changing machine, the sampler's system and energy lines, the phases.
void printSummary(std::ostream &out, const RunOutcome &outcome, const RunConfig &config,
                  const SamplingInfo &sampling, const std::string &label, bool synthetic);

} // namespace devicebench::cli
