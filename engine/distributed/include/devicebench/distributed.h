// SPDX-License-Identifier: MIT
// Data-parallel jobs over several processes (docs/DISTRIBUTED.md): the launch environment of
// torchrun and Slurm, the rendezvous through c10d's TCPStore, and the process group (Gloo on
// CPUs, NCCL on NVIDIA GPUs) behind data_parallel.h's Collectives. Every byte between ranks goes
// through c10d, no transport of our own; c10d's types stay in the sources.
#pragma once

#include "devicebench/data_parallel.h"

#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace devicebench {

// A job that cannot start or go on: what() names the setting, rank, address or port, e.g.
// "cannot open the rendezvous store on port 29500 of 127.0.0.1: ... Address already in use
// (another job on that port? choose another --master-port or MASTER_PORT; ...)".
class DistributedError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// torchrun's default rendezvous port (MASTER_PORT).
inline constexpr int kDefaultMasterPort = 29500;
// Seconds a rendezvous or a collective may wait for the other ranks.
inline constexpr double kDefaultTimeoutSeconds = 60.0;

// What a process launched by torchrun, Slurm (with the variables exported) or
// `devicebench-cli launch` finds in its environment.
struct LaunchEnvironment {
    bool present = false;   // WORLD_SIZE is set: this process is a rank of a job
    int rank = 0;           // RANK, 0..worldSize-1
    int worldSize = 1;      // WORLD_SIZE, >= 1
    int localRank = 0;      // LOCAL_RANK (default: RANK), the rank's index on its host
    int localWorldSize = 1; // LOCAL_WORLD_SIZE (default: WORLD_SIZE), ranks on this host
    std::string masterAddr = "127.0.0.1"; // MASTER_ADDR: the host of the rendezvous store
    int masterPort = kDefaultMasterPort;  // MASTER_PORT, 1..65535
    // TORCHELASTIC_USE_AGENT_STORE=True (torchrun, `devicebench-cli launch`): the launcher
    // holds the store; otherwise rank 0 does (Slurm, by hand).
    bool agentStore = false;
};

// Reads the variables above through `getenv` (::getenv by default); neither WORLD_SIZE nor RANK
// set: present false. Throws DistributedError naming the variable and its value when one is
// not a whole number in range, or only one of WORLD_SIZE and RANK is set.
LaunchEnvironment
readLaunchEnvironment(const std::function<const char *(const char *)> &getenv = nullptr);

// "nccl" for a CUDA device ("cuda", "cuda:N"), else "gloo".
std::string defaultBackend(const std::string &device);

// Whether this build can make `backend`'s process group: "gloo" always; "nccl" only in a build
// against a CUDA LibTorch with NCCL. Otherwise returns false and sets *why (when not null).
bool backendAvailable(const std::string &backend, std::string *why = nullptr);

struct ProcessGroupSettings {
    std::string backend = "gloo"; // "gloo" or "nccl"
    int rank = 0;
    int worldSize = 1;
    std::string masterAddr = "127.0.0.1";
    int masterPort = kDefaultMasterPort;
    double timeoutSeconds = kDefaultTimeoutSeconds; // rendezvous, store and each collective
    bool agentStore = false; // the launcher holds the store (else rank 0 does)
    int cudaDevice = -1;     // NCCL: the rank's CUDA device index
    // When set and true while waiting for the other ranks: the wait ends with DistributedError
    // "stopped while waiting for ranks ..." (Ctrl-C during the rendezvous).
    const std::atomic<bool> *stopRequested = nullptr;
};

// Joins the job: opens (rank 0 without agentStore) or reaches the TCPStore at
// masterAddr:masterPort, waits up to timeoutSeconds for every rank, then makes the process
// group. Throws DistributedError before any training, naming the port, address or rank: a port
// in use, a store not reached, a rank that did not arrive, a stop request, a bad back end or
// setting.
std::unique_ptr<Collectives> joinProcessGroup(const ProcessGroupSettings &settings);

// The launcher's rendezvous store (torchrun's agent store): a TCPStore server on `port` of
// this host (0: a free port, then port() says which) for `worldSize` ranks, kept while the
// object lives. Throws DistributedError naming the port when it cannot listen.
class StoreHost {
public:
    StoreHost(int port, int worldSize, double timeoutSeconds);
    ~StoreHost();
    StoreHost(const StoreHost &) = delete;
    StoreHost &operator=(const StoreHost &) = delete;
    int port() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace devicebench
