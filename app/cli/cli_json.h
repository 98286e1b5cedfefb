// SPDX-License-Identifier: MIT
// `--json` output of `devicebench-cli run` and `compare`: one JSON document on stdout at the
// end, for scripts. The builders are the engine's (devicebench/comparison_json.h), shared with
// the HTML report; the shapes are documented there and in README.md ("JSON output").
#pragma once

#include "devicebench/comparison_json.h"

namespace devicebench::cli {

using devicebench::OrderedJson;

using devicebench::compareJson;
using devicebench::comparisonDocument;
using devicebench::controlSummaryJson;
using devicebench::costJson;
using devicebench::dumpJson;
using devicebench::energyJson;
using devicebench::groupsJson;
using devicebench::programRatiosJson;
using devicebench::publishedJson;
using devicebench::recordJson;
using devicebench::summaryJson;

} // namespace devicebench::cli
