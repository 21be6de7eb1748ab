#include "pool_job.h"

#include "../core/error.h"
#include "../data/demo.h"
#include "../data/load.h"
#include "rank_timing_json.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace clusterdesk {

using nlohmann::json;

PoolJob poolJobFor(const Dataset& data, const KMeansParams& params, int threadsPerRank)
{
    PoolJob job;
    std::error_code ec;
    if (std::filesystem::exists(data.source, ec)) {
        job.dataPath = std::filesystem::absolute(data.source, ec).string();
        if (ec) job.dataPath = data.source;
        job.layout = data.layout;
        if (data.layout != Layout::Matrix) job.returnWindow = static_cast<int>(data.cols);
    } else {
        job.demoSpec = data.source;
    }
    job.expectedHash = data.contentHash();
    job.params = params;
    job.threadsPerRank = threadsPerRank;
    return job;
}

std::string poolJobToJson(const PoolJob& job)
{
    const KMeansParams& p = job.params;
    json params = {
        {"algorithm", static_cast<int>(p.algorithm)}, {"k", p.k}, {"k0", p.k0}, {"kmax", p.kMax}, {"merge", p.merge},
        {"init", static_cast<int>(p.init)}, {"initial_centroids", p.initialCentroids}, {"max_iterations", p.maxIterations},
        {"tolerance", p.tolerance}, {"seed", p.seed}, {"mode", static_cast<int>(p.mode)},
        {"precision", static_cast<int>(p.precision)}, {"parallel_rounds", p.parallelRounds},
        {"oversampling", p.oversampling}, {"split_iterations", p.splitIterations}, {"max_rounds", p.maxRounds}};
    json j = {{"data_path", job.dataPath},
              {"layout", job.layout ? static_cast<int>(*job.layout) : -1},
              {"return_window", job.returnWindow},
              {"demo", job.demoSpec},
              {"expected_hash", job.expectedHash},
              {"threads_per_rank", job.threadsPerRank},
              {"rank_backend", job.rankBackend},
              {"params", params}};
    return j.dump();
}

PoolJob poolJobFromJson(const std::string& text)
{
    try {
        const json j = json::parse(text);
        PoolJob job;
        job.dataPath = j.at("data_path").get<std::string>();
        const int layout = j.at("layout").get<int>();
        if (layout >= 0) job.layout = static_cast<Layout>(layout);
        job.returnWindow = j.at("return_window").get<int>();
        job.demoSpec = j.at("demo").get<std::string>();
        job.expectedHash = j.value("expected_hash", std::string());
        job.threadsPerRank = j.value("threads_per_rank", 0);
        job.rankBackend = j.value("rank_backend", std::string("host"));
        if (job.rankBackend != "host" && job.rankBackend != "cuda")
            throw UsageError("pool job: rank_backend must be host or cuda, not '" + job.rankBackend + "'");
        if (job.dataPath.empty() == job.demoSpec.empty()) throw UsageError("pool job: give exactly one of data_path and demo");
        const json& q = j.at("params");
        KMeansParams& p = job.params;
        p.algorithm = static_cast<Algorithm>(q.at("algorithm").get<int>());
        p.k = q.at("k").get<int>();
        p.k0 = q.at("k0").get<int>();
        p.kMax = q.at("kmax").get<int>();
        p.merge = q.at("merge").get<bool>();
        p.init = static_cast<InitMethod>(q.at("init").get<int>());
        p.initialCentroids = q.at("initial_centroids").get<std::vector<float>>();
        p.maxIterations = q.at("max_iterations").get<int>();
        p.tolerance = q.at("tolerance").get<double>();
        p.seed = q.at("seed").get<std::uint64_t>();
        p.mode = static_cast<kernels::Mode>(q.at("mode").get<int>());
        p.precision = static_cast<kernels::Precision>(q.at("precision").get<int>());
        p.parallelRounds = q.at("parallel_rounds").get<int>();
        p.oversampling = q.at("oversampling").get<double>();
        p.splitIterations = q.at("split_iterations").get<int>();
        p.maxRounds = q.at("max_rounds").get<int>();
        return job;
    } catch (const json::exception& e) {
        throw UsageError(std::string("malformed pool job: ") + e.what());
    }
}

