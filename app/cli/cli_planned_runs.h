// SPDX-License-Identifier: MIT
// The runs of `run` and `reproduce` once they are planned: a list of checked RunConfigs run as
// `run` runs them (one after another, or interleaved, each in a process of its own), with its
// epoch lines, summaries, comparison, published block and the programs' ratio, the CSV/PNG and
// the JSON document.
#pragma once

#include "cli_run_options.h"

#include "devicebench/run_types.h"

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

namespace devicebench::cli {

// Runs `runs` (each passed checkRunConfig) with `options`' outputs (records, TensorBoard,
// CSV, PNG, JSON, the published block), as `run` does. Before the first run: the record
// folders (--record holds one run only), then every request as the engine checks it
// (checkRunRequest: a Python without torch or torchvision is refused there, exit 2, nothing
// run). Then the header and `intro` (a line, when not ""), the runs (interleaved when
// options.interleave and there are several), each run's summary, the comparison, the published
// block (printPublishedAfterRuns) and the programs' ratio lines, the files (the CSV with the
// published rows when they were shown), and with options.json one document {"command": `command`,
// ...} on `stdOut` (the text then goes to `err` when it is a terminal, else nowhere). Returns an
// ExitCode.
int runPlanned(const RunOptions &options, const std::vector<RunConfig> &runs,
               const std::string &command, const std::string &intro, std::ostream &stdOut,
               std::ostream &err, const std::atomic<bool> &stopRequested);

} // namespace devicebench::cli
