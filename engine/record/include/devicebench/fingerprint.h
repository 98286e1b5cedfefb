// SPDX-License-Identifier: MIT
// What a run ran on, recorded with every run so that results from different machines can be
// read side by side ("a cloud CPU is not a home CPU"). LibTorch-free header: the struct is
// engine_record's; collectFingerprint(), which asks LibTorch, is engine_device's.
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

// The Python that trained an article-script run, as its program reported it (the "started"
// event's "program" object, docs/article-workload.md).
struct PythonRuntime {
    std::string python;       // Python version, e.g. "3.11.2"
    std::string executable;   // the interpreter's path (sys.executable)
    std::string torch;        // torch.__version__, e.g. "2.11.0+cu130"
    std::string torchvision;  // torchvision.__version__
    std::string cuda;         // torch.version.cuda; "" for a torch without CUDA
    std::string cudnn;        // torch.backends.cudnn.version(); "" without CUDA
    bool tensorboard = false; // the script's SummaryWriter wrote events (else a stand-in took them)
    std::string note;         // the program's note ("" when none)
};

struct Fingerprint {
    std::string hostName;  // gethostname()
    std::string os;        // PRETTY_NAME of /etc/os-release + kernel release (uname -r)
    std::string cpuModel;  // "model name" of /proc/cpuinfo
    int physicalCores = 0; // distinct (physical id, core id) pairs of /proc/cpuinfo
    int logicalCores = 0;  // logical CPUs online (sysconf(_SC_NPROCESSORS_ONLN))
    // The tightest cgroup CPU quota of the process and its parents: cgroup v2 cpu.max as read
    // ("max 100000", "200000 100000"), cgroup v1 in the same form with " (cgroup v1)"; "" if none.
    std::string cpuQuota;
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
    // TF32 allowed for matrix products (allowTF32CuBLAS) and cuDNN convolutions
    // (allowTF32CuDNN) when collected: float32 work on Ampere and later GPUs in 19-bit products.
    // Unset when LibTorch refused to say (2.x, mixed precision settings) and in older records.
    std::optional<bool> tf32Matmul;
    std::optional<bool> tf32Cudnn;
    std::string appVersion; // DeviceBench version (version.h)
    // Set for a run of the article's script: the Python that trained it. Then the LibTorch
    // fields above describe that torch (libtorchVersion "", intraOpThreads torch's threads,
    // cudaRuntimeVersion/cudnnVersion its CUDA), the machine fields the machine. Unset for the
    // engine's own runs and in older records.
    std::optional<PythonRuntime> python;
};

// Collects the fingerprint of this process and machine (link engine_device). Never throws:
// fields it cannot read stay empty or zero. GPU facts come from libcuda.so.1 (dlopen), so they
// are filled even where LibTorch has no CUDA.
Fingerprint collectFingerprint();

// Short machine label for charts: "CPU x<threads> @ <host>", "<GPU name> @ <host>", else
// "<device> @ <host>" ("unknown host" when hostName is empty).
std::string machineLabel(const Fingerprint &fingerprint, const std::string &device, int threads);

// The name of the GPU `device` ("cuda" = "cuda:0", "cuda:N") in `fingerprint.gpus`, e.g.
// "Tesla T4"; "" for the CPU, another device string, or a GPU the fingerprint does not list.
std::string gpuName(const Fingerprint &fingerprint, const std::string &device);

// The CPU quota as a person reads it: "none found", "no limit (cgroup v2 cpu.max: max 100000)",
// "2.00 cores (200000 100000)"; text it does not know as recorded.
std::string cpuQuotaText(const Fingerprint &fingerprint);

} // namespace devicebench
