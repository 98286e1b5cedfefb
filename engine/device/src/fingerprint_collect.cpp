// SPDX-License-Identifier: MIT
// Collecting the machine fingerprint (fingerprint.h): the host, the CPU and its quota, the
// libraries loaded, LibTorch's settings and the CUDA driver's devices.
#include "devicebench/fingerprint.h"
#include "devicebench/gpu_bus.h"

#include "fingerprint_internal.h"

#include "devicebench/cuda_driver.h"
#include "devicebench/dynamic_symbol.h"
#include "devicebench/version.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/cuda.h>
#include <torch/version.h>

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace devicebench {

namespace {

std::string readFile(const std::string &path) {
    std::ifstream in(path);
    if (!in) {
        return {};
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string trim(std::string text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::string hostName() {
    char buffer[HOST_NAME_MAX + 1] = {};
    if (gethostname(buffer, sizeof(buffer) - 1) != 0) {
        return {};
    }
    return buffer;
}

std::string osDescription() {
    std::string pretty;
    std::istringstream in(readFile("/etc/os-release"));
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("PRETTY_NAME=", 0) == 0) {
            pretty = trim(line.substr(12));
            if (pretty.size() >= 2 && (pretty.front() == '"' || pretty.front() == '\'') &&
                pretty.back() == pretty.front()) {
                pretty = pretty.substr(1, pretty.size() - 2);
            }
        }
    }
    struct utsname names {};
    std::string kernel;
    if (uname(&names) == 0) {
        kernel = std::string(names.sysname) + " " + names.release;
    }
    if (pretty.empty()) {
        return kernel;
    }
    return kernel.empty() ? pretty : pretty + ", kernel " + kernel;
}

// "model name" (x86) of /proc/cpuinfo, and the number of distinct (physical id, core id)
// pairs; 0 cores when the file has no "core id" lines (e.g. many ARM kernels).
std::pair<std::string, int> cpuInfo() {
    std::istringstream in(readFile("/proc/cpuinfo"));
    std::string model;
    std::string physicalId = "0";
    std::set<std::pair<std::string, std::string>> cores;
    std::string line;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) {
            continue;
        }
        const std::string key = trim(line.substr(0, colon));
        const std::string value = trim(line.substr(colon + 1));
        if (key == "processor") {
            physicalId = "0";
        } else if (key == "model name" && model.empty()) {
            model = value;
        } else if (key == "physical id") {
            physicalId = value;
        } else if (key == "core id") {
            cores.emplace(physicalId, value);
        }
    }
    return {model, static_cast<int>(cores.size())};
}

struct Quota {
    std::string text;
    double cores = 0.0;
};

// The tightest CPU quota on the way from the process's cgroup to the root: a parent's limit
// binds its children too.
Quota cpuQuota() {
    const std::string self = readFile("/proc/self/cgroup");
    Quota best;
    auto consider = [&best](const std::string &text) {
        const double cores = detail::parseCpuMax(text);
        if (best.text.empty() || (cores > 0.0 && (best.cores <= 0.0 || cores < best.cores))) {
            best = {text, cores};
        }
    };
    if (const std::string v2 = detail::cgroupV2Path(self); !v2.empty()) {
        std::string path = v2;
        while (true) {
            const std::string text = trim(readFile("/sys/fs/cgroup" + path + "/cpu.max"));
            if (!text.empty()) {
                consider(text);
            }
            if (path.empty() || path == "/") {
                break;
            }
            const auto slash = path.find_last_of('/');
            path = slash == std::string::npos ? std::string() : path.substr(0, slash);
        }
        if (!best.text.empty()) {
            return best;
        }
    }
    // cgroup v1 (hybrid hosts): cpu.cfs_quota_us / cpu.cfs_period_us, written in the cpu.max
    // form ("-1" quota is "max") with a note of where it came from.
    const auto v1 = detail::cgroupV1CpuPath(self);
    const std::vector<std::string> roots = {"/sys/fs/cgroup/" + v1.controllers,
                                            "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"};
    for (const auto &root : roots) {
        if (v1.controllers.empty() && root == roots.front()) {
            continue;
        }
        for (const std::string &path : {v1.path, std::string()}) {
            const std::string quota = trim(readFile(root + path + "/cpu.cfs_quota_us"));
            const std::string period = trim(readFile(root + path + "/cpu.cfs_period_us"));
            if (quota.empty() || period.empty()) {
                continue;
            }
            const std::string text =
                (quota == "-1" ? std::string("max") : quota) + " " + period + " (cgroup v1)";
            return {text, detail::parseCpuMax(text)};
        }
    }
    return best;
}

std::pair<std::string, int> affinity() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) {
        return {{}, 0};
    }
    std::vector<int> cpus;
    for (std::size_t cpu = 0; cpu < static_cast<std::size_t>(CPU_SETSIZE); ++cpu) {
        if (CPU_ISSET(cpu, &set)) {
            cpus.push_back(static_cast<int>(cpu));
        }
    }
    return {detail::formatCpuList(cpus), static_cast<int>(cpus.size())};
}

