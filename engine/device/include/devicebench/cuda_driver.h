// SPDX-License-Identifier: MIT
// The NVIDIA driver as CUDA itself finds it, without LibTorch or CUDA headers: the driver
// library libcuda.so.1 (dlopen) and its cuDriverGetVersion, and the kernel module's
// /proc/driver/nvidia/version. Then whether that driver runs a PyTorch wheel's CUDA, and the
// ways forward when it does not (docs/GPU.md, "Which build run.sh makes"). Plain C++.
#pragma once

#include <string>
#include <vector>

namespace devicebench {

// What was found. Nothing here starts the driver (no cuInit).
struct CudaDriver {
    std::string library;       // the library asked for: "libcuda.so.1" or the override
    bool loaded = false;       // dlopen succeeded
    std::string loadError;     // dlerror()'s text when it did not
    bool hasVersion = false;   // the library has cuDriverGetVersion
    int cudaVersion = 0;       // its answer, 1000 * major + 10 * minor (13000 = CUDA 13.0); 0: none
    int versionError = 0;      // its CUresult when it failed (0: it did not fail)
    std::string moduleFile;    // the kernel module's version file read
    std::string moduleVersion; // the driver version in its first line ("580.95.05"); "" none
    // "" when the file was read and named a version, or is absent; else why it could not be used:
    // "FILE exists but cannot be read (REASON)", "FILE is malformed: its first line '...' ..."
    std::string moduleFileProblem;
};

// Reads the driver at the usual places, or where DEVICEBENCH_CUDA_DRIVER_LIBRARY (a library
// path) and DEVICEBENCH_NVIDIA_VERSION_FILE (a file like /proc/driver/nvidia/version) say
// (tests: stand-ins). Never throws.
CudaDriver readCudaDriver();
CudaDriver readCudaDriver(const std::string &library, const std::string &versionFile);

// The driver version in the first line of /proc/driver/nvidia/version ("NVRM version: NVIDIA
// UNIX x86_64 Kernel Module  580.95.05  Tue ..." -> "580.95.05", also the "Open Kernel Module
// for x86_64" form); "" when the text has none.
std::string nvidiaModuleVersion(const std::string &versionFileText);

// A CUDA version number as "major.minor": 13000 -> "13.0", 12040 -> "12.4"; 0 or less -> "".
std::string formatCudaVersion(long version);
// "13.0" -> 13000, "12.4" -> 12040; 0 when the text is not major.minor.
int parseCudaVersion(const std::string &text);

// A PyPI torch release, the CUDA of its default Linux x86-64 wheel, the torchvision made for it
// and the first driver of that CUDA (engine/device/src/torch_cuda_pins.inc).
struct TorchCudaPin {
    std::string torch;       // "2.11.0"
    std::string torchvision; // "0.26.0"
    int cuda = 0;            // 13000
    std::string minDriver;   // "580.65.06"
};
// The table, newest torch first.
const std::vector<TorchCudaPin> &torchCudaPins();
// The pin of `torch` (a version, a local part "+cu130" ignored); nullptr when not in the table.
const TorchCudaPin *findTorchCudaPin(const std::string &torch);

// Whether the driver runs a LibTorch built for CUDA `neededCuda` (torch `torchVersion`).
enum class DriverFit {
    None,     // no driver library and no kernel module: no NVIDIA GPU here
    Unusable, // a trace of a driver that cannot answer (no library, no symbol, a failing call)
    TooOld,   // the driver's CUDA is older than `neededCuda`
    Fits,
};
struct DriverVerdict {
    DriverFit fit = DriverFit::None;
    std::string found;  // one sentence: what was found (every case)
    std::string advice; // TooOld and Unusable: what to do, one sentence a way; else ""
};
// The rule: the driver's CUDA (major.minor) at least `neededCuda`. TooOld's advice names the
// driver's CUDA, the one needed, updating the driver (the first driver of that CUDA), the
// newest pin of the table whose CUDA fits (DEVICEBENCH_TORCH_VERSION=...) and the CPU build.
DriverVerdict judgeCudaDriver(const CudaDriver &driver, const std::string &torchVersion,
                              int neededCuda);

// Why a CUDA build of LibTorch (torch `torchVersion`, built for CUDA `libtorchCuda`; 0:
// unknown) sees no CUDA device, with what the driver check found and, for a driver too old or
// one that cannot answer, the ways forward: the sentence `devicebench-cli devices` and the
// dashboard's device list show.
std::string cudaBuildUnusableReason(const std::string &torchVersion, int libtorchCuda,
                                    const CudaDriver &driver);

} // namespace devicebench
