// Stable cluster identities across the updates of a live session. Each update's
// clustering numbers its clusters afresh; the tracker matches them to the previous
// update's by member overlap (Jaccard) and, to break near-ties, centroid distance, with
// one minimum-cost assignment, so a cluster whose members stayed keeps its id even if
// every label number changed. What does not match is born or dies; ids are never
// reused (a cluster that died and a new one are different clusters, unlike the slot
// reuse of StreamingKMeans or MiniBatchKMeans). Splits and merges are read off the
// member flows, and every asset that changed cluster is listed.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace clusterdesk::stream {

struct ClusterEvent {
    enum class Kind { Survived, Born, Died, Split, Merged } kind = Kind::Survived;
    std::vector<int> from;  // stable ids before (empty for Born)
    std::vector<int> to;    // stable ids after (empty for Died)
};
// "survived", "born", ...
const char* toString(ClusterEvent::Kind kind);

struct Migration {
    std::string asset;
    int from = -1;  // stable id before
    int to = -1;    // stable id after
};

struct IdentityOptions {
    // Below this Jaccard overlap two clusters are not the same cluster, whatever the
    // assignment would prefer: the new one is born, the old one dies.
    double minOverlap = 0.2;
    // A cluster split (or merged) when at least this share of its members went to (came
    // from) each of two or more clusters.
    double flowShare = 0.25;
};

struct IdentityUpdate {
    std::vector<int> clusterIds;  // stable id of each new cluster (label order)
    std::vector<int> assetIds;    // stable id of each asset (input order)
    std::vector<ClusterEvent> events;
    std::vector<Migration> migrations;  // assets present before and now, in another cluster
    double movedShare = 0;              // migrations / assets present both times
};

class IdentityTracker {
public:
    explicit IdentityTracker(IdentityOptions options = {});

    // One update: the assets (names), their labels 0..k-1 and the k centroids (k x cols,
    // row-major). shift: how many columns the window moved since the previous update
    // (centroid column c now was column c + shift then), for the centroid term.
    IdentityUpdate update(const std::vector<std::string>& assets, const std::vector<std::int32_t>& labels, int k,
                          const std::vector<float>& centroids, std::int64_t cols, std::int64_t shift);

private:
    IdentityOptions m_options;
    int m_nextId = 0;
    std::unordered_map<std::string, int> m_assetId;  // previous update: asset -> stable id
    std::vector<int> m_ids;                          // previous update's stable id per cluster
    std::vector<float> m_centroids;
    std::int64_t m_cols = 0;
};

}  // namespace clusterdesk::stream
