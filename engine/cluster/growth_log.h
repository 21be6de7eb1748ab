// Why AdaptGrow chose its k: every split and merge test it ran, with the values of the
// criterion (split_criterion.h) and the verdict, and why growth stopped. Kept in the run's
// result, its summary and the store, so the window, the CLI and a report can show a
// refusal instead of leaving the user to guess.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace clusterdesk {

enum class SplitVerdict {
    Split,           // structure: the cluster was split
    AxisBelowBar,    // its principal axis carried no more than its bar (split_criterion.h: splitThresholdShare)
    SplitBelowEdge,  // the axis passed, but the 2-means split along it removed no more than noise would
    TooFewRows,      // fewer rows than a split test means anything for
    LoneChild,       // the split would leave a child of one row: an outlier, not a group
    NoRoom,          // a split of structure, left out because k reached k_max
};

// One cluster's split test in one round. Shares are of the cluster's within-cluster sum
// of squares; NaN where they could not be measured.
struct SplitTestRecord {
    int round = 0;
    int cluster = 0;
    std::int64_t rows = 0;
    double axisShare = std::numeric_limits<double>::quiet_NaN();   // carried by its principal axis
    double axisBar = std::numeric_limits<double>::quiet_NaN();     // what the axis had to exceed
    double splitShare = std::numeric_limits<double>::quiet_NaN();  // removed by the 2-means split along the axis
    double splitEdge = std::numeric_limits<double>::quiet_NaN();   // what the split had to exceed
    SplitVerdict verdict = SplitVerdict::AxisBelowBar;
};

// One nearest pair's merge test: their separation's share of their union's sum of squares
// against the noise edge of the union.
struct MergeTestRecord {
    int round = 0;
    int a = 0;
    int b = 0;
    std::int64_t rows = 0;
    double share = std::numeric_limits<double>::quiet_NaN();
    double edge = std::numeric_limits<double>::quiet_NaN();
    bool merged = false;
};

enum class GrowthStop {
    NotGrown,   // not an AdaptGrow run
    NoSplit,    // no tested cluster was structure
    KMax,       // k reached k_max
    RoundLimit, // max_rounds rounds ran
    Cancelled,
};

struct GrowthLog {
    std::vector<SplitTestRecord> splits;  // every round's tests, in round then cluster order
    std::vector<MergeTestRecord> merges;
    GrowthStop stop = GrowthStop::NotGrown;
    int stopRound = 0;      // the round whose tests ended growth
    std::string stage;      // "" for growth itself, else the re-test that settled k ("re-test at k=10 after restarts")
    int stopIteration = 0;  // the last iteration before growth ended (the history's count)
    int stopK = 0;          // k when growth ended, before any merge
    int finalK = 0;         // k after the merges
};

std::string toString(SplitVerdict verdict);
std::string toString(GrowthStop stop);

// Where growth stopped, for a sentence: "round 3", or "the re-test at k=10 after
// restarts" (its first round) and "the re-test at k=10 after restarts, round 1".
std::string stoppingRound(const GrowthLog& log);

// The tests of one round.
std::vector<SplitTestRecord> splitTestsOf(const GrowthLog& log, int round);
// Whether a test measured its cluster: rows enough, no child of one row, finite shares.
bool measured(const SplitTestRecord& test);
// Of the measured tests, the one whose axis came closest to its bar (or went furthest
// past it), or null when none was measured.
const SplitTestRecord* closestToBar(const std::vector<SplitTestRecord>& tests);

// One sentence on why AdaptGrow ended at its k ("AdaptGrow stopped growing at k=11: none
// of the 11 clusters tested in round 4 was structure; closest, cluster 6 (6 rows): its
// axis held 0.272 of its variance against a bar of 0.251 (split below edge). Then 2 pairs
// merged (noise apart, or a single row): k=9."). Empty when not grown.
std::string describeGrowthStop(const GrowthLog& log);

}  // namespace clusterdesk
