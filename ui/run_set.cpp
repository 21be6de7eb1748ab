#include "run_set.h"

#include <algorithm>

namespace clusterdesk::ui {

RunSet::RunSet(QObject* parent)
    : QObject(parent)
{
}

RunSet::~RunSet() = default;

RunSeries& RunSet::add(const QString& id, const QString& name)
{
    Q_ASSERT(!find(id));
    auto& run = m_runs.emplace_back(std::make_unique<RunSeries>(id, name));
    connect(run.get(), &RunSeries::changed, this, &RunSet::changed);
    connect(run.get(), &RunSeries::runFinished, this, &RunSet::runFinished);
    emit changed();
    return *run;
}

bool RunSet::remove(const QString& id)
{
    const auto it = std::find_if(m_runs.begin(), m_runs.end(), [&](const auto& run) { return run->id() == id; });
    if (it == m_runs.end()) return false;
    m_runs.erase(it);
    emit changed();
    return true;
}

RunSeries* RunSet::find(const QString& id) const
{
    for (const auto& run : m_runs)
        if (run->id() == id) return run.get();
    return nullptr;
}

const RunSeries* RunSet::selected() const
{
    if (const RunSeries* run = find(m_selected)) return run;
    return m_runs.empty() ? nullptr : m_runs.front().get();
}

void RunSet::select(const QString& id)
{
    m_selected = id;
    emit changed();
}

}  // namespace clusterdesk::ui
