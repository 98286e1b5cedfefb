// SPDX-License-Identifier: MIT
#include "cli_train_child.h"

#include "devicebench/child_run.h"
#include "devicebench/run_events.h"
#include "devicebench/run_record.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <system_error>
#include <vector>

namespace devicebench::cli {

void addTrainChildCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen,
                          std::atomic<bool> &stop) {
    CLI::App *command = app.add_subcommand(
        "train-child", "One run as the child of another devicebench-cli (interleaved runs)");
    command->group(""); // hidden: devicebench-cli starts it itself
    auto configJson = std::make_shared<std::string>();
    auto turns = std::make_shared<bool>(false);
    command->add_option("--config-json", *configJson, "The run's settings (runConfigJson)")
        ->required();
    command->add_flag("--turns", *turns, "Train only in turns given on stdin");
    setAction(*command, chosen, [&context, &stop, configJson, turns] {
        RunConfig config;
        try {
            config = parseRunConfigJson(*configJson, "--config-json");
        } catch (const RecordError &e) {
            context.err << "devicebench-cli train-child: error: " << e.what() << "\n";
            return static_cast<int>(kExitUsage);
        }
        const RunOutcome outcome = runAsChild(config, *turns, stop);
        if (outcome.status == RunStatus::Cancelled)
            return static_cast<int>(kExitCancelled);
        return outcome.status == RunStatus::Finished ? static_cast<int>(kExitOk)
                                                     : static_cast<int>(kExitRunFailed);
    });
}

std::vector<std::string> trainChildCommand(const std::string &programPath) {
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    // --log-level takes spdlog's names but "warn" for "warning" and no "critical".
    const auto name = spdlog::level::to_string_view(spdlog::get_level());
    std::string level(name.data(), name.size());
    if (level == "warning")
        level = "warn";
    else if (level == "critical")
        level = "error";
    return {error ? programPath : self.string(), "--log-level", level, "train-child"};
}

} // namespace devicebench::cli