Dataset loadPoolData(const PoolJob& job)
{
    if (!job.demoSpec.empty()) {
        try {
            return makeDemo(job.demoSpec);
        } catch (const UsageError& e) {
            throw UsageError("pool ranks load their data from a file or generate a demo; '" + job.demoSpec +
                             "' is no file they can see, nor a demo spec (" + e.what() + ")");
        }
    }
    LoadOptions options;
    options.layout = job.layout;
    options.returnWindow = job.returnWindow;
    return loadDataset(job.dataPath, options);
}

std::string iterationLine(const IterationStats& s)
{
    json j = {{"type", "iteration"}, {"iteration", s.iteration}, {"round", s.round}, {"k", s.k},
              {"inertia", s.inertia}, {"sizes", s.sizes}, {"assign_ms", s.assignMs}, {"update_ms", s.updateMs},
              {"reduce_ms", s.reduceMs}, {"rows_searched", s.rowsSearched}, {"event", s.event},
              {"ranks", rankTimingsToJson(s.ranks)}};
    return j.dump();
}

std::string resultLine(const ClusterResult& r, const std::string& communicator)
{
    json j = {{"type", "result"}, {"k", r.k}, {"cols", r.cols}, {"iterations", r.iterations}, {"inertia", r.inertia},
              {"converged", r.converged}, {"cancelled", r.cancelled}, {"init_ms", r.initMs}, {"sizes", r.sizes},
              {"labels", r.labels}, {"centroids", r.centroids}, {"communicator", communicator}};
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
            IterationStats& s = m.iteration;
            s.iteration = j.at("iteration").get<int>();
            s.round = j.at("round").get<int>();
            s.k = j.at("k").get<int>();
            s.inertia = j.at("inertia").get<double>();
            s.sizes = j.at("sizes").get<std::vector<std::int64_t>>();
            s.assignMs = j.at("assign_ms").get<double>();
            s.updateMs = j.at("update_ms").get<double>();
            s.reduceMs = j.at("reduce_ms").get<double>();
            s.rowsSearched = j.at("rows_searched").get<std::int64_t>();
            s.event = j.value("event", std::string());
            if (j.contains("ranks")) s.ranks = rankTimingsFromJson(j.at("ranks"));
            m.type = PoolMessage::Type::Iteration;
        } else if (type == "result") {
            ClusterResult& r = m.result;
            r.k = j.at("k").get<int>();
            r.cols = j.at("cols").get<std::int64_t>();
            r.iterations = j.at("iterations").get<int>();
            r.inertia = j.at("inertia").get<double>();
            r.converged = j.at("converged").get<bool>();
            r.cancelled = j.value("cancelled", false);
            r.initMs = j.value("init_ms", 0.0);
            r.sizes = j.at("sizes").get<std::vector<std::int64_t>>();
            r.labels = j.at("labels").get<std::vector<std::int32_t>>();
            r.centroids = j.at("centroids").get<std::vector<float>>();
            m.communicator = j.value("communicator", std::string());
            m.type = PoolMessage::Type::Result;
        } else if (type == "heartbeat") {
            m.rank = j.at("rank").get<int>();
            m.progress = j.at("progress").get<std::uint64_t>();
            m.waiting = j.at("waiting").get<bool>();
            m.finished = j.value("finished", false);
            m.type = PoolMessage::Type::Heartbeat;
        } else if (type == "error") {
            m.rank = j.value("rank", -1);
            m.kind = j.value("kind", std::string("error"));
            m.message = j.value("message", std::string());
            m.file = j.value("file", std::string());
            m.line = j.value("line", std::int64_t{0});
            m.column = j.value("column", std::int64_t{0});
            m.type = PoolMessage::Type::Error;
        }
    } catch (const json::exception&) {
        m = PoolMessage{};
    }
    return m;
}

}  // namespace clusterdesk
