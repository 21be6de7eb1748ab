// The blobs demo: k isotropic Gaussian blobs, generated in parallel straight into the
// output matrix.
#include "demo_generators.h"

#include "demo_random.h"
#include "engine/core/error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterdesk::data {
namespace {

enum Stream : std::uint64_t { kCentres = 11, kRows = 12 };

// Centres at least this many standard deviations apart: along the line between two
// centres a point is misassigned with probability Phi(-4) ~ 3e-5.
constexpr double kMinSeparation = 8.0;

std::vector<double> makeCentres(std::uint64_t seed, std::int64_t k, std::int64_t d, double spread)
{
    // Box half-width so that k balls of radius separation/2 fill at most ~1/3 of the
    // box even in 2-D (random sequential placement jams near 0.55).
    const double half = spread * std::max(10.0, 12.0 * std::pow(static_cast<double>(k), 1.0 / static_cast<double>(d)));
    const double minDist2 = kMinSeparation * kMinSeparation * spread * spread;
    std::vector<double> centres(static_cast<std::size_t>(k * d));
    std::vector<double> candidate(static_cast<std::size_t>(d)), best(static_cast<std::size_t>(d));
    for (std::int64_t c = 0; c < k; ++c) {
        Random r(seed, kCentres, static_cast<std::uint64_t>(c));
        double bestDist2 = -1.0;
        for (int attempt = 0; attempt < 1000 && bestDist2 < minDist2; ++attempt) {
            for (auto& x : candidate) x = r.uniform(-half, half);
            double nearest = std::numeric_limits<double>::infinity();
            for (std::int64_t o = 0; o < c; ++o) {
                double dist2 = 0.0;
                for (std::int64_t j = 0; j < d; ++j) {
                    const double t = candidate[j] - centres[o * d + j];
                    dist2 += t * t;
                }
                nearest = std::min(nearest, dist2);
            }
            if (nearest > bestDist2) {
                bestDist2 = nearest;
                best = candidate;
            }
        }
        // After 1000 tries the farthest candidate is kept: rarely closer than asked.
        std::copy(best.begin(), best.end(), centres.begin() + c * d);
    }
    return centres;
}

}  // namespace

Dataset makeBlobsDemo(DemoSpec& spec)
{
    const std::int64_t n = spec.integer("n", 10000, 1, std::int64_t{1} << 31);
    const std::int64_t d = spec.integer("d", 16, 1, 100000);
    const std::int64_t k = spec.integer("k", 8, 1, std::min<std::int64_t>(n, 1000000));
    const std::uint64_t seed = spec.seed("seed", 7);
    const double spread = spec.real("spread", 1.0, 1e-6, 1e6);
    spec.finish();
    if (static_cast<double>(n) * static_cast<double>(d) > 2e9)
        throw UsageError("demo 'blobs': n x d = " + std::to_string(n) + " x " + std::to_string(d) +
                         " values is too large (at most 2e9)");

    const std::vector<double> centres = makeCentres(seed, k, d, spread);
    Dataset out;
    out.rows = n;
    out.cols = d;
    out.layout = Layout::Matrix;
    out.source = spec.canonical();
    out.values.resize(static_cast<std::size_t>(n * d));
    out.truth.resize(static_cast<std::size_t>(n));
    out.colNames.reserve(static_cast<std::size_t>(d));
    for (std::int64_t j = 0; j < d; ++j) out.colNames.push_back(std::string(1, 'x').append(std::to_string(j)));

    // One random stream per row: the same bytes whatever the thread count or schedule.
    float* values = out.values.data();
    std::int32_t* truth = out.truth.data();
    const double* c = centres.data();
#pragma omp parallel for schedule(static, 4096)
    for (std::int64_t i = 0; i < n; ++i) {
        Random r(seed, kRows, static_cast<std::uint64_t>(i));
        const std::int32_t label = static_cast<std::int32_t>(r.below(static_cast<std::uint32_t>(k)));
        truth[i] = label;
        const double* centre = c + label * d;
        float* row = values + i * d;
        std::int64_t j = 0;
        for (; j + 1 < d; j += 2) {
            double a, b;
            r.normals(a, b);
            row[j] = static_cast<float>(centre[j] + spread * a);
            row[j + 1] = static_cast<float>(centre[j + 1] + spread * b);
        }
        if (j < d) row[j] = static_cast<float>(centre[j] + spread * r.normal());
    }
    // Built by appending: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
    std::string note("demo blobs: ");
    note += std::to_string(n) + " points in " + std::to_string(d) + " dimensions, " + std::to_string(k) +
            " Gaussian blobs (sd " + spec.canonical().substr(spec.canonical().rfind('=') + 1) + ", centres >= " +
            std::to_string(static_cast<int>(kMinSeparation)) + " sd apart); truth = blob id";
    out.notes.push_back(std::move(note));
    return out;
}

}  // namespace clusterdesk::data
