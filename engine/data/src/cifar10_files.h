// SPDX-License-Identifier: MIT
// Engine-internal (data): the CIFAR-10 file and folder checks that need no tensor, shared by
// the tensor reader (cifar10.cpp, engine_data) and the folder check (checkCifar10Folder,
// engine_data_files). LibTorch-free. Every function throws DataError (cifar10_format.h)
// naming the path, in the reader's words.
#pragma once

#include "devicebench/cifar10_format.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace devicebench::detail {

// data_batch_1.bin .. data_batch_5.bin, in the order the training split reads them.
extern const std::vector<std::string> kTrainFiles;

// `p` in single quotes, as every data error names a path.
std::string quoted(const std::filesystem::path &p);

// CIFAR-100's binary records are 3,074 bytes (2 label bytes): a size of `bytes` that is a
// whole number of those and not of CIFAR-10's 3,073 is refused as such; `where` names the
// source.
void rejectCifar100Size(std::int64_t bytes, const std::string &where);

// The error for record `index` (from 0) of `where` whose label byte is `label` (> 9).
DataError badLabelError(const std::string &where, std::int64_t index, std::int64_t label);

// Checks presence, type and size of a batch file without reading it: exactly 10,000 records
// of 3,073 bytes. Returns the record count.
std::int64_t checkedRecordCount(const std::filesystem::path &path);

// The folder-level checks: it exists, is a readable folder of the binary version (not the
// Python pickle variant, not CIFAR-100) with every batch file present. Returns the folder.
std::filesystem::path checkFolderLayout(const std::string &dir);

// Reads the file in chunks of whole records and checks each of its `records` label bytes
// (0-9), so that a bad label is found before any run, not when the run loads the data.
void checkLabelBytes(const std::filesystem::path &path, std::int64_t records);

} // namespace devicebench::detail
