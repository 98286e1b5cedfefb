// SPDX-License-Identifier: MIT
// The NVIDIA driver check (cuda_driver.h): dlopen and cuDriverGetVersion, the kernel module's
// version file, and the verdict for a wheel's CUDA. Plain C++ and libdl, no LibTorch, so that
// scripts/preset.sh can compile it alone before any CMake build.
#include "devicebench/cuda_driver.h"

#include "devicebench/display_text.h"
#include "devicebench/dynamic_symbol.h"
#include "devicebench/text_file.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <sstream>

namespace devicebench {
namespace {

constexpr const char *kDriverLibrary = "libcuda.so.1";
constexpr const char *kModuleFile = "/proc/driver/nvidia/version";

// cuda.h: CUresult cuDriverGetVersion(int *driverVersion); callable before cuInit.
using CuDriverGetVersion = int (*)(int *);

std::string environmentOr(const char *name, const char *fallback) {
    const char *value = std::getenv(name);
    return value != nullptr && *value != '\0' ? value : fallback;
}

// The module's version from `file` into `driver`, or why the file cannot give one.
void readModuleFile(const std::string &file, CudaDriver &driver) {
    const TextFile read = readTextFile(file, 64 * 1024);
    if (read.state == FileState::Unreadable) {
        driver.moduleFileProblem = file + " exists but cannot be read (" + read.reason + ")";
        return;
    }
    if (read.state == FileState::Absent)
        return;
    const std::string first = read.text.substr(0, read.text.find('\n'));
    driver.moduleVersion = nvidiaModuleVersion(first);
    if (driver.moduleVersion.empty())
        driver.moduleFileProblem =
            file + " is malformed: its first line '" + visibleText(first, 60) +
            "' names no driver version (expected 'NVRM version: NVIDIA UNIX ... Kernel Module "
            "580.95.05 ...')";
}

// The file the dynamic loader took for `library` (its cuDriverGetVersion's object), else the
// name asked for.
std::string loadedFrom(CuDriverGetVersion function, const std::string &library) {
    Dl_info info{};
    void *address = nullptr;
    static_assert(sizeof(address) == sizeof(function), "function and data pointers differ");
    std::memcpy(&address, &function, sizeof(address));
    if (address != nullptr && dladdr(address, &info) != 0 && info.dli_fname != nullptr)
        return info.dli_fname;
    return library;
}

std::string cudaText(int version) { return "CUDA " + formatCudaVersion(version); }

// The newest pin of the table whose CUDA is at most `cuda`; nullptr when none.
const TorchCudaPin *newestPinUpTo(int cuda) {
    for (const TorchCudaPin &pin : torchCudaPins())
        if (pin.cuda <= cuda)
            return &pin;
    return nullptr;
}

std::string tooOldAdvice(const CudaDriver &driver, const std::string &torchVersion,
                         int neededCuda) {
    const TorchCudaPin *needed = findTorchCudaPin(torchVersion);
    std::string advice =
        "Ways forward: (1) update the NVIDIA driver to one that supports " + cudaText(neededCuda) +
        (needed != nullptr ? " (driver " + needed->minDriver + " or newer)" : "") + "; (2) ";
    if (const TorchCudaPin *fits = newestPinUpTo(driver.cudaVersion)) {
        advice += "build against a PyTorch whose CUDA this driver supports: "
                  "DEVICEBENCH_TORCH_VERSION=" +
                  fits->torch + " scripts/run.sh (torch " + fits->torch + ", " +
                  cudaText(fits->cuda) + "; a version CI does not build)";
    } else {
        advice += "no PyTorch of DeviceBench's table runs on " + cudaText(driver.cudaVersion) +
                  " (the oldest is torch " + torchCudaPins().back().torch + ", " +
                  cudaText(torchCudaPins().back().cuda) + ")";
    }
    return advice + "; or (3) the CPU build: DEVICEBENCH_PRESET=default scripts/run.sh.";
}

} // namespace

std::string formatCudaVersion(long version) {
    if (version <= 0)
        return {};
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

int parseCudaVersion(const std::string &text) {
    int major = 0;
    int minor = 0;
    char dot = 0;
    std::istringstream in(text);
    if (!(in >> major >> dot >> minor) || dot != '.' || major <= 0 || minor < 0 || minor > 99 ||
        in.peek() != std::char_traits<char>::eof())
        return 0;
    return major * 1000 + minor * 10;
}

std::string nvidiaModuleVersion(const std::string &text) {
    const auto module = text.find("Kernel Module");
    if (module == std::string::npos)
        return {};
    std::istringstream words(text.substr(module));
    std::string word;
    while (words >> word) {
        const bool digitsAndDots = word.find_first_not_of("0123456789.") == std::string::npos;
        if (digitsAndDots && word.find('.') != std::string::npos && word.front() != '.')
            return word;
    }
    return {};
}

CudaDriver readCudaDriver() {
    return readCudaDriver(environmentOr("DEVICEBENCH_CUDA_DRIVER_LIBRARY", kDriverLibrary),
                          environmentOr("DEVICEBENCH_NVIDIA_VERSION_FILE", kModuleFile));
}

CudaDriver readCudaDriver(const std::string &library, const std::string &versionFile) {
    CudaDriver driver;
    driver.library = library;
    driver.moduleFile = versionFile;
    readModuleFile(versionFile, driver);
    // Never unloaded, as the fingerprint's handle of the same library (fingerprint_collect.cpp).
    void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char *error = dlerror();
        driver.loadError = error != nullptr ? error : "dlopen failed";
        return driver;
    }
    driver.loaded = true;
    const auto getVersion = lookUpFunction<CuDriverGetVersion>(handle, "cuDriverGetVersion");
    if (getVersion == nullptr)
        return driver;
    driver.hasVersion = true;
    driver.library = loadedFrom(getVersion, library);
    int version = 0;
    const int result = getVersion(&version);
    if (result != 0 || version <= 0)
        driver.versionError = result != 0 ? result : -1;
    else
        driver.cudaVersion = version;
    return driver;
}

const std::vector<TorchCudaPin> &torchCudaPins() {
    static const std::vector<TorchCudaPin> pins = [] {
        const char *table =
#include "torch_cuda_pins.inc"
            ;
        std::vector<TorchCudaPin> rows;
        std::istringstream lines(table);
        std::string line;
        while (std::getline(lines, line)) {
            std::istringstream fields(line);
            TorchCudaPin pin;
            std::string cuda;
            if (fields >> pin.torch >> pin.torchvision >> cuda >> pin.minDriver) {
                pin.cuda = parseCudaVersion(cuda);
                rows.push_back(pin);
            }
        }
        return rows;
    }();
    return pins;
}

const TorchCudaPin *findTorchCudaPin(const std::string &torch) {
    const std::string release = torch.substr(0, torch.find('+'));
    for (const TorchCudaPin &pin : torchCudaPins())
        if (pin.torch == release)
            return &pin;
    return nullptr;
}

DriverVerdict judgeCudaDriver(const CudaDriver &driver, const std::string &torchVersion,
                              int neededCuda) {
    DriverVerdict verdict;
    const std::string module =
        !driver.moduleVersion.empty()
            ? " (kernel module " + driver.moduleVersion + ", " + driver.moduleFile + ")"
            : (driver.moduleFileProblem.empty() ? std::string()
                                                : " (" + driver.moduleFileProblem + ")");
    if (!driver.loaded) {
        if (driver.moduleVersion.empty() && driver.moduleFileProblem.empty()) {
            verdict.found = "no NVIDIA driver: " + driver.library + " cannot be loaded (" +
                            driver.loadError + ") and " + driver.moduleFile + " is absent";
            return verdict;
        }
        if (driver.moduleVersion.empty()) { // a trace of a kernel module, not a usable one
            verdict.fit = DriverFit::Unusable;
            verdict.found = "no usable NVIDIA driver: " + driver.library + " cannot be loaded (" +
                            driver.loadError + ") and " + driver.moduleFileProblem;
            verdict.advice = "Check the driver with nvidia-smi (reinstall it if the file is "
                             "damaged), or use the CPU build: DEVICEBENCH_PRESET=default "
                             "scripts/run.sh.";
            return verdict;
        }
        verdict.fit = DriverFit::Unusable;
        verdict.found = "the NVIDIA kernel module " + driver.moduleVersion + " is loaded (" +
                        driver.moduleFile + ") but its library " + driver.library +
                        " cannot be loaded (" + driver.loadError + ")";
        verdict.advice = "Install the driver's user-space library (libcuda.so.1: Debian's "
                         "libcuda1 or the NVIDIA installer's), or use the CPU build: "
                         "DEVICEBENCH_PRESET=default scripts/run.sh.";
        return verdict;
    }
    if (!driver.hasVersion || driver.cudaVersion == 0) {
        verdict.fit = DriverFit::Unusable;
        verdict.found =
            driver.hasVersion
                ? "the NVIDIA driver " + driver.library + module +
                      " does not answer: cuDriverGetVersion failed (CUresult " +
                      std::to_string(driver.versionError) + ")"
                : driver.library + module +
                      " has no cuDriverGetVersion: it is not a usable NVIDIA driver library";
        verdict.advice = "Check the driver with nvidia-smi (a library and a kernel module of "
                         "different versions, after an update without a reboot, fail this way), "
                         "or use the CPU build: DEVICEBENCH_PRESET=default scripts/run.sh.";
        return verdict;
    }
    const std::string supports =
        "the NVIDIA driver" + (driver.moduleVersion.empty() ? "" : " " + driver.moduleVersion) +
        " (" + driver.library +
        (driver.moduleFileProblem.empty() ? "" : "; " + driver.moduleFileProblem) + ") supports " +
        cudaText(driver.cudaVersion);
    if (driver.cudaVersion < neededCuda) {
        verdict.fit = DriverFit::TooOld;
        verdict.found = supports + "; torch " + torchVersion + " needs " + cudaText(neededCuda);
        verdict.advice = tooOldAdvice(driver, torchVersion, neededCuda);
        return verdict;
    }
    verdict.fit = DriverFit::Fits;
    verdict.found =
        supports + ", enough for torch " + torchVersion + " (" + cudaText(neededCuda) + ")";
    return verdict;
}

std::string cudaBuildUnusableReason(const std::string &torchVersion, int libtorchCuda,
                                    const CudaDriver &driver) {
    const DriverVerdict verdict = judgeCudaDriver(driver, torchVersion, libtorchCuda);
    const std::string libtorch = "this LibTorch (" + torchVersion +
                                 (libtorchCuda > 0 ? ", " + cudaText(libtorchCuda) : "") + ")";
    switch (verdict.fit) {
    case DriverFit::None:
        return libtorch + " has CUDA, but no CUDA device is visible: " + verdict.found;
    case DriverFit::Fits:
        return libtorch + " has CUDA, but no CUDA device is visible (no GPU, or " +
               "CUDA_VISIBLE_DEVICES hides it); " + verdict.found;
    case DriverFit::Unusable:
    case DriverFit::TooOld:
        break;
    }
    return libtorch + " has CUDA, but cannot use the NVIDIA driver here: " + verdict.found + ". " +
           verdict.advice;
}

} // namespace devicebench
