#include "run_codec.h"

#include "store_error.h"

#include <nlohmann/json.hpp>

namespace clusterdesk::store {
namespace {

template <class Enum>
Enum parseEnum(const std::string& field, const std::string& text, std::initializer_list<Enum> values,
               std::string (*name)(Enum))
{
    for (Enum value : values) {
        if (name(value) == text) return value;
    }
    throw StoreError("stored run parameter " + field + " has an unknown value '" + text + "'");
}

std::string modeName(kernels::Mode mode) { return kernels::toString(mode); }
std::string precisionName(kernels::Precision precision) { return kernels::toString(precision); }
std::string algorithmName(Algorithm algorithm) { return toString(algorithm); }
std::string initName(InitMethod init) { return toString(init); }
std::string layoutName(Layout layout) { return toString(layout); }

template <class T>
T field(const nlohmann::json& j, const char* key, const char* what)
{
    try {
        return j.at(key).get<T>();
    } catch (const nlohmann::json::exception& e) {
        throw StoreError(std::string("stored ") + what + " field '" + key + "': " + e.what());
    }
}

nlohmann::json parse(const std::string& json, const char* what)
{
    try {
        return nlohmann::json::parse(json);
    } catch (const nlohmann::json::exception& e) {
        throw StoreError(std::string("stored ") + what + " are not valid JSON: " + e.what());
    }
}

}  // namespace

std::string paramsToJson(const KMeansParams& p)
{
    const nlohmann::json j = {{"algorithm", toString(p.algorithm)},
                              {"k", p.k},
                              {"k0", p.k0},
                              {"kmax", p.kMax},
                              {"merge", p.merge},
                              {"init", toString(p.init)},
                              {"max_iterations", p.maxIterations},
                              {"tolerance", p.tolerance},
                              {"seed", p.seed},
                              {"mode", kernels::toString(p.mode)},
                              {"precision", kernels::toString(p.precision)},
                              {"parallel_rounds", p.parallelRounds},
                              {"oversampling", p.oversampling},
                              {"split_iterations", p.splitIterations},
                              {"max_rounds", p.maxRounds}};
    return j.dump();
}

KMeansParams paramsFromJson(const std::string& json)
{
    const nlohmann::json j = parse(json, "run parameters");
    constexpr const char* what = "run parameter";
    KMeansParams p;
    p.algorithm = parseEnum("algorithm", field<std::string>(j, "algorithm", what), {Algorithm::KMeans, Algorithm::AdaptGrow}, algorithmName);
    p.k = field<int>(j, "k", what);
    p.k0 = field<int>(j, "k0", what);
    p.kMax = field<int>(j, "kmax", what);
    p.merge = field<bool>(j, "merge", what);
    p.init = parseEnum("init", field<std::string>(j, "init", what),
                       {InitMethod::KMeansPlusPlus, InitMethod::KMeansParallel, InitMethod::Given}, initName);
    p.maxIterations = field<int>(j, "max_iterations", what);
    p.tolerance = field<double>(j, "tolerance", what);
    p.seed = field<std::uint64_t>(j, "seed", what);
    p.mode = parseEnum("mode", field<std::string>(j, "mode", what), {kernels::Mode::Fast, kernels::Mode::Exact}, modeName);
    p.precision = parseEnum("precision", field<std::string>(j, "precision", what),
                            {kernels::Precision::FP32, kernels::Precision::TF32, kernels::Precision::BF16}, precisionName);
    p.parallelRounds = field<int>(j, "parallel_rounds", what);
    p.oversampling = field<double>(j, "oversampling", what);
    p.splitIterations = field<int>(j, "split_iterations", what);
    p.maxRounds = field<int>(j, "max_rounds", what);
    return p;
}

std::string loadOptionsToJson(const LoadOptions& o)
{
    nlohmann::json j = {{"window", o.returnWindow},
                        {"max_forward_fill", o.maxForwardFill},
                        {"min_history", o.minHistory},
                        {"bar_seconds", o.barSeconds}};
    if (o.layout) j["layout"] = toString(*o.layout);
    return j.dump();
}

LoadOptions loadOptionsFromJson(const std::string& json)
{
    const nlohmann::json j = parse(json, "load options");
    constexpr const char* what = "load option";
    LoadOptions o;
    if (j.contains("layout"))
        o.layout = parseEnum("layout", field<std::string>(j, "layout", what), {Layout::Matrix, Layout::Prices, Layout::Ticks}, layoutName);
    o.returnWindow = field<int>(j, "window", what);
    o.maxForwardFill = field<int>(j, "max_forward_fill", what);
    o.minHistory = field<double>(j, "min_history", what);
    o.barSeconds = field<std::int64_t>(j, "bar_seconds", what);
    return o;
}

}  // namespace clusterdesk::store
