#include "pool_job.h"

#include "../cluster/cluster_codec.h"
#include "../core/error.h"
#include "../data/open_source.h"

#include <nlohmann/json.hpp>

namespace clusterdesk {

using nlohmann::json;

PoolJob poolJobFor(const Dataset& data, const KMeansParams& params, int threadsPerRank)
{
    if (data.spec.source.empty())
        throw UsageError("the dataset from " + data.source + " does not say how it was opened, so pool ranks cannot open it");
    PoolJob job;
    job.source = data.spec;
    job.expectedHash = data.contentHash();
    job.params = params;
    job.threadsPerRank = threadsPerRank;
    return job;
}

std::string poolJobToJson(const PoolJob& job)
{
    json params = codec::toJson(job.params);
    params["initial_centroids"] = job.params.initialCentroids;
    const json j = {{"source", json::parse(sourceSpecToJson(job.source))},
                    {"expected_hash", job.expectedHash},
                    {"threads_per_rank", job.threadsPerRank},
                    {"rank_backend", job.rankBackend},
                    {"params", params}};
    return j.dump();
}

PoolJob poolJobFromJson(const std::string& text)
{
    try {
        const json j = codec::parseJson(text, "the pool job's contents");
        PoolJob job;
        job.source = sourceSpecFromJson(j.at("source").dump());
        job.expectedHash = j.value("expected_hash", std::string());
        job.threadsPerRank = codec::integerFieldOr(j, "threads_per_rank", 0);
        job.rankBackend = j.value("rank_backend", std::string("host"));
        if (job.rankBackend != "host" && job.rankBackend != "cuda")
            throw UsageError("pool job: rank_backend must be host or cuda, not '" + job.rankBackend + "'");
        const json& params = j.at("params");
        job.params = codec::paramsFromJson(params);
        job.params.initialCentroids = codec::floatArrayField(params, "initial_centroids");
        return job;
    } catch (const json::exception& e) {
        throw UsageError(std::string("malformed pool job: ") + e.what());
    } catch (const CodecError& e) {
        throw UsageError(std::string("malformed pool job: ") + e.what());
    }
}

Dataset loadPoolData(const PoolJob& job)
{
    return openSource(job.source);
}

std::string iterationLine(const IterationStats& s)
{
    json j = codec::toJson(s);
    j["type"] = "iteration";
    return j.dump();
}

std::string resultLine(const ClusterResult& r, const std::string& communicator)
{
    json j = codec::toJson(r);
    j["type"] = "result";
    j["communicator"] = communicator;
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}
std::string heartbeatLine(int rank, std::uint64_t progress, bool waiting, bool finished)
{
    return json{{"type", "heartbeat"}, {"rank", rank}, {"progress", progress}, {"waiting", waiting}, {"finished", finished}}.dump();
}

std::string errorLine(int rank, const std::string& kind, const std::string& message, const std::string& file,
                      std::int64_t line, std::int64_t column)
{
    return json{{"type", "error"}, {"rank", rank},   {"kind", kind},    {"message", message},
                {"file", file},    {"line", line},   {"column", column}}.dump(
        -1, ' ', false, json::error_handler_t::replace);
}

PoolMessage parsePoolLine(const std::string& line)
{
    PoolMessage m;
    if (line.empty() || line.front() != '{') return m;
    try {
        const json j = json::parse(line);
        const std::string type = j.value("type", std::string());
        if (type == "iteration") {
            m.iteration = codec::iterationFromJson(j);
            m.type = PoolMessage::Type::Iteration;
        } else if (type == "result") {
            m.result = codec::resultFromJson(j);
            m.communicator = j.value("communicator", std::string());
            m.type = PoolMessage::Type::Result;
        } else if (type == "heartbeat") {
            m.rank = codec::integerField<int>(j, "rank");
            m.progress = codec::integerField<std::uint64_t>(j, "progress");
            m.waiting = j.at("waiting").get<bool>();
            m.finished = j.value("finished", false);
            m.type = PoolMessage::Type::Heartbeat;
        } else if (type == "error") {
            m.rank = codec::integerFieldOr(j, "rank", -1);
            m.kind = j.value("kind", std::string("error"));
            m.message = j.value("message", std::string());
            m.file = j.value("file", std::string());
            m.line = codec::integerFieldOr(j, "line", std::int64_t{0});
            m.column = codec::integerFieldOr(j, "column", std::int64_t{0});
            m.type = PoolMessage::Type::Error;
        }
    } catch (const json::exception&) {
        m = PoolMessage{};
    } catch (const CodecError&) {
        m = PoolMessage{};
    }
    return m;
}

}  // namespace clusterdesk
