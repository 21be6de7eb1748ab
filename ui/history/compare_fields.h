// What the Compare dialog lists for two runs: every field under a name a person reads,
// with its unit, and only the fields that apply to the runs (AdaptGrow's bounds for
// AdaptGrow runs, k-means|| settings when it initialised them, a device row per power
// source either run had). The dialog only lays the rows out.
#pragma once

#include "engine/store/run_store.h"

#include <QString>

#include <vector>

namespace clusterdesk::ui {

struct CompareRow {
    QString section;  // "Run", "Parameters", "Result", "Time and energy"
    QString name;     // "Clusters (k)", "Wall time", ...
    QString a, b;     // the two runs' values, formatted; empty where a run has none
    bool differs() const { return a != b; }
};

std::vector<CompareRow> compareRows(const store::RunInfo& a, const store::RunInfo& b);

}  // namespace clusterdesk::ui
