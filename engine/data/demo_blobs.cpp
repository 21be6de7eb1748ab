// The blobs demo: k isotropic Gaussian blobs, generated in parallel straight into the
// output matrix.
#include "demo_generators.h"

#include "demo_random.h"
#include "engine/core/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_map>
#include <vector>

namespace clusterdesk::data {
namespace {

enum Stream : std::uint64_t { kCentres = 11, kRows = 12 };

// Centres at least this many standard deviations apart: along the line between two
// centres a point is misassigned with probability Phi(-4) ~ 3e-5.
constexpr double kMinSeparation = 8.0;

// Centres placed so far, bucketed on a grid over their first few coordinates with
// cells a little wider than the separation. A centre closer to a candidate than the
// separation differs from it by less than a cell in every coordinate, so it lies in
// one of the 3^m cells around the candidate's: each candidate checks the few centres
// there instead of all of them, which made placement quadratic in k (19 s for
// k=100000). Only the first m coordinates are bucketed: 3^m cells per look-up stays
// small, and in higher dimensions the box is only a few separations wide anyway.
class CentreGrid {
public:
    CentreGrid(std::int64_t d, double half, double minDist2, const std::vector<double>& centres)
        : m_d(d),
          m_dims(static_cast<int>(std::min<std::int64_t>(d, 6))),
          m_half(half),
          m_cell(std::sqrt(minDist2) * 1.001),  // the margin absorbs rounding in the cell index
          m_cells(static_cast<std::int64_t>(std::ceil(2.0 * half / m_cell)) + 1),
          m_minDist2(minDist2),
          m_centres(centres)
    {
    }

    // The squared distance from x to the nearest centre placed, when that is below
    // minDist2 (computed exactly as a scan over all centres would: same sum, and a
    // minimum does not depend on order); otherwise some value >= minDist2. Whether a
    // candidate is accepted, and which of the rejected ones is farthest, are so the
    // same as with a full scan: the demo keeps its bits.
    double nearestBelow(const double* x)
    {
        std::int64_t lo[6], hi[6], at[6];
        for (int j = 0; j < m_dims; ++j) {
            const std::int64_t i = index(x[j]);
            lo[j] = std::max<std::int64_t>(0, i - 1);
            hi[j] = std::min<std::int64_t>(m_cells - 1, i + 1);
            at[j] = lo[j];
        }
        double nearest = std::numeric_limits<double>::infinity();
        for (;;) {
            if (const auto it = m_grid.find(key(at)); it != m_grid.end()) {
                for (const std::int64_t o : it->second) {
                    double dist2 = 0.0;
                    for (std::int64_t j = 0; j < m_d; ++j) {
                        const double t = x[j] - m_centres[static_cast<std::size_t>(o * m_d + j)];
                        dist2 += t * t;
                    }
                    nearest = std::min(nearest, dist2);
                    ++m_checks;
                }
            }
            int j = 0;  // next cell of the 3^m block, odometer-style
            while (j < m_dims && at[j] == hi[j]) at[j] = lo[j], ++j;
            if (j == m_dims) break;
            ++at[j];
        }
        return nearest < m_minDist2 ? nearest : std::numeric_limits<double>::infinity();
    }

    void add(std::int64_t centre)
    {
        std::int64_t at[6];
        const double* x = m_centres.data() + centre * m_d;
        for (int j = 0; j < m_dims; ++j) at[j] = index(x[j]);
        m_grid[key(at)].push_back(centre);
    }

    std::int64_t distanceChecks() const { return m_checks; }

private:
    std::int64_t index(double x) const
    {
        return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor((x + m_half) / m_cell)), 0, m_cells - 1);
    }

    // Mixed radix over at most 6 coordinates of about 3 k^(1/d) cells each: fits 64 bits.
    std::uint64_t key(const std::int64_t* at) const
    {
        std::uint64_t k = 0;
        for (int j = 0; j < m_dims; ++j) k = k * static_cast<std::uint64_t>(m_cells) + static_cast<std::uint64_t>(at[j]);
        return k;
    }

