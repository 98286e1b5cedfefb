// SPDX-License-Identifier: MIT
// Where the CIFAR-10 binary folder is looked for when the user names none. LibTorch-free.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace devicebench {

// Name of the environment variable that points at a cifar-10-batches-bin folder.
inline constexpr const char *kDataEnvVar = "DEVICEBENCH_DATA";

// The standard cache location: $XDG_CACHE_HOME/devicebench/cifar-10-batches-bin, or
// $HOME/.cache/devicebench/cifar-10-batches-bin when XDG_CACHE_HOME is unset or empty
// (XDG Base Directory Specification). Empty when neither variable is set.
std::string standardDataDir();

// The folder to use when none is given: $DEVICEBENCH_DATA if set and non-empty (even if it
// does not exist, so that the reader's error names it), else standardDataDir() if it holds
// test_batch.bin; std::nullopt when neither applies.
std::optional<std::string> findDefaultDataDir();

// "" when `dir` is a readable CIFAR-10 binary folder (not the pickle or CIFAR-100 variant; the
// six batch files of 30,730,000 bytes each; every label byte 0-9; no tensor made), else the
// reader's message naming the path and the problem.
std::string checkCifar10Folder(const std::string &dir);

// The six batch files a run reads from the folder `dir`: data_batch_1..5.bin, test_batch.bin.
std::vector<std::string> cifar10BatchFiles(const std::string &dir);

// Multi-line help: where to download the CIFAR-10 binary version and where to put it.
std::string dataDirHelp();

} // namespace devicebench
