#include "run_series.h"

#include <algorithm>

namespace clusterdesk::ui {

RunSeries::RunSeries(const QString& id, const QString& name, QObject* parent)
    : QObject(parent)
    , m_id(id)
    , m_name(name)
{
}

void RunSeries::setName(const QString& name)
{
    m_name = name;
    emit changed();
}

void RunSeries::beginRun(std::int64_t rows, int maxIterations)
{
    m_rows = rows;
    m_maxIterations = maxIterations;
    m_running = true;
    m_finished = false;
    m_maxK = 0;
    m_iterations.clear();
    m_power.clear();
    m_powerDevices.clear();
    m_projection = {};
    ++m_projectionVersion;
    m_outcome = {};
    emit changed();
}

void RunSeries::addIteration(const IterationStats& stats)
{
    m_maxK = std::max(m_maxK, stats.k);
    m_iterations.push_back(stats);
    emit changed();
}

void RunSeries::addPower(const PowerBatch& batch)
{
    if (!batch.devices.isEmpty()) m_powerDevices = batch.devices;
    m_power.insert(m_power.end(), batch.samples.begin(), batch.samples.end());
    emit changed();
}

void RunSeries::setProjection(const ClusterProjection& projection)
{
    m_projection = projection;
    ++m_projectionVersion;
    emit changed();
}

void RunSeries::finish(const RunOutcome& outcome)
{
    m_outcome = outcome;
    m_running = false;
    m_finished = true;
    emit changed();
    emit runFinished();
}

}  // namespace clusterdesk::ui
