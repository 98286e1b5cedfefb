// SPDX-License-Identifier: MIT
// Which devices this LibTorch build can train on, and starting one. LibTorch-free header. CUDA
// is called only after torch::cuda::is_available() says yes, so one code path serves CPU-only
// and CUDA builds of LibTorch.
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

// Every device a run could ask for: the CPU, then each CUDA device (or one unusable "cuda"
// entry with cudaUnavailableReason()). Each is probed first (probeDevice); a failed probe makes
// it unusable with the probe's error as the reason.
std::vector<DeviceInfo> listDevices();

// Same, with an injected probe (tests; a cached probe), called once per existing device; a
// probe that throws counts as failed, with the exception's text.
std::vector<DeviceInfo> listDevices(const DeviceProbe &probe);

// The JSON `devicebench-cli devices --json` prints: {"devices": [...], "fingerprint": {...}},
// keys named as the structs' members; pretty-printed, ending with a newline.
std::string devicesJson(const std::vector<DeviceInfo> &devices, const Fingerprint &fingerprint);

// Empty when at least one CUDA device is usable; otherwise a sentence saying why not
// (e.g. "this LibTorch was built without CUDA (CPU-only build, LibTorch 1.13.1)").
std::string cudaUnavailableReason();

// How many CUDA devices this LibTorch sees: 0 when it has no CUDA or no usable driver
// (torch::cuda::is_available() false), so that callers need no LibTorch header.
int cudaDeviceCount();

// Normalises a device string: "cpu" -> "cpu", "cuda" -> "cuda:0", "cuda:N" -> "cuda:N".
// Throws std::invalid_argument naming the value and listing the devices that exist when the
// string is malformed (e.g. "gpu", ""), CUDA is unavailable, or index N does not exist.
std::string resolveDevice(const std::string &device);

// Starts `device` (canonical) before a run times anything: on CUDA makes it current and creates
// its context, so that CUDA's start-up never lands in a timed epoch. Returns the wall seconds
// it took (0.0 for "cpu", near 0 when already started). Throws std::runtime_error with
// LibTorch's message when the device cannot start.
double startDevice(const std::string &device);

// Number of cores this process may run on (sched_getaffinity), at least 1.
int availableCores();

} // namespace devicebench