// Path of the first loaded shared object whose file name contains one of `names`, in order
// of preference.
int findLoadedObject(struct dl_phdr_info *info, std::size_t /*size*/, void *data) {
    auto *found = static_cast<std::pair<const char *, std::string> *>(data);
    if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, found->first) != nullptr) {
        found->second = info->dlpi_name;
        return 1;
    }
    return 0;
}

std::string blasLibrary() {
    // Debian's LibTorch calls the system libblas.so.3 (an alternatives link); other builds
    // link OpenBLAS or MKL under their own names.
    for (const char *name : {"libblas.so", "libopenblas", "libmkl_rt", "libmkl_core"}) {
        std::pair<const char *, std::string> found{name, {}};
        dl_iterate_phdr(findLoadedObject, &found);
        if (found.second.empty()) {
            continue;
        }
        char resolved[PATH_MAX] = {};
        if (realpath(found.second.c_str(), resolved) != nullptr) {
            return resolved;
        }
        return found.second;
    }
    return {};
}

// The CUDA driver API, looked up at run time (no CUDA headers or libraries at build time).
// Signatures and attribute numbers from the CUDA Driver API reference (cuda.h).
using CuInit = int (*)(unsigned int);
using CuDriverGetVersion = int (*)(int *);
using CuDeviceGetCount = int (*)(int *);
using CuDeviceGet = int (*)(int *, int);
using CuDeviceGetName = int (*)(char *, int, int);
using CuDeviceGetAttribute = int (*)(int *, int, int);
using CuDeviceTotalMem = int (*)(std::size_t *, int);
using CuDeviceGetPciBusId = int (*)(char *, int, int);
constexpr int kCudaSuccess = 0;
constexpr int kAttributeComputeMajor = 75; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kAttributeComputeMinor = 76; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR

// Loaded once and never unloaded: the driver starts threads at cuInit.
void *cudaDriver() {
    static void *const library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    return library;
}

void readDriverGpus(Fingerprint &fp) {
    void *const library = cudaDriver();
    if (library == nullptr) {
        return; // no NVIDIA driver: normal on CPU-only machines
    }
    const auto init = lookUpFunction<CuInit>(library, "cuInit");
    const auto driverVersion = lookUpFunction<CuDriverGetVersion>(library, "cuDriverGetVersion");
    const auto getCount = lookUpFunction<CuDeviceGetCount>(library, "cuDeviceGetCount");
    const auto getDevice = lookUpFunction<CuDeviceGet>(library, "cuDeviceGet");
    const auto getName = lookUpFunction<CuDeviceGetName>(library, "cuDeviceGetName");
    const auto getAttribute = lookUpFunction<CuDeviceGetAttribute>(library, "cuDeviceGetAttribute");
    const auto totalMem = lookUpFunction<CuDeviceTotalMem>(library, "cuDeviceTotalMem_v2");
    if (init == nullptr || init(0) != kCudaSuccess) {
        return;
    }
    int version = 0;
    if (driverVersion != nullptr && driverVersion(&version) == kCudaSuccess) {
        fp.driverVersion = formatCudaVersion(version);
    }
    int count = 0;
    if (getCount == nullptr || getDevice == nullptr || getCount(&count) != kCudaSuccess) {
        return;
    }
    for (int i = 0; i < count; ++i) {
        int device = 0;
        if (getDevice(&device, i) != kCudaSuccess) {
            continue;
        }
        GpuInfo gpu;
        gpu.index = i;
        char name[256] = {};
        if (getName != nullptr &&
            getName(name, static_cast<int>(sizeof(name)) - 1, device) == kCudaSuccess) {
            gpu.name = name;
        }
        if (getAttribute != nullptr) {
            getAttribute(&gpu.computeMajor, kAttributeComputeMajor, device);
            getAttribute(&gpu.computeMinor, kAttributeComputeMinor, device);
        }
        std::size_t bytes = 0;
        if (totalMem != nullptr && totalMem(&bytes, device) == kCudaSuccess) {
            gpu.memoryBytes = static_cast<std::int64_t>(bytes);
        }
        fp.gpus.push_back(gpu);
    }
}

