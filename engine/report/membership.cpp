#include "membership.h"

#include "engine/core/csv_cell.h"
#include "engine/core/error.h"

#include <algorithm>
#include <cmath>

namespace clusterdesk::report {

Membership membershipOf(const Dataset& data, std::span<const std::int32_t> labels, std::span<const float> centroids, int k,
                        std::size_t centralCount)
{
    if (k < 1 || labels.size() != static_cast<std::size_t>(data.rows) ||
        centroids.size() != static_cast<std::size_t>(k) * static_cast<std::size_t>(data.cols))
        throw UsageError("the labels (" + std::to_string(labels.size()) + ") and centroids (" + std::to_string(centroids.size()) +
                         " values, k = " + std::to_string(k) + ") do not fit the dataset's " + std::to_string(data.rows) + " x " +
                         std::to_string(data.cols) + " rows");
    const bool prices = data.returnMean.size() == static_cast<std::size_t>(data.rows) && data.returnStd.size() == data.returnMean.size();
    Membership out;
    out.members.reserve(labels.size());
    out.clusters.resize(static_cast<std::size_t>(k));
    std::vector<double> returns(static_cast<std::size_t>(k)), vols(static_cast<std::size_t>(k));
    for (std::int64_t i = 0; i < data.rows; ++i) {
        const int c = labels[static_cast<std::size_t>(i)];
        if (c < 0 || c >= k) throw UsageError("row " + std::to_string(i + 1) + " has label " + std::to_string(c) + ", outside 0.." + std::to_string(k - 1));
        const float* x = data.row(i);
        const float* centre = centroids.data() + static_cast<std::size_t>(c) * static_cast<std::size_t>(data.cols);
        double squared = 0;
        for (std::int64_t j = 0; j < data.cols; ++j) squared += (double(x[j]) - centre[j]) * (double(x[j]) - centre[j]);
        const std::string name = data.rowNames.size() == static_cast<std::size_t>(data.rows) ? data.rowNames[static_cast<std::size_t>(i)]
                                                                                              : "row " + std::to_string(i + 1);
        out.members.push_back({name, c, std::sqrt(squared)});
        ClusterProfile& profile = out.clusters[static_cast<std::size_t>(c)];
        ++profile.size;
        profile.meanDistance += out.members.back().distance;
        if (prices) {
            returns[static_cast<std::size_t>(c)] += data.returnMean[static_cast<std::size_t>(i)];
            vols[static_cast<std::size_t>(c)] += data.returnStd[static_cast<std::size_t>(i)];
        }
    }
    // Stable: equal distances keep row order, so the same run lists the same way.
    std::stable_sort(out.members.begin(), out.members.end(), [](const Member& a, const Member& b) {
        return a.cluster != b.cluster ? a.cluster < b.cluster : a.distance < b.distance;
    });
    for (int c = 0; c < k; ++c) {
        ClusterProfile& profile = out.clusters[static_cast<std::size_t>(c)];
        profile.cluster = c;
        if (profile.size == 0) continue;
        profile.meanDistance /= static_cast<double>(profile.size);
        if (prices) {
            profile.meanReturn = returns[static_cast<std::size_t>(c)] / static_cast<double>(profile.size);
            profile.volatility = vols[static_cast<std::size_t>(c)] / static_cast<double>(profile.size);
        }
    }
    for (const Member& m : out.members) {
        std::vector<std::string>& central = out.clusters[static_cast<std::size_t>(m.cluster)].central;
        if (central.size() < centralCount) central.push_back(m.name);
    }
    return out;
}

std::string labelsCsv(std::span<const std::string> rowNames, std::span<const std::int32_t> labels)
{
    const bool named = rowNames.size() == labels.size();
    std::string text = "id,cluster\n";
    for (std::size_t i = 0; i < labels.size(); ++i)
        text += (named ? csvCell(rowNames[i]) : std::to_string(i)) + ',' + std::to_string(labels[i]) + '\n';
    return text;
}

}  // namespace clusterdesk::report
