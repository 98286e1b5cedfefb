// SPDX-License-Identifier: MIT
// Engine-internal (run): asking a Python whether it can run a program, by the program's own
// check mode, which prints one JSON line {"problem": "..."} ("" when it can). The article's
// script (article_script.h) and a user's script (script_run.h) are checked this way.
#pragma once

#include <string>
#include <vector>

namespace devicebench::detail {

// Runs `argv` (argv[0] the Python, a path or a name in PATH) with `environment` ("NAME=value"
// added) and returns "" when its line's problem is "", else a sentence naming the Python: its
// problem, or that it cannot be started (and how to install Python with torch), gave no answer
// within two minutes, ended without one (its exit and last messages), or answered with a line
// that is not such JSON. `what` names the check in those sentences ("the article script's
// check").
std::string pythonCheckProblem(const std::vector<std::string> &argv, const std::string &what,
                               const std::vector<std::string> &environment = {});

} // namespace devicebench::detail
