#include "kernel_types.h"

namespace clusterdesk::kernels {

void PartialSums::reset(int groupCount, int dimCount, Mode mode)
{
    groups = groupCount;
    dims = dimCount;
    const auto cells = static_cast<std::size_t>(groupCount) * static_cast<std::size_t>(dimCount);
    counts.assign(static_cast<std::size_t>(groupCount), 0);
    if (mode == Mode::Fast) {
        sums.assign(cells, 0.0);
        distSums.assign(static_cast<std::size_t>(groupCount), 0.0);
        fixedSums.clear();
        fixedDist.clear();
    } else {
        fixedSums.assign(cells, 0);
        fixedDist.assign(static_cast<std::size_t>(groupCount), 0);
        sums.clear();
        distSums.clear();
    }
}

void PartialSums::add(const PartialSums& other)
{
    auto addInto = [](auto& into, const auto& from) {
        for (std::size_t i = 0; i < from.size() && i < into.size(); ++i) into[i] += from[i];
    };
    addInto(counts, other.counts);
    addInto(sums, other.sums);
    addInto(distSums, other.distSums);
    addInto(fixedSums, other.fixedSums);
    addInto(fixedDist, other.fixedDist);
}

std::string toString(Mode mode)
{
    return mode == Mode::Fast ? "fast" : "exact";
}

std::string toString(Precision precision)
{
    switch (precision) {
    case Precision::FP32: return "fp32";
    case Precision::TF32: return "tf32";
    case Precision::BF16: return "bf16";
    }
    return "fp32";
}

}  // namespace clusterdesk::kernels
