// One topology of a what-if comparison as the Compare tab shows it: plain Qt values,
// so the widgets never include the engine; app/gui fills it from the engine's outcome.
#pragma once

#include <QString>

#include <optional>

namespace clusterdesk::ui {

struct CompareRow {
    QString topology;                    // the spelling, e.g. "shards:2", "model:h200x8"
    bool measured = false;               // ran here (else predicted by the model)
    QString status = "ok";               // "ok", "failed", "cancelled"
    QString failure;                     // why, when not ok
    double msPerIteration = 0;           // measured, or predicted
    std::optional<double> predictedMs;   // measured: the model's leave-one-out prediction
    QString bottleneck;                  // the largest phase, e.g. "assign (compute)"
    double totalS = 0;
    double energyJ = 0;
    QString energySource;                // "measured", "estimated", "mixed" or "modeled"
    double costUsd = 0;                  // 0: the catalog has no price
    double speedup = 0;                  // against the first topology, per iteration
    double efficiency = 0;               // speedup per device added; 0: not applicable
    std::optional<bool> identical;       // exact mode, measured: same labels and centroids
    std::optional<double> ari;           // fast mode, measured: against the exact reference
    bool fitsInMemory = true;
    double memoryNeededGiB = 0;

    bool ok() const { return status == "ok"; }
};

}  // namespace clusterdesk::ui
