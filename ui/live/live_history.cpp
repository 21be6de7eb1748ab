#include "live_history.h"

#include "engine/core/percentile.h"

#include <QStringList>

#include <algorithm>

namespace clusterdesk::ui {
namespace {

QString ids(const std::vector<int>& list)
{
    QStringList out;
    for (int id : list) out << QString::number(id);
    return out.join(',');
}

}  // namespace

QString describeEvents(const std::vector<stream::ClusterEvent>& events)
{
    QStringList parts;
    for (const stream::ClusterEvent& e : events) {
        switch (e.kind) {
        case stream::ClusterEvent::Kind::Survived: break;
        case stream::ClusterEvent::Kind::Born: parts << QStringLiteral("born %1").arg(ids(e.to)); break;
        case stream::ClusterEvent::Kind::Died: parts << QStringLiteral("died %1").arg(ids(e.from)); break;
        default: parts << QStringLiteral("%1 %2 -> %3").arg(stream::toString(e.kind), ids(e.from), ids(e.to));
        }
    }
    return parts.join(QStringLiteral("; "));
}

void LiveHistory::clear()
{
    *this = LiveHistory();
}

void LiveHistory::add(const stream::LiveUpdate& update, double seconds, double ingestRate)
{
    LivePoint p;
    p.update = update.index;
    p.seconds = seconds;
    p.barMicros = update.barMicros;
    p.truthChanged = update.truthChanged;
    p.k = update.k;
    for (int id : update.clusterOf) ++p.sizes[id];
    // The first update's clusters are all "born": that is the start, not an event.
    if (update.index > 1) p.events = describeEvents(update.events);
    p.moved = static_cast<int>(update.migrations.size());
    p.latencyMs = update.latencyMs;
    // Kept sorted: one insertion per update instead of three sorts of the whole session.
    m_latencies.insert(std::upper_bound(m_latencies.begin(), m_latencies.end(), update.latencyMs), update.latencyMs);
    p.p50 = percentileOfSorted(m_latencies, 0.50);
    p.p99 = percentileOfSorted(m_latencies, 0.99);
    p.p999 = percentileOfSorted(m_latencies, 0.999);
    p.ingestRate = ingestRate;
    p.energyJ = update.energyJ;
    p.watts = update.clusterMs > 0 ? update.energyJ / (update.clusterMs / 1000.0) : 0;
    p.ari = update.ari;
    p.drift = QString::fromStdString(update.drift);
    m_missingBars += update.missingBars;
    if (!p.drift.isEmpty()) {
        m_drift = p.drift;
        m_driftUpdate = update.index;
    }
    m_points.push_back(std::move(p));

    m_assets = update.assets;
    m_clusterOf = update.clusterOf;
    for (const stream::Migration& m : update.migrations) m_moves[m.asset] = {update.index, m.from};
}

std::optional<LiveHistory::Move> LiveHistory::lastMove(const std::string& asset) const
{
    const auto found = m_moves.find(asset);
    if (found == m_moves.end()) return std::nullopt;
    return found->second;
}

}  // namespace clusterdesk::ui
