#include "cluster_identity.h"

#include "hungarian.h"

#include "engine/core/error.h"

#include <algorithm>
#include <map>
#include <set>

namespace clusterdesk::stream {
namespace {

// Weight of the centroid term against 1 - Jaccard: small, it only breaks near-ties.
constexpr double kCentroidWeight = 0.1;

}  // namespace

const char* toString(ClusterEvent::Kind kind)
{
    switch (kind) {
    case ClusterEvent::Kind::Survived: return "survived";
    case ClusterEvent::Kind::Born: return "born";
    case ClusterEvent::Kind::Died: return "died";
    case ClusterEvent::Kind::Split: return "split";
    case ClusterEvent::Kind::Merged: return "merged";
    }
    return "?";
}

IdentityTracker::IdentityTracker(IdentityOptions options) : m_options(options) {}

IdentityUpdate IdentityTracker::update(const std::vector<std::string>& assets, const std::vector<std::int32_t>& labels,
                                       int k, const std::vector<float>& centroids, std::int64_t cols, std::int64_t shift)
{
    if (labels.size() != assets.size() || k < 0 || centroids.size() != static_cast<std::size_t>(k) * static_cast<std::size_t>(cols))
        throw Error("identity tracker: " + std::to_string(assets.size()) + " assets, " + std::to_string(labels.size()) +
                    " labels, " + std::to_string(centroids.size()) + " centroid values for k = " + std::to_string(k) +
                    " (internal)");
    const int previous = static_cast<int>(m_ids.size());
    // Member counts: of each new cluster, of each old cluster among the assets still
    // here, and of every (old, new) pair: the flows.
    std::vector<double> newSize(static_cast<std::size_t>(k), 0.0), oldSize(static_cast<std::size_t>(previous), 0.0);
    std::map<std::pair<int, int>, double> flow;  // (old index, new label) -> assets
    std::unordered_map<int, int> oldIndex;       // stable id -> index in m_ids
    for (int i = 0; i < previous; ++i) oldIndex[m_ids[i]] = i;
    for (std::size_t a = 0; a < assets.size(); ++a) {
        const int label = labels[a];
        if (label < 0 || label >= k) throw Error("identity tracker: label " + std::to_string(label) + " outside 0.." + std::to_string(k - 1) + " (internal)");
        newSize[label] += 1;
        const auto before = m_assetId.find(assets[a]);
        if (before == m_assetId.end()) continue;
        const int old = oldIndex.at(before->second);
        flow[{old, label}] += 1;
    }
    for (const auto& [asset, id] : m_assetId) oldSize[oldIndex.at(id)] += 1;

    // The assignment: old clusters x new clusters, cost 1 - Jaccard + a centroid term.
    std::vector<double> cost(static_cast<std::size_t>(previous) * k, 1.0);
    std::vector<double> jaccard(cost.size(), 0.0);
    for (const auto& [pair, shared] : flow) {
        const auto [old, label] = pair;
        jaccard[old * k + label] = shared / (oldSize[old] + newSize[label] - shared);
    }
    const std::int64_t overlapCols = std::max<std::int64_t>(0, std::min(cols, m_cols) - shift);
    for (int old = 0; old < previous; ++old) {
        for (int label = 0; label < k; ++label) {
            double centroidTerm = 0;
            if (overlapCols > 0) {
                double d2 = 0;
                for (std::int64_t c = 0; c < overlapCols; ++c) {
                    const double diff = centroids[label * cols + c] - m_centroids[old * m_cols + c + shift];
                    d2 += diff * diff;
                }
                // Rows are z-scored: squared distances per column stay of order 1.
                centroidTerm = std::min(1.0, d2 / static_cast<double>(overlapCols) / 4.0);
            }
            cost[old * k + label] = 1.0 - jaccard[old * k + label] + kCentroidWeight * centroidTerm;
        }
    }
    const std::vector<int> match = minCostAssignment(cost, previous, k);

    IdentityUpdate out;
    out.clusterIds.assign(static_cast<std::size_t>(k), -1);
    std::vector<char> oldMatched(static_cast<std::size_t>(previous), 0);
    for (int old = 0; old < previous; ++old) {
        const int label = match[old];
        if (label < 0 || jaccard[old * k + label] < m_options.minOverlap) continue;
        out.clusterIds[label] = m_ids[old];
        oldMatched[old] = 1;
    }
    for (int label = 0; label < k; ++label)
        if (out.clusterIds[label] < 0) out.clusterIds[label] = m_nextId++;

    // Splits: an old cluster whose members went, each in a large share, to two or more
    // clusters of which all but its own successor are new. Merges, the mirror image.
    const std::set<int> oldIds(m_ids.begin(), m_ids.end());
    std::set<int> bornInSplit, diedInMerge;
    for (int old = 0; old < previous; ++old) {
        std::vector<int> pieces;
        for (int label = 0; label < k; ++label) {
            const auto f = flow.find({old, label});
            if (f != flow.end() && oldSize[old] > 0 && f->second / oldSize[old] >= m_options.flowShare) pieces.push_back(label);
        }
        if (pieces.size() < 2) continue;
        // Every piece is either the old cluster's successor or newly born.
        bool othersNew = true;
        for (int label : pieces) {
            const int id = out.clusterIds[label];
            othersNew = othersNew && (id == m_ids[old] || !oldIds.count(id));
        }
        if (!othersNew) continue;
        ClusterEvent split{ClusterEvent::Kind::Split, {m_ids[old]}, {}};
        for (int label : pieces) {
            split.to.push_back(out.clusterIds[label]);
            if (out.clusterIds[label] != m_ids[old]) bornInSplit.insert(label);
        }
        out.events.push_back(split);
    }
    for (int label = 0; label < k; ++label) {
        std::vector<int> sources;
        for (int old = 0; old < previous; ++old) {
            const auto f = flow.find({old, label});
            if (f != flow.end() && newSize[label] > 0 && f->second / newSize[label] >= m_options.flowShare) sources.push_back(old);
        }
        if (sources.size() < 2) continue;
        bool othersDied = true;
        for (int old : sources) othersDied = othersDied && (!oldMatched[old] || m_ids[old] == out.clusterIds[label]);
        if (!othersDied) continue;
        ClusterEvent merged{ClusterEvent::Kind::Merged, {}, {out.clusterIds[label]}};
        for (int old : sources) {
            merged.from.push_back(m_ids[old]);
            if (m_ids[old] != out.clusterIds[label]) diedInMerge.insert(old);
        }
        out.events.push_back(merged);
    }
    for (int old = 0; old < previous; ++old) {
        if (oldMatched[old]) continue;
        if (!diedInMerge.count(old)) out.events.push_back({ClusterEvent::Kind::Died, {m_ids[old]}, {}});
    }
    for (int label = 0; label < k; ++label) {
        const int id = out.clusterIds[label];
        if (oldIds.count(id))
            out.events.push_back({ClusterEvent::Kind::Survived, {id}, {id}});
        else if (!bornInSplit.count(label))
            out.events.push_back({ClusterEvent::Kind::Born, {}, {id}});
    }

    // Assets: their stable ids now, and the ones that moved.
    std::unordered_map<std::string, int> assetId;
    out.assetIds.resize(assets.size());
    std::int64_t stayed = 0;
    for (std::size_t a = 0; a < assets.size(); ++a) {
        const int id = out.clusterIds[labels[a]];
        out.assetIds[a] = id;
        assetId[assets[a]] = id;
        const auto before = m_assetId.find(assets[a]);
        if (before == m_assetId.end()) continue;
        ++stayed;
        if (before->second != id) out.migrations.push_back({assets[a], before->second, id});
    }
    out.movedShare = stayed > 0 ? static_cast<double>(out.migrations.size()) / static_cast<double>(stayed) : 0.0;

    m_assetId = std::move(assetId);
    m_ids = out.clusterIds;
    m_centroids = centroids;
    m_cols = cols;
    return out;
}

}  // namespace clusterdesk::stream
