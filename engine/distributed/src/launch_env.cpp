// SPDX-License-Identifier: MIT
// The launch environment (torchrun's variables) and the back end's choice.
#include "devicebench/distributed.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <functional>
#include <string>

namespace devicebench {
namespace {

int wholeNumber(const char *name, const char *text, long low, long high) {
    errno = 0;
    char *end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (text[0] == '\0' || end == nullptr || *end != '\0' || errno != 0 || value < low ||
        value > high) {
        throw DistributedError(std::string(name) + "='" + text + "' must be a whole number from " +
                               std::to_string(low) + " to " + std::to_string(high));
    }
    return static_cast<int>(value);
}

} // namespace

LaunchEnvironment readLaunchEnvironment(const std::function<const char *(const char *)> &getenv) {
    const auto get = [&](const char *name) -> const char * {
        return getenv ? getenv(name) : std::getenv(name);
    };
    LaunchEnvironment env;
    const char *world = get("WORLD_SIZE");
    if (world == nullptr) {
        if (const char *rank = get("RANK"); rank != nullptr)
            throw DistributedError("RANK is set (" + std::string(rank) +
                                   ") but WORLD_SIZE is not: set both (torchrun and "
                                   "`devicebench-cli launch` do), or neither for a "
                                   "single-process run");
        return env;
    }
    env.present = true;
    env.worldSize = wholeNumber("WORLD_SIZE", world, 1, 1 << 20);
    const char *rank = get("RANK");
    if (rank == nullptr)
        throw DistributedError("WORLD_SIZE is set (" + std::string(world) +
                               ") but RANK is not: set both (torchrun and `devicebench-cli "
                               "launch` do), or neither for a single-process run");
    env.rank = wholeNumber("RANK", rank, 0, env.worldSize - 1);
    const char *localWorld = get("LOCAL_WORLD_SIZE");
    env.localWorldSize = localWorld != nullptr
                             ? wholeNumber("LOCAL_WORLD_SIZE", localWorld, 1, env.worldSize)
                             : env.worldSize;
    const char *localRank = get("LOCAL_RANK");
    env.localRank = localRank != nullptr
                        ? wholeNumber("LOCAL_RANK", localRank, 0, env.localWorldSize - 1)
                        : env.rank % env.localWorldSize;
    if (const char *addr = get("MASTER_ADDR"); addr != nullptr) {
        if (addr[0] == '\0')
            throw DistributedError("MASTER_ADDR is set but empty: give the host of rank 0");
        env.masterAddr = addr;
    }
    if (const char *port = get("MASTER_PORT"); port != nullptr)
        env.masterPort = wholeNumber("MASTER_PORT", port, 1, 65535);
    if (const char *agent = get("TORCHELASTIC_USE_AGENT_STORE"); agent != nullptr)
        env.agentStore = std::string(agent) == "True";
    return env;
}

std::string defaultBackend(const std::string &device) {
    return device.rfind("cuda", 0) == 0 ? "nccl" : "gloo";
}

} // namespace devicebench
