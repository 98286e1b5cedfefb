// SPDX-License-Identifier: MIT
// The precision as a run record names it (run_types.h, Precision). LibTorch- and Qt-free.
#pragma once

#include <string>

namespace devicebench {

// True when `text` is exactly a record's text of a precision ("float32", "bfloat16",
// "float16"): a record naming anything else ("bf16", "float8") ran an unknown precision.
bool isRecordedPrecision(const std::string &text);

// How labels and CSVs name a record's precision: the short name of a known one ("bf16"), any
// other text as written ("float8").
std::string precisionShortText(const std::string &recordText);

} // namespace devicebench
