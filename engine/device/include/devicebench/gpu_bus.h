// SPDX-License-Identifier: MIT
// Where a CUDA device sits on the PCI bus, so that NVML (whose indices ignore
// CUDA_VISIBLE_DEVICES and follow the bus order) reads the same GPU the run trains on.
// LibTorch-free header.
#pragma once

#include <string>

namespace devicebench {

// The PCI bus id of CUDA device `cudaIndex` (the CUDA driver's cuDeviceGetPCIBusId, loaded at
// run time), e.g. "0000:3B:00.0"; "" without a driver or such a device.
std::string cudaPciBusId(int cudaIndex);

} // namespace devicebench
