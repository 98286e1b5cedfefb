// SPDX-License-Identifier: MIT
// Engine-internal helpers of fingerprint.cpp, exposed for the unit tests. LibTorch-free.
#pragma once

#include <string>
#include <vector>

namespace devicebench::detail {

// A set of CPU numbers as the kernel writes CPU lists (cpuset "cpus" format): sorted, repeats
// dropped, runs of two or more consecutive numbers as "a-b". {0, 1, 2, 5, 7, 8} ->
// "0-2,5,7-8"; {} -> "".
std::string formatCpuList(std::vector<int> cpus);

// CPU quota in cores from the text of a cgroup v2 `cpu.max` file, "<quota> <period>" in
// microseconds (kernel docs, Documentation/admin-guide/cgroup-v2.rst, "cpu.max"):
// "200000 100000" -> 2.0; "max 100000" (no limit) -> 0.0. Text after the two numbers is
// ignored. Malformed text, or a period or quota that is not positive, -> 0.0 (unknown).
double parseCpuMax(const std::string &text);

// The cgroup v2 path of the process from the text of /proc/self/cgroup: the line "0::<path>"
// (kernel docs, cgroup-v2.rst, "Processes"). "" when there is no such line.
std::string cgroupV2Path(const std::string &procSelfCgroup);

// The cgroup v1 hierarchy line that holds the "cpu" controller, as "<controllers>" and
// "<path>" (e.g. "4:cpu,cpuacct:/docker/ab" -> {"cpu,cpuacct", "/docker/ab"}); both "" when
// there is none.
struct CgroupV1Cpu {
    std::string controllers;
    std::string path;
};
CgroupV1Cpu cgroupV1CpuPath(const std::string &procSelfCgroup);

// A cuDNN version number as "major.minor.patch": 8700 -> "8.7.0" (cuDNN 8: 1000 * major +
// 100 * minor + patch), 90100 -> "9.1.0" (cuDNN 9: 10000 * major + 100 * minor + patch).
std::string formatCudnnVersion(long version);

// True when this LibTorch was built with CUDA: at::show_config() lists "USE_CUDA=ON".
// Never touches a device. (Defined in devices.cpp.)
bool builtWithCuda();

} // namespace devicebench::detail
