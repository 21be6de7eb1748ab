// One cell of adaptgrow_markets.py: generate a market demo, run AdaptGrow on it, and
// hand the peer the very same rows. Writes the z-scored returns (rows x cols float32,
// row-major) to MATRIX and prints one JSON line: rows, cols, the planted sectors, the
// labels AdaptGrow chose and the event of every round (why it split, merged, stopped).
// N_INIT k-means restarts at the chosen k compete with AdaptGrow's partition (the peer's
// n_init; 1 = none).
//
// Usage: bench-market-cell DEMO_SPEC MATRIX [fast|exact] [N_INIT]
#include "engine/data/demo.h"
#include "engine/exec/run_clustering.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>

using namespace clusterdesk;

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::cerr << "usage: bench-market-cell DEMO_SPEC MATRIX [fast|exact] [N_INIT]\n";
        return 2;
    }
    try {
        const Dataset data = makeDemo(argv[1]);
        std::ofstream matrix(argv[2], std::ios::binary);
        matrix.write(reinterpret_cast<const char*>(data.values.data()),
                     static_cast<std::streamsize>(data.values.size() * sizeof(float)));
        if (!matrix) throw std::runtime_error(std::string("cannot write ") + argv[2]);

        KMeansParams params;
        params.algorithm = Algorithm::AdaptGrow;
        params.k0 = 2;
        params.kMax = static_cast<int>(std::min<std::int64_t>(64, data.rows));
        params.mode = argc > 3 && std::string(argv[3]) == "exact" ? kernels::Mode::Exact : kernels::Mode::Fast;
        params.nInit = argc > 4 ? std::stoi(argv[4]) : 1;
        const RunReport report = runClustering(data, params, parseTopology("host"), 0);

        nlohmann::json events = nlohmann::json::array();
        for (const IterationStats& s : report.result.history)
            if (!s.event.empty()) events.push_back(s.event);
        const nlohmann::json out = {{"rows", data.rows},           {"cols", data.cols},
                                    {"truth", data.truth},         {"k", report.result.k},
                                    {"labels", report.result.labels}, {"events", events},
                                    {"seconds", report.secondsTotal}};
        std::cout << out.dump() << '\n';
    } catch (const std::exception& e) {
        std::cerr << "bench-market-cell: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
