// SPDX-License-Identifier: MIT
// Engine-internal (distributed): Collectives over any c10d store, for joinProcessGroup and for
// the tests (two ranks on two threads over one c10d::HashStore).
#pragma once

#include "devicebench/data_parallel.h"

#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/torch.h> // the collectives' tensors (data_parallel.h has the tensor type only)

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace devicebench::detail {

// `seconds` (a --timeout: finite, above 0, at most a day) as c10d's timeouts take it.
inline std::chrono::milliseconds toMilliseconds(double seconds) {
    return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000.0));
}

// The process group of `backend` ("gloo", or "nccl" in a CUDA build) over `store`, for rank
// `rank` of `worldSize`; each collective waits at most `timeoutSeconds`. Gloo's network
// device: the interface named by GLOO_SOCKET_IFNAME when set, as PyTorch does, else the
// address this host's name resolves to (loopback when it resolves to none). Throws
// DistributedError for an unknown or unavailable back end, c10::Error from c10d.
std::unique_ptr<Collectives> makeCollectives(const c10::intrusive_ptr<c10d::Store> &store, int rank,
                                             int worldSize, const std::string &backend,
                                             double timeoutSeconds, int cudaDevice = -1);

} // namespace devicebench::detail
