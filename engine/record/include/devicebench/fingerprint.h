// SPDX-License-Identifier: MIT
// What a run ran on, recorded with every run so that results from different machines can
// stand side by side and be read correctly (MEASURING.md, lesson 4: "a cloud CPU is not a
// home CPU"). LibTorch-free header. The struct, its JSON (record/src/json_fingerprint.cpp)
// and machineLabel() are in engine_record (no LibTorch); collectFingerprint() reads LibTorch's
// settings and is defined in engine_device (device/src/fingerprint_collect.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace devicebench {

struct GpuInfo {
    int index = 0;        // CUDA device index
    std::string name;     // e.g. "Tesla T4"
    int computeMajor = 0; // compute capability, e.g. 7.5 -> 7, 5
    int computeMinor = 0;
    std::int64_t memoryBytes = 0; // total device memory
};

struct Fingerprint {
    std::string hostName;  // gethostname()
    std::string os;        // PRETTY_NAME of /etc/os-release + kernel release (uname -r)
    std::string cpuModel;  // "model name" of /proc/cpuinfo
    int physicalCores = 0; // distinct (physical id, core id) pairs of /proc/cpuinfo
    int logicalCores = 0;  // logical CPUs online (sysconf(_SC_NPROCESSORS_ONLN))
    std::string
        cpuQuota; // cgroup v2 cpu.max as read, e.g. "max 100000" or "200000 100000"; "" if absent
                  // (the tightest of the process's cgroup and its parents; on
                  // cgroup v1 hosts cfs_quota_us/cfs_period_us in the same form
                  // with " (cgroup v1)" appended, quota -1 written "max")
    double cpuQuotaCores = 0.0; // quota / period in cores; 0 when unlimited or unknown
    std::string affinity;       // CPUs this process may run on, as a list, e.g. "0-1" or "0,2,4"
    int affinityCount = 0;      // number of those CPUs
    std::string ompNumThreads;  // $OMP_NUM_THREADS as set, "" when unset
    int intraOpThreads = 0;     // at::get_num_threads() when collected
    std::string blasLibrary;    // real path of the libblas.so.3 loaded in this process ("" if none)
    std::string libtorchVersion;    // e.g. "1.13.1"
    bool cudaBuilt = false;         // this LibTorch was built with CUDA
    std::string cudaRuntimeVersion; // e.g. "11.8"; "" without CUDA
    std::string cudnnVersion;       // e.g. "8.7.0"; "" without cuDNN
    std::string driverVersion;      // CUDA driver API version, e.g. "12.2"; "" without a driver
    std::vector<GpuInfo> gpus;      // every CUDA device the driver reports
    bool cudnnBenchmark = false;    // at::globalContext().benchmarkCuDNN()
    // TF32 (19-bit float products in float32 work on Ampere and later GPUs) as LibTorch is set
    // when collected: matrix products (at::globalContext().allowTF32CuBLAS(), Python's
    // torch.backends.cuda.matmul.allow_tf32) and cuDNN convolutions (allowTF32CuDNN(), Python's
    // torch.backends.cudnn.allow_tf32). Both calls exist in LibTorch 1.13.1 and 2.11. Unset
    // when LibTorch refused to say (2.x throws when the old and new precision settings were
    // mixed) and in records written before they were recorded.
    std::optional<bool> tf32Matmul;
    std::optional<bool> tf32Cudnn;
    std::string appVersion; // DeviceBench version (version.h)
};

// Collects the fingerprint of this process and machine. Never throws: fields it cannot read
// stay empty/zero. GPU facts come from the CUDA driver library (libcuda.so.1, loaded with
// dlopen) when present, so they are filled even where LibTorch has no CUDA.
// Defined in engine_device: link engine_device (or `engine`) to call it.
Fingerprint collectFingerprint();

// Short machine label for charts (issue 3): "CPU x<threads> @ <host>" for "cpu",
// "<GPU name> @ <host>" for "cuda"/"cuda:N" when fingerprint.gpus has that index, otherwise
// "<device> @ <host>" ("unknown host" when hostName is empty).
std::string machineLabel(const Fingerprint &fingerprint, const std::string &device, int threads);

// The name of the GPU `device` ("cuda" = "cuda:0", "cuda:N") in `fingerprint.gpus`, e.g.
// "Tesla T4"; "" for the CPU, another device string, or a GPU the fingerprint does not list.
std::string gpuName(const Fingerprint &fingerprint, const std::string &device);

// The CPU quota as a person reads it (CLI `devices`, the dashboard's diagnostics):
//   ""                          -> "none found"
//   "max 100000"                -> "no limit (cgroup v2 cpu.max: max 100000)"
//   "max 100000 (cgroup v1)"    -> "no limit (cgroup v1 cpu.cfs_quota_us: -1)"
//   "200000 100000", 2.0 cores  -> "2.00 cores (200000 100000)"
//   anything else               -> the text as recorded
// (cgroup v2: cpu.max "max" means no limit; cgroup v1: cpu.cfs_quota_us -1 means no limit;
// Linux Documentation/admin-guide/cgroup-v2.rst and scheduler/sched-bwc.rst.)
std::string cpuQuotaText(const Fingerprint &fingerprint);

} // namespace devicebench
