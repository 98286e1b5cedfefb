// SPDX-License-Identifier: MIT
// `devicebench-cli devices`: every device with its probe result, then this machine's
// fingerprint.
#pragma once

#include "cli_command.h"

#include <iosfwd>

namespace devicebench::cli {

// Adds the `devices` subcommand, its --json flag and its action to `app`.
CLI::App *addDevicesCommand(CLI::App &app, const CommandContext &context, CommandAction &chosen);

// Lists the devices, each probed (usable or not, probe time and relative error, the reason),
// then this machine's fingerprint, one "key: value" line each; with `json`, prints
// devicesJson() instead (devices.h). Returns kExitOk.
int devicesCommand(std::ostream &out, bool json = false);

} // namespace devicebench::cli
