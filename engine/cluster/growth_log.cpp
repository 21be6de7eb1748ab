#include "growth_log.h"

#include <cmath>
#include <cstdio>

namespace clusterdesk {
namespace {

std::string share(double value)
{
    if (std::isnan(value)) return "n/a";
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", value);
    return text;
}

std::string plural(std::size_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string toString(SplitVerdict verdict)
{
    switch (verdict) {
    case SplitVerdict::Split: return "split";
    case SplitVerdict::AxisBelowBar: return "axis below bar";
    case SplitVerdict::SplitBelowEdge: return "split below edge";
    case SplitVerdict::TooFewRows: return "too few rows";
    case SplitVerdict::LoneChild: return "child of one row";
    case SplitVerdict::NoRoom: return "no room (kmax)";
    }
    return "?";
}

std::string toString(GrowthStop stop)
{
    switch (stop) {
    case GrowthStop::NotGrown: return "not grown";
    case GrowthStop::NoSplit: return "no split";
    case GrowthStop::KMax: return "kmax";
    case GrowthStop::RoundLimit: return "round limit";
    case GrowthStop::Cancelled: return "cancelled";
    }
    return "?";
}

std::vector<SplitTestRecord> splitTestsOf(const GrowthLog& log, int round)
{
    std::vector<SplitTestRecord> out;
    for (const SplitTestRecord& t : log.splits)
        if (t.round == round) out.push_back(t);
    return out;
}

bool measured(const SplitTestRecord& t)
{
    return t.verdict != SplitVerdict::TooFewRows && t.verdict != SplitVerdict::LoneChild && !std::isnan(t.axisShare - t.axisBar);
}

const SplitTestRecord* closestToBar(const std::vector<SplitTestRecord>& tests)
{
    const SplitTestRecord* best = nullptr;
    for (const SplitTestRecord& t : tests)
        if (measured(t) && (!best || t.axisShare - t.axisBar > best->axisShare - best->axisBar)) best = &t;
    return best;
}

std::string stoppingRound(const GrowthLog& log)
{
    const std::string round = "round " + std::to_string(log.stopRound);
    if (log.stage.empty()) return round;
    return "the " + log.stage + (log.stopRound == 0 ? std::string() : ", " + round);
}

std::string describeGrowthStop(const GrowthLog& log)
{
    if (log.stop == GrowthStop::NotGrown) return {};
    std::string text = "AdaptGrow stopped growing at k=" + std::to_string(log.stopK) + ": ";
    const std::vector<SplitTestRecord> tests = splitTestsOf(log, log.stopRound);
    switch (log.stop) {
    case GrowthStop::NoSplit: {
        // No test of the stopping round was a split: the closest to its bar was refused.
        text += "none of the " + plural(tests.size(), "cluster", "clusters") + " tested in " + stoppingRound(log) + " was structure";
        if (const SplitTestRecord* t = closestToBar(tests)) {
            text += "; closest, cluster " + std::to_string(t->cluster) + " (" + plural(static_cast<std::size_t>(t->rows), "row", "rows") +
                    "): its axis held " + share(t->axisShare) + " of its variance against a bar of " + share(t->axisBar);
            if (t->verdict != SplitVerdict::AxisBelowBar) text += " (" + toString(t->verdict) + ")";
        }
        break;
    }
    case GrowthStop::KMax: text += "k reached kmax"; break;
    case GrowthStop::RoundLimit: text += "the round limit was reached"; break;
    case GrowthStop::Cancelled: text += "the run was cancelled"; break;
    case GrowthStop::NotGrown: break;
    }
    text += ".";
    std::size_t merged = 0;
    for (const MergeTestRecord& m : log.merges) merged += m.merged ? 1 : 0;
    // What growth left and merging did not take: clusters of no rows, dropped.
    const int dropped = log.stopK - static_cast<int>(merged) - log.finalK;
    if (dropped > 0)
        text += " Then " + plural(static_cast<std::size_t>(dropped), "empty cluster", "empty clusters") + " dropped" +
                (merged > 0 ? "" : ": k=" + std::to_string(log.finalK)) + ".";
    if (merged > 0)
        text += " Then " + plural(merged, "pair", "pairs") + " merged (noise apart, or a single row): k=" + std::to_string(log.finalK) + ".";
    return text;
}

}  // namespace clusterdesk