// Runs one collection step; a failure leaves its fields empty (collectFingerprint never
// throws).
template <typename Step> void guarded(Step step) {
    try {
        step();
    } catch (...) {
    }
}

} // namespace

std::string cudaPciBusId(int cudaIndex) {
    void *const library = cudaDriver();
    if (library == nullptr)
        return {};
    const auto init = lookUpFunction<CuInit>(library, "cuInit");
    const auto getDevice = lookUpFunction<CuDeviceGet>(library, "cuDeviceGet");
    const auto busId = lookUpFunction<CuDeviceGetPciBusId>(library, "cuDeviceGetPCIBusId");
    int device = 0;
    char text[32] = {};
    if (init == nullptr || getDevice == nullptr || busId == nullptr || init(0) != kCudaSuccess ||
        getDevice(&device, cudaIndex) != kCudaSuccess ||
        busId(text, static_cast<int>(sizeof(text)) - 1, device) != kCudaSuccess)
        return {};
    return text;
}

Fingerprint collectFingerprint() {
    Fingerprint fp;
    guarded([&] { fp.hostName = hostName(); });
    guarded([&] { fp.os = osDescription(); });
    guarded([&] {
        const long online = sysconf(_SC_NPROCESSORS_ONLN);
        fp.logicalCores = online > 0 ? static_cast<int>(online) : 0;
        const auto [model, cores] = cpuInfo();
        fp.cpuModel = model;
        fp.physicalCores = cores > 0 ? cores : fp.logicalCores;
    });
    guarded([&] {
        const Quota quota = cpuQuota();
        fp.cpuQuota = quota.text;
        fp.cpuQuotaCores = quota.cores;
    });
    guarded([&] { std::tie(fp.affinity, fp.affinityCount) = affinity(); });
    guarded([&] {
        const char *omp = std::getenv("OMP_NUM_THREADS");
        fp.ompNumThreads = omp != nullptr ? omp : "";
    });
    guarded([&] { fp.intraOpThreads = at::get_num_threads(); });
    guarded([&] { fp.blasLibrary = blasLibrary(); });
    fp.libtorchVersion = TORCH_VERSION;
    guarded([&] { fp.cudaBuilt = detail::builtWithCuda(); });
    guarded([&] {
        if (fp.cudaBuilt && torch::cuda::is_available()) {
            const auto &hooks = at::detail::getCUDAHooks();
            guarded([&] { fp.cudaRuntimeVersion = formatCudaVersion(hooks.versionCUDART()); });
            guarded([&] { fp.cudnnVersion = detail::formatCudnnVersion(hooks.versionCuDNN()); });
        }
    });
    guarded([&] { readDriverGpus(fp); });
    guarded([&] { fp.cudnnBenchmark = at::globalContext().benchmarkCuDNN(); });
    // Present in LibTorch 1.13.1 and 2.11 alike; 2.x throws when the legacy and the new
    // precision settings disagree, which leaves the field unset.
    guarded([&] { fp.tf32Matmul = at::globalContext().allowTF32CuBLAS(); });
    guarded([&] { fp.tf32Cudnn = at::globalContext().allowTF32CuDNN(); });
    fp.appVersion = kVersion;
    return fp;
}

} // namespace devicebench
