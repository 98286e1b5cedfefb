// SPDX-License-Identifier: MIT
// Engine-internal (train): what a run does before anything is timed, shared by the epoch runs
// (trainer.cpp) and the step runs of the sweep (step_bench.cpp): the device started and
// probed, the data loaded and resized, the model built, the data placed, and the wording of a
// run's end for what it threw.
#pragma once

#include "run_stop.h"
#include "workload.h"

#include "devicebench/cifar10.h"
#include "devicebench/models.h"
#include "devicebench/probe.h"
#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <cstdint>
#include <exception>
#include <string>

namespace devicebench::detail {

// Sets LibTorch's TF32 switches for cuBLAS matrix products and cuDNN convolutions: On and Off
// both, Default back to the values LibTorch had when this was first called in the process
// (so a Default run after an On run is LibTorch's default again).
void applyTf32(Tf32 tf32);

// A run's device, started and probed.
struct RunDevice {
    torch::Device device{torch::kCPU};
    double initSeconds = 0.0; // startDevice() (devices.h): the first CUDA start; 0 on the CPU
    int threads = 0;          // LibTorch intra-op threads now in use
};

// Resolves config.device (resolveDevice: throws std::invalid_argument naming a bad one),
// starts it (startDevice) and probes it (`probe`; MEASURING.md, lesson 3), then sets LibTorch's
// intra-op threads to config.threads (0: availableCores()). Returns "" and fills *out, or why
// the device cannot run: "device cuda:0 is unusable: <reason>".
std::string startRunDevice(const RunConfig &config, const DeviceProbe &probe, RunDevice *out);

// The run's data on the host: `trainImages` / `testImages` (0: the whole split) read from
// config.dataDir (loadCifar10), or generated (config.synthetic: makeSyntheticCifar10, seeded by
// config.seed), then each split upsampled to config.imageSize (resizeImages) once. Throws
// DataError as loadCifar10.
Cifar10 loadRunData(const RunConfig &config, std::int64_t trainImages, std::int64_t testImages);

// config.model at config.imageSize (makeModel: built and initialised on the CPU from
// config.seed, so every device starts from the same weights), moved to `device` and laid out
// by `workload` (prepareModel).
ImageClassifier buildRunModel(const RunConfig &config, const torch::Device &device,
                              const WorkloadStrategy &workload);

// A split laid out by the workload (layOutHostData), then copied whole to `device` when
// `dataOnDevice` and the device is CUDA (RunConfig::dataOnDevice), else staged on the host
// (stageHostData).
void placeSplit(SplitTensors &split, const WorkloadStrategy &workload, const torch::Device &device,
                bool dataOnDevice);

// The reason a run failed on LibTorch error `message` (c10::Error::what_without_backtrace()):
// an allocation failure on the host ("can't allocate memory") or the device ("out of memory")
// becomes "out of memory at batch size N (try a smaller batch size): <message>"; anything else
// is the message itself. With an empty message (std::bad_alloc): the first part alone.
std::string torchFailureReason(const std::string &message, int batchSize);

// How a run ends for `thrown`, caught inside it: a RunStop as it is; a LibTorch error or
// std::bad_alloc Failed with torchFailureReason; any other std::exception Failed with its
// what(). Anything else is thrown on.
RunStop runStopOf(const std::exception_ptr &thrown, int batchSize);

} // namespace devicebench::detail
