// SPDX-License-Identifier: MIT
// Which devices this LibTorch build can train on. LibTorch-free header.
// CUDA calls are made only after torch::cuda::is_available() says yes, so the same code
// builds and runs against CPU-only and CUDA builds of LibTorch.
#pragma once

#include "devicebench/fingerprint.h"
#include "devicebench/probe.h"

#include <string>
#include <vector>

namespace devicebench {

struct DeviceInfo {
    std::string id;      // canonical: "cpu", "cuda:0", ...
    std::string name;    // "CPU (Intel Xeon ...)" or the GPU's name
    bool usable = false; // can a run start on it
    std::string reason;  // why not, when !usable
    ProbeResult probe;   // the device probe's result (probe.h); not run (device "") when the
                         // device could not be probed at all, e.g. "cuda" without CUDA
};

// Every device a run could ask for: the CPU first, then each CUDA device. When CUDA is not
// usable, the list holds one entry with id "cuda", usable = false and the reason
// (see cudaUnavailableReason()).
// Each device is probed (probeDevice, probe.h) before it is offered: a device whose probe
// fails is usable = false with reason = the probe's error.
std::vector<DeviceInfo> listDevices();

// Same, with an injected probe (tests; a cached probe). `probe` is called once per listed
// device that exists ("cpu", "cuda:N"); a probe that throws counts as failed, with the
// exception's text.
std::vector<DeviceInfo> listDevices(const DeviceProbe &probe);

// The document `devicebench-cli devices --json` prints: {"devices": [{"id", "name", "usable",
// "reason", "probe": {...} or null when not probed}], "fingerprint": {...}}; the probe and
// fingerprint objects are described in engine/device/src/json_probe.h and
// engine/record/src/json_fingerprint.h (same keys as the
// structs' members). Pretty-printed, ends with a newline.
std::string devicesJson(const std::vector<DeviceInfo> &devices, const Fingerprint &fingerprint);

// Empty when at least one CUDA device is usable; otherwise a sentence saying why not
// (e.g. "this LibTorch was built without CUDA (CPU-only build, LibTorch 1.13.1)").
std::string cudaUnavailableReason();

// Normalises a device string: "cpu" -> "cpu", "cuda" -> "cuda:0", "cuda:N" -> "cuda:N".
// Throws std::invalid_argument naming the value and listing the devices that exist when the
// string is malformed (e.g. "gpu", ""), CUDA is unavailable, or index N does not exist.
std::string resolveDevice(const std::string &device);

// Starts `device` (a canonical id from resolveDevice) before a run times anything. On CUDA:
// makes the device current and creates its context (the first CUDA start: driver and runtime
// initialisation, context creation, module loading) with a one-element allocation and a
// device synchronisation. Returns the wall seconds it took (steady clock); near 0 when this
// process had started the device already. "cpu": nothing to start, 0.0. Throws
// std::runtime_error with LibTorch's message when the device cannot start.
double startDevice(const std::string &device);

// Number of cores this process may run on (sched_getaffinity), at least 1.
int availableCores();

} // namespace devicebench
