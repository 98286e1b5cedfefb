// SPDX-License-Identifier: MIT
// Whether a device computes a run's precision (run_types.h, Precision) natively, read from the
// hardware: on x86 CPUs the flags of /proc/cpuinfo (bfloat16: avx512_bf16 or amx_bf16), on CUDA
// devices the compute capability (bfloat16: 8.0 and later; float16 tensor cores: 7.0 and
// later). Where it is emulated a run still runs; every output says so with the note.
// LibTorch-free header.
#pragma once

#include "devicebench/run_types.h"

#include <string>

namespace devicebench {

struct PrecisionSupport {
    bool native = true;
    // Empty for float32. Otherwise one sentence, e.g. "bf16 runs natively on this CPU
    // (amx_bf16)" or "bf16 is emulated on this CPU (no avx512_bf16 or amx_bf16 in
    // /proc/cpuinfo): expect it slower than fp32".
    std::string note;
};

// The CPU's support from the text of /proc/cpuinfo (its "flags" lines). float16 is not a CPU
// precision of this tool (validateRunConfig refuses it): native false. A text without flags
// (another architecture) gives native false with a note saying it is unknown.
PrecisionSupport cpuPrecisionSupport(Precision precision, const std::string &cpuinfoText);

// A CUDA device's support from its compute capability (major.minor; 0.0: unknown).
PrecisionSupport cudaPrecisionSupport(Precision precision, int computeMajor, int computeMinor);

// The support of `device` ("cpu", "cuda:N", canonical) on this machine: /proc/cpuinfo, or the
// compute capability the CUDA driver reports (collectFingerprint, fingerprint.h).
PrecisionSupport precisionSupport(Precision precision, const std::string &device);

// The precision a recipe workload (the speedrun) computes in on `device` when none is asked
// for: float16 on CUDA (the record script's half), bfloat16 on a CPU that runs it natively
// (amx_bf16 or avx512_bf16), float32 on any other.
Precision recipePrecision(const std::string &device);

// `config` with its workload's recipe preset, as choosing the recipe in the dashboard shows it:
// the recipe's network at 32 px, its batch size and target, and recipePrecision("cpu").
// Unchanged for a workload that is not a recipe.
RunConfig withRecipePreset(RunConfig config);

} // namespace devicebench
