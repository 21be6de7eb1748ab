#include "cluster_codec.h"

#include <cmath>
#include <initializer_list>
#include <limits>

namespace clusterdesk::codec {
namespace {

using nlohmann::json;

template <class T>
T field(const json& j, const char* key)
{
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return integerField<T>(j, key);
    try {
        return j.at(key).get<T>();
    } catch (const json::exception& e) {
        throw CodecError(std::string("field '") + key + "': " + e.what());
    }
}

template <class Enum>
Enum enumField(const json& j, const char* key, std::initializer_list<Enum> values)
{
    const std::string text = field<std::string>(j, key);
    std::string known;
    for (Enum value : values) {
        using clusterdesk::toString;
        using kernels::toString;
        if (toString(value) == text) return value;
        known += (known.empty() ? "" : ", ") + toString(value);
    }
    throw CodecError(std::string("field '") + key + "' has an unknown value '" + text + "' (known: " + known + ")");
}

}  // namespace

std::vector<float> floatArrayField(const json& j, const char* key)
{
    if (!j.is_object() || !j.contains(key) || !j.at(key).is_array()) throw CodecError(std::string("field '") + key + "' must be an array");
    std::vector<float> out;
    out.reserve(j.at(key).size());
    for (const json& item : j.at(key)) {
        const double value = item.is_number() ? item.get<double>() : std::numeric_limits<double>::quiet_NaN();
        if (!(std::fabs(value) <= std::numeric_limits<float>::max()))
            throw CodecError(std::string("field '") + key + "' holds " + item.dump() + ", not a float32 number");
        out.push_back(static_cast<float>(value));
    }
    return out;
}

json parseJson(const std::string& text, const std::string& what)
{
    try {
        return json::parse(text);
    } catch (const json::exception& e) {
        throw CodecError(what + " are not valid JSON: " + e.what());
    }
}

json toJson(const KMeansParams& p)
{
    return {{"algorithm", toString(p.algorithm)},
            {"k", p.k},
            {"k0", p.k0},
            {"kmax", p.kMax},
            {"merge", p.merge},
            {"init", toString(p.init)},
            {"n_init", p.nInit},
            {"max_iterations", p.maxIterations},
            {"tolerance", p.tolerance},
            {"seed", p.seed},
            {"mode", kernels::toString(p.mode)},
            {"precision", kernels::toString(p.precision)},
            {"parallel_rounds", p.parallelRounds},
            {"oversampling", p.oversampling},
            {"split_iterations", p.splitIterations},
            {"max_rounds", p.maxRounds}};
}

json paramsThatApplied(const json& params)
{
    if (!params.is_object()) return params;
    json shown = params;
    const auto text = [&](const char* key) { return params.contains(key) && params[key].is_string() ? params[key].get<std::string>() : ""; };
    const std::string algorithm = text("algorithm");
    if (algorithm == toString(Algorithm::AdaptGrow)) shown.erase("k");
    if (algorithm == toString(Algorithm::KMeans))
        for (const char* key : {"k0", "kmax", "merge", "split_iterations", "max_rounds"}) shown.erase(key);
    if (text("init") != toString(InitMethod::KMeansParallel))
        for (const char* key : {"parallel_rounds", "oversampling"}) shown.erase(key);
    return shown;
}

KMeansParams paramsFromJson(const json& j)
{
    KMeansParams p;
    p.algorithm = enumField(j, "algorithm", {Algorithm::KMeans, Algorithm::AdaptGrow});
    p.k = field<int>(j, "k");
    p.k0 = field<int>(j, "k0");
    p.kMax = field<int>(j, "kmax");
    p.merge = field<bool>(j, "merge");
    p.init = enumField(j, "init", {InitMethod::KMeansPlusPlus, InitMethod::KMeansParallel, InitMethod::Given});
    p.nInit = j.contains("n_init") ? field<int>(j, "n_init") : 1;  // records from before restarts
    p.maxIterations = field<int>(j, "max_iterations");
    p.tolerance = field<double>(j, "tolerance");
    p.seed = field<std::uint64_t>(j, "seed");
    p.mode = enumField(j, "mode", {kernels::Mode::Fast, kernels::Mode::Exact});
    p.precision = enumField(j, "precision", {kernels::Precision::FP32, kernels::Precision::TF32, kernels::Precision::BF16});
    p.parallelRounds = field<int>(j, "parallel_rounds");
    p.oversampling = field<double>(j, "oversampling");
    p.splitIterations = field<int>(j, "split_iterations");
    p.maxRounds = field<int>(j, "max_rounds");
    return p;
}

json toJson(const std::vector<RankTiming>& ranks)
{
    json out = json::array();
    for (const RankTiming& r : ranks) out.push_back({{"assign_ms", r.assignMs}, {"update_ms", r.updateMs}, {"reduce_ms", r.reduceMs}});
    return out;
}

std::vector<RankTiming> rankTimingsFromJson(const json& j)
{
    if (!j.is_array()) throw CodecError("per-rank timings must be an array");
    std::vector<RankTiming> ranks;
    for (const json& r : j) ranks.push_back({field<double>(r, "assign_ms"), field<double>(r, "update_ms"), field<double>(r, "reduce_ms")});
    return ranks;
}

json toJson(const IterationStats& s)
{
    return {{"iteration", s.iteration},   {"round", s.round},       {"k", s.k},
            {"inertia", s.inertia},       {"sizes", s.sizes},       {"assign_ms", s.assignMs},
            {"update_ms", s.updateMs},    {"reduce_ms", s.reduceMs}, {"rows_searched", s.rowsSearched},
            {"event", s.event},           {"ranks", toJson(s.ranks)}};
}

IterationStats iterationFromJson(const json& j)
{
    IterationStats s;
    s.iteration = field<int>(j, "iteration");
    s.round = field<int>(j, "round");
    s.k = field<int>(j, "k");
    s.inertia = field<double>(j, "inertia");
    s.sizes = integerArrayField<std::int64_t>(j, "sizes");
    s.assignMs = field<double>(j, "assign_ms");
    s.updateMs = field<double>(j, "update_ms");
    s.reduceMs = field<double>(j, "reduce_ms");
    s.rowsSearched = field<std::int64_t>(j, "rows_searched");
    s.event = field<std::string>(j, "event");
    s.ranks = rankTimingsFromJson(j.at("ranks"));
    return s;
}

namespace {

// A share, or null when it could not be measured (JSON has no NaN); infinity (a bar
// nothing clears) as the string "inf", which shareField reads back.
json shareJson(double v)
{
    if (std::isnan(v)) return nullptr;
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
}

double shareField(const json& j, const char* key)
{
    if (!j.is_object() || !j.contains(key)) throw CodecError(std::string("field '") + key + "' is missing");
    const json& v = j.at(key);
    if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
    if (v == "inf") return std::numeric_limits<double>::infinity();
    if (v == "-inf") return -std::numeric_limits<double>::infinity();
    if (!v.is_number()) throw CodecError(std::string("field '") + key + "' must be a number, null or \"inf\"");
    return v.get<double>();
}

}  // namespace

json toJson(const GrowthLog& log)
{
    json splits = json::array();
    for (const SplitTestRecord& t : log.splits)
        splits.push_back({{"round", t.round}, {"cluster", t.cluster}, {"rows", t.rows}, {"axis_share", shareJson(t.axisShare)},
                          {"axis_bar", shareJson(t.axisBar)}, {"split_share", shareJson(t.splitShare)},
                          {"split_edge", shareJson(t.splitEdge)}, {"verdict", toString(t.verdict)}});
    json merges = json::array();
    for (const MergeTestRecord& m : log.merges)
        merges.push_back({{"round", m.round}, {"a", m.a}, {"b", m.b}, {"rows", m.rows}, {"share", shareJson(m.share)},
                          {"edge", shareJson(m.edge)}, {"merged", m.merged}});
    return {{"stop", toString(log.stop)},  {"stop_round", log.stopRound}, {"stage", log.stage}, {"stop_iteration", log.stopIteration},
            {"stop_k", log.stopK},          {"final_k", log.finalK},        {"splits", std::move(splits)},
            {"merges", std::move(merges)}};
}

GrowthLog growthFromJson(const json& j)
{
    GrowthLog log;
    log.stop = enumField(j, "stop", {GrowthStop::NotGrown, GrowthStop::NoSplit, GrowthStop::KMax, GrowthStop::RoundLimit, GrowthStop::Cancelled});
    log.stopRound = field<int>(j, "stop_round");
    log.stage = j.contains("stage") ? field<std::string>(j, "stage") : std::string();  // records from before re-tests named it
    log.stopIteration = field<int>(j, "stop_iteration");
    log.stopK = field<int>(j, "stop_k");
    log.finalK = field<int>(j, "final_k");
    if (!j.contains("splits") || !j.at("splits").is_array()) throw CodecError("field 'splits' must be an array");
    for (const json& t : j.at("splits"))
        log.splits.push_back({field<int>(t, "round"), field<int>(t, "cluster"), field<std::int64_t>(t, "rows"), shareField(t, "axis_share"),
                              shareField(t, "axis_bar"), shareField(t, "split_share"), shareField(t, "split_edge"),
                              enumField(t, "verdict", {SplitVerdict::Split, SplitVerdict::AxisBelowBar, SplitVerdict::SplitBelowEdge,
                                                       SplitVerdict::TooFewRows, SplitVerdict::LoneChild, SplitVerdict::NoRoom})});
    if (!j.contains("merges") || !j.at("merges").is_array()) throw CodecError("field 'merges' must be an array");
    for (const json& m : j.at("merges"))
        log.merges.push_back({field<int>(m, "round"), field<int>(m, "a"), field<int>(m, "b"), field<std::int64_t>(m, "rows"),
                              shareField(m, "share"), shareField(m, "edge"), field<bool>(m, "merged")});
    return log;
}

json toJson(const ClusterResult& r)
{
    return {{"k", r.k},           {"cols", r.cols},           {"iterations", r.iterations}, {"inertia", r.inertia},
            {"converged", r.converged}, {"cancelled", r.cancelled}, {"init_ms", r.initMs},  {"sizes", r.sizes},
            {"labels", r.labels}, {"centroids", r.centroids}, {"growth", toJson(r.growth)}};
}

ClusterResult resultFromJson(const json& j)
{
    ClusterResult r;
    r.k = field<int>(j, "k");
    r.cols = field<std::int64_t>(j, "cols");
    r.iterations = field<int>(j, "iterations");
    r.inertia = field<double>(j, "inertia");
    r.converged = field<bool>(j, "converged");
    r.cancelled = field<bool>(j, "cancelled");
    r.initMs = field<double>(j, "init_ms");
    r.sizes = integerArrayField<std::int64_t>(j, "sizes");
    r.labels = integerArrayField<std::int32_t>(j, "labels");
    r.centroids = floatArrayField(j, "centroids");
    if (!j.contains("growth")) throw CodecError("field 'growth' is missing");
    r.growth = growthFromJson(j.at("growth"));
    if (r.centroids.size() != static_cast<std::size_t>(r.k) * static_cast<std::size_t>(r.cols))
        throw CodecError("field 'centroids' holds " + std::to_string(r.centroids.size()) + " values, not k x cols = " +
                         std::to_string(r.k) + " x " + std::to_string(r.cols));
    return r;
}

}  // namespace clusterdesk::codec
