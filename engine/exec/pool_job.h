// The job a pool run hands to every clusterdesk-worker rank (a JSON file), and the
// JSON lines rank 0 prints back: one {"type":"iteration",...} per iteration, then
// {"type":"result",...}; any rank that fails prints {"type":"error",...}; every rank
// prints {"type":"heartbeat",...} about once a second. Both sides
// use these functions, so the protocol lives in one place.
#pragma once

#include "../cluster/params.h"
#include "../data/dataset.h"
#include "../data/source_spec.h"

#include <optional>
#include <string>

namespace clusterdesk {

struct PoolJob {
    SourceSpec source;         // what every rank opens: the launcher's Dataset::spec, every option included
    std::string expectedHash;  // the launcher's Dataset::contentHash(); empty = not checked
    KMeansParams params;
    int threadsPerRank = 0;    // 0: the node's cores divided among the ranks on it
    // "host", or "cuda": each rank on GPU (node-local rank mod the node's GPUs), the
    // ranks joined by NCCL when every one can, else by MPI.
    std::string rankBackend = "host";
};

// The job for `data`: its SourceSpec, which every rank opens as the launcher did, and
// its content hash, so a rank that reads something else (a file changed, a node sees
// another file at that path) fails instead of clustering it. UsageError when the
// dataset was not opened from a source (data.spec empty).
PoolJob poolJobFor(const Dataset& data, const KMeansParams& params, int threadsPerRank);

std::string poolJobToJson(const PoolJob& job);
// Throws UsageError naming what is missing or malformed.
PoolJob poolJobFromJson(const std::string& text);

// Opens the job's source (throws what openSource throws).
Dataset loadPoolData(const PoolJob& job);

// --- rank 0's progress lines ---------------------------------------------------------
std::string iterationLine(const IterationStats& stats);
// communicator: how the ranks were joined ("MPI", "NCCL over MPI", with why not NCCL).
std::string resultLine(const ClusterResult& result, const std::string& communicator = {});
// Every rank, about once a second (the launcher's watchdog): progress counts the
// collectives the rank has completed, waiting says it is inside one now; a last one
// with finished set says the rank is done and will go quiet.
std::string heartbeatLine(int rank, std::uint64_t progress, bool waiting, bool finished = false);
// kind: "usage", "data", "device" or "error"; file/line/column locate a data error.
std::string errorLine(int rank, const std::string& kind, const std::string& message, const std::string& file = {},
                      std::int64_t line = 0, std::int64_t column = 0);

struct PoolMessage {
    enum class Type { Iteration, Result, Error, Heartbeat, Other } type = Type::Other;
    IterationStats iteration;
    ClusterResult result;
    int rank = -1;
    std::string kind;
    std::string message;
    std::string file;
    std::int64_t line = 0;
    std::int64_t column = 0;
    std::uint64_t progress = 0;  // heartbeat
    bool waiting = false;        // heartbeat
    bool finished = false;       // heartbeat
    std::string communicator;    // result
};

// Parses one line; lines that are not JSON objects of a known type give Type::Other.
PoolMessage parsePoolLine(const std::string& line);

}  // namespace clusterdesk
