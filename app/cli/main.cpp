// SPDX-License-Identifier: MIT
// devicebench-cli: trains the published experiment's CNN on CIFAR-10 without a window.
#include "cli_command.h"
#include "cli_compare.h"
#include "cli_devices.h"
#include "cli_fetch.h"
#include "cli_launch.h"
#include "cli_parse_error.h"
#include "cli_report.h"
#include "cli_reproduce.h"
#include "cli_run.h"
#include "cli_sweep.h"
#include "cli_train_child.h"

#include "devicebench/stop_cause.h"
#include "devicebench/version.h"

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <string>

using namespace devicebench::cli;

namespace {

std::atomic<bool> g_stopRequested{false};

extern "C" void onStopSignal(int signal) {
    devicebench::noteStopSignal(signal); // the records' reasons name it
    g_stopRequested.store(true);
}

// The program and its global options: --version, --log-level (into `logLevel`), the footer.
void declareProgram(CLI::App &app, std::string &logLevel) {
    app.set_version_flag("--version", std::string("devicebench-cli ") + devicebench::kVersion);
    app.require_subcommand(1);
    app.add_option("--log-level", logLevel,
                   "Engine log messages on stderr: trace, debug, info, warn, error, off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
        ->default_str("warn");
    app.footer(
        "Exit codes: 0 ok; 1 a run or sweep cell failed or diverged, or an export failed; 2 bad "
        "usage; 3 no usable data set (none found, or a bad folder or batch file); 130 stopped "
        "by SIGINT/SIGTERM.");
}

// "devicebench-cli frobnicate", or no subcommand at all: CLI11 would say "A subcommand is
// required"; name the word and the subcommands instead (not the hidden train-child). False
// for any other error.
bool reportUnknownSubcommand(CLI::App &app, const CLI::ParseError &e) {
    if (!app.get_subcommands().empty())
        return false;
    std::string names;
    for (const CLI::App *sub : app.get_subcommands([](CLI::App *) { return true; }))
        if (!sub->get_group().empty())
            names += (names.empty() ? "" : ", ") + sub->get_name();
    for (const std::string &word : app.remaining()) {
        if (word.empty() || word[0] == '-')
            continue;
        std::cerr << "devicebench-cli: error: unknown subcommand '" << word
                  << "' (the subcommands are " << names << ")\n";
        return true;
    }
    if (std::string(e.what()) != "A subcommand is required")
        return false;
    std::cerr << "devicebench-cli: error: no subcommand given: give one of " << names
              << " (devicebench-cli --help)\n";
    return true;
}

// A parse error in the program's words (help and --version as CLI11 prints them), with a hint
// where one helps. Returns the exit code.
int reportParseError(CLI::App &app, const CLI::App &launch, const CLI::ParseError &e) {
    if (reportUnknownSubcommand(app, e))
        return kExitUsage;
    if (launch.parsed() && (dynamic_cast<const CLI::ExtrasError *>(&e) != nullptr ||
                            dynamic_cast<const CLI::RequiredError *>(&e) != nullptr))
        std::cerr << "devicebench-cli launch: put `--` before the run command: "
                     "devicebench-cli launch --nproc-per-node N -- run ...\n";
    return printParseError(app, e);
}

} // namespace

int main(int argc, char **argv) {
    CLI::App app{"DeviceBench: how much faster does training run on this device than on "
                 "that one?\nTrains the published experiment's small CNN on CIFAR-10 and "
                 "times every epoch.",
                 "devicebench-cli"};
    std::string logLevel = "warn";
    declareProgram(app, logLevel);

    const CommandContext context{std::cout, std::cerr, g_stopRequested, argv[0]};
    CommandAction chosen;
    addRunCommand(app, context, chosen);
    const CLI::App *launch = addLaunchCommand(app, context, chosen);
    addDevicesCommand(app, context, chosen);
    addCompareCommand(app, context, chosen);
    addReportCommand(app, context, chosen);
    addReproduceCommand(app, context, chosen);
    addFetchDataCommand(app, context, chosen);
    addSweepCommand(app, context, chosen);
    addTrainChildCommand(app, context, chosen, g_stopRequested);
    readNumbersInDecimal(app); // "010" is ten

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return reportParseError(app, *launch, e);
    }
    std::string problem = emptyValueProblem(app, {"--script-arg"});
    if (problem.empty())
        problem = outOfRangeProblem(app);
    if (!problem.empty()) {
        std::cerr << "devicebench-cli: error: " << problem << "\n";
        return kExitUsage;
    }
    // Log lines go to stderr, so stdout stays the results only.
    spdlog::set_default_logger(spdlog::stderr_color_mt("devicebench"));
    spdlog::set_level(spdlog::level::from_str(logLevel));
    // Every way a person or the system ends the program stops the runs as Ctrl-C does, so that
    // their records end "cancelled" saying which (stop_cause.h), rather than stay "running"
    // behind a process the signal killed: Ctrl-C, kill, a closed terminal, Ctrl-\, and a
    // reader that went away (`| head`).
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE})
        std::signal(signal, onStopSignal);
    return chosen();
}