    std::int64_t m_d;
    int m_dims;
    double m_half;
    double m_cell;
    std::int64_t m_cells;
    double m_minDist2;
    const std::vector<double>& m_centres;
    std::unordered_map<std::uint64_t, std::vector<std::int64_t>> m_grid;
    std::int64_t m_checks = 0;
};

}  // namespace

BlobCentres placeBlobCentres(std::uint64_t seed, std::int64_t k, std::int64_t d, double spread)
{
    // Box half-width so that k balls of radius separation/2 fill at most ~1/3 of the
    // box even in 2-D (random sequential placement jams near 0.55).
    const double half = spread * std::max(10.0, 12.0 * std::pow(static_cast<double>(k), 1.0 / static_cast<double>(d)));
    const double minDist2 = kMinSeparation * kMinSeparation * spread * spread;
    BlobCentres out;
    out.values.resize(static_cast<std::size_t>(k * d));
    CentreGrid grid(d, half, minDist2, out.values);
    std::vector<double> candidate(static_cast<std::size_t>(d)), best(static_cast<std::size_t>(d));
    for (std::int64_t c = 0; c < k; ++c) {
        Random r(seed, kCentres, static_cast<std::uint64_t>(c));
        double bestDist2 = -1.0;
        for (int attempt = 0; attempt < 1000 && bestDist2 < minDist2; ++attempt) {
            for (auto& x : candidate) x = r.uniform(-half, half);
            const double nearest = grid.nearestBelow(candidate.data());
            if (nearest > bestDist2) {
                bestDist2 = nearest;
                best = candidate;
            }
        }
        // After 1000 tries the farthest candidate is kept: rarely closer than asked.
        std::copy(best.begin(), best.end(), out.values.begin() + c * d);
        grid.add(c);
    }
    out.distanceChecks = grid.distanceChecks();
    return out;
}

Dataset makeBlobsDemo(DemoSpec& spec)
{
    const std::int64_t n = spec.integer("n", 10000, 1, std::int64_t{1} << 31);
    const std::int64_t d = spec.integer("d", 16, 1, 100000);
    const std::int64_t k = spec.integer("k", 8, 1, std::min<std::int64_t>(n, 1000000));
    const std::uint64_t seed = spec.seed("seed", 7);
    const double spread = spec.real("spread", 1.0, 1e-6, 1e6);
    // Centres stay where spread puts them (at least 8 spreads apart); the points' standard
    // deviation grows to spread / (1 - overlap), so the blobs' edges meet and then mix:
    // centres are at least 8 (1 - overlap) point deviations apart. 0 keeps the old bits.
    const double overlap = spec.real("overlap", 0.0, 0.0, 0.95);
    spec.finish();
    if (static_cast<double>(n) * static_cast<double>(d) > 2e9)
        throw UsageError("demo 'blobs': n x d = " + std::to_string(n) + " x " + std::to_string(d) +
                         " values is too large (at most 2e9)");
    if (spec.checkOnly()) return {};

    const std::vector<double> centres = placeBlobCentres(seed, k, d, spread).values;
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
    const double sd = spread / (1.0 - overlap);
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
            row[j] = static_cast<float>(centre[j] + sd * a);
            row[j + 1] = static_cast<float>(centre[j + 1] + sd * b);
        }
        if (j < d) row[j] = static_cast<float>(centre[j] + sd * r.normal());
    }
    // Built by appending: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
    std::string note("demo blobs: ");
    char separation[96];
    std::snprintf(separation, sizeof separation, " Gaussian blobs (sd %g, centres >= %g sd apart", sd, kMinSeparation * (1.0 - overlap));
    note += std::to_string(n) + " points in " + std::to_string(d) + " dimensions, " + std::to_string(k) + separation +
            (overlap > 0 ? ": overlapping" : "") + "); truth = blob id";
    out.notes.push_back(std::move(note));
    return out;
}

}  // namespace clusterdesk::data
