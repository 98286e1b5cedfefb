// SPDX-License-Identifier: MIT
// The device probe: only a device that has just run a real convolution forward and backward,
// and agreed with the CPU, is offered ("cuda is available" can be true while no kernel runs).
// LibTorch-free header.
#pragma once

#include <functional>
#include <string>

namespace devicebench {

// Largest relative error between device and CPU results for the probe to pass.
inline constexpr double kProbeTolerance = 1e-3;

struct ProbeResult {
    std::string device;         // canonical id probed, e.g. "cpu", "cuda:0"
    bool usable = false;        // ran, and agreed with the CPU within kProbeTolerance
    std::string error;          // why not, when !usable (the exception text, or the disagreement)
    double seconds = 0.0;       // wall time of the probe on the device, synchronised
    double relativeError = 0.0; // max |device - cpu| / max(|cpu|, tiny) over outputs and gradients
};

// Runs a 5x5 convolution (the model's first layer shape, batch 8) forward and backward on
// `device`, synchronises, and compares output and weight gradient with the same computation
// on the CPU. Never throws: every failure becomes usable = false with the error text.
ProbeResult probeDevice(const std::string &device);

// Injectable probe, for tests and for the dashboard's device list.
using DeviceProbe = std::function<ProbeResult(const std::string &device)>;

} // namespace devicebench
