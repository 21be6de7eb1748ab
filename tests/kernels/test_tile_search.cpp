// The host's tile kernels (kernels/host/tile_search.h) on every instruction set this CPU
// runs, against a scalar reference written from row_functors.h's rules: the same bits
// for labels and distances in both modes, the lowest label on ties, bounds as
// storeBounds gives them, listed rows only, k-means||'s keep-the-nearer batches. Shapes
// cover what a SIMD tile gets wrong: dimensions not a multiple of 8 (the transpose's
// tail), k not a multiple of the centroid step, a last call with spare lanes.
#include "kernels/host/tile_search.h"

#include "doctest_support.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace clusterdesk::kernels;
using clusterdesk::kernels::host::TileJob;

namespace {

struct Problem {
    std::int64_t n;
    std::int64_t d;
    int k;
    std::vector<float> x;
    std::vector<float> centroids;
    std::vector<float> centroidNorms;
    std::vector<float> rowNorms;
};

float squaredNorm(const float* v, std::int64_t d)
{
    float acc = 0.f;
    for (std::int64_t j = 0; j < d; ++j) acc = std::fmaf(v[j], v[j], acc);
    return acc;
}

// Values on a coarse grid, and centroids that repeat rows and each other: distances tie.
Problem makeProblem(std::int64_t n, std::int64_t d, int k, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> grid(-8, 8);
    std::normal_distribution<float> noise(0.f, 1.f);
    Problem p{n, d, k, {}, {}, {}, {}};
    p.x.resize(static_cast<std::size_t>(n * d));
    for (std::size_t i = 0; i < p.x.size(); ++i) p.x[i] = i % 3 == 0 ? noise(rng) : static_cast<float>(grid(rng)) * 0.5f;
    for (int c = 0; c < k; ++c) {
        const std::int64_t from = c % 4 == 3 ? (c - 1) : static_cast<std::int64_t>(rng() % n);  // every 4th repeats the last centroid's row
        const float* src = c % 4 == 3 ? &p.centroids[static_cast<std::size_t>((c - 1) * d)] : &p.x[static_cast<std::size_t>(from * d)];
        p.centroids.insert(p.centroids.end(), src, src + d);
    }
    for (int c = 0; c < k; ++c) p.centroidNorms.push_back(squaredNorm(&p.centroids[static_cast<std::size_t>(c * d)], d));
    for (std::int64_t i = 0; i < n; ++i) p.rowNorms.push_back(squaredNorm(&p.x[static_cast<std::size_t>(i * d)], d));
    return p;
}

struct Answer {
    std::vector<std::int32_t> labels;
    std::vector<float> dist;
    std::vector<float> upper;
    std::vector<float> lower;
};

// The searched value of (row, centroid): row_functors.h's exact distance, or fast
// mode's |c|^2 - 2 x.c over an fma chain in dimension order.
float searched(const Problem& p, std::int64_t i, int c, bool exact)
{
    const float* x = &p.x[static_cast<std::size_t>(i * p.d)];
    const float* y = &p.centroids[static_cast<std::size_t>(c * p.d)];
    if (exact) return detail::exactSquaredDistance(x, y, p.d);
    float dot = 0.f;
    for (std::int64_t j = 0; j < p.d; ++j) dot = std::fmaf(x[j], y[j], dot);
    return p.centroidNorms[static_cast<std::size_t>(c)] - 2.f * dot;
}

// A scalar scan with strict `<` (ties keep the lower label), then the stored values.
void referenceRow(const Problem& p, std::int64_t i, bool exact, Answer& out)
{
    float best = std::numeric_limits<float>::infinity();
    float second = best;
    int label = 0;
    for (int c = 0; c < p.k; ++c) {
        const float v = searched(p, i, c, exact);
        if (v < best) {
            second = best;
            best = v;
            label = c;
        } else if (v < second) {
            second = v;
        }
    }
    const float norm = exact ? 0.f : p.rowNorms[static_cast<std::size_t>(i)];
    const float d2 = exact ? best : std::max(norm + best, 0.f);
    const float d2second = exact ? second : std::max(norm + second, 0.f);
    const auto at = static_cast<std::size_t>(i);
    out.labels[at] = label;
    out.dist[at] = d2;
    float maxNorm = 0.f;
    for (float cn : p.centroidNorms) maxNorm = std::max(maxNorm, cn);
    detail::storeBounds(out.upper.data(), out.lower.data(), i, d2, d2second,
                        exact ? 0.f : detail::expansionSlack(p.d, norm, maxNorm));
}

Answer blankAnswer(std::int64_t n)
{
    return {std::vector<std::int32_t>(static_cast<std::size_t>(n), -1),
            std::vector<float>(static_cast<std::size_t>(n), -1.f), std::vector<float>(static_cast<std::size_t>(n), -1.f),
            std::vector<float>(static_cast<std::size_t>(n), -1.f)};
}

TileJob jobFor(const Problem& p, Answer& out)
{
    float maxNorm = 0.f;
    for (float cn : p.centroidNorms) maxNorm = std::max(maxNorm, cn);
    return {p.x.data(),          p.d,         p.centroids.data(), p.centroidNorms.data(), p.rowNorms.data(), p.k, p.n,
            out.labels.data(),   out.dist.data(), nullptr,        out.upper.data(),       out.lower.data(),  maxNorm};
}

void requireSameBits(const Answer& got, const Answer& want, const std::string& what)
{
    for (std::size_t i = 0; i < want.labels.size(); ++i) {
        INFO(what << " row " << i);
        REQUIRE_EQ(got.labels[i], want.labels[i]);
        REQUIRE_EQ(std::bit_cast<std::uint32_t>(got.dist[i]), std::bit_cast<std::uint32_t>(want.dist[i]));
        REQUIRE_EQ(std::bit_cast<std::uint32_t>(got.upper[i]), std::bit_cast<std::uint32_t>(want.upper[i]));
        REQUIRE_EQ(std::bit_cast<std::uint32_t>(got.lower[i]), std::bit_cast<std::uint32_t>(want.lower[i]));
    }
}

}  // namespace

TEST_CASE("everyInstructionSetMatchesTheScalarRule")
{
    const std::vector<std::string> sets = host::tileInstructionSetsHere();
    REQUIRE_FALSE(sets.empty());
    CHECK_EQ(sets.back(), "C++");  // runs everywhere
    CHECK_EQ(sets.front(), host::tileInstructionSet());
    MESSAGE("tile instruction sets on this CPU: " << clusterdesk::test::join(sets, ','));
    std::uint32_t seed = 1;
    for (const std::int64_t d : {1, 3, 8, 13, 32, 64, 130, 512}) {
        for (const int k : {1, 5, 6, 7, 64, 70}) {
            const Problem p = makeProblem(77, d, k, seed++);
            for (const bool exact : {true, false}) {
                Answer want = blankAnswer(p.n);
                for (std::int64_t i = 0; i < p.n; ++i) referenceRow(p, i, exact, want);
                for (const std::string& set : sets) {
                    Answer got = blankAnswer(p.n);
                    host::searchTilesWith(set, jobFor(p, got), exact);
                    requireSameBits(got, want, set + (exact ? " exact" : " fast") + " d=" + std::to_string(d) + " k=" + std::to_string(k));
                }
            }
        }
    }
}

TEST_CASE("listedRowsOnlyAndNearerBatchesOnly")
{
    const Problem p = makeProblem(101, 13, 9, 42);
    // Rows listed out of order, most rows left alone.
    const std::vector<std::int64_t> listed{100, 3, 57, 58, 0, 64, 31, 32, 33, 90, 17};
    for (const std::string& set : host::tileInstructionSetsHere()) {
        for (const bool exact : {true, false}) {
            INFO(set << (exact ? " exact" : " fast"));
            Answer got = blankAnswer(p.n);
            TileJob job = jobFor(p, got);
            job.rowIndex = listed.data();
            job.count = static_cast<std::int64_t>(listed.size());
            host::searchTilesWith(set, job, exact);
            Answer want = blankAnswer(p.n);
            for (const std::int64_t i : listed) referenceRow(p, i, exact, want);
            requireSameBits(got, want, set);

            // A batch labelled from 40 on replaces a row's label only where it is nearer
            // than the distance already stored (k-means||'s later rounds).
            Answer batch = blankAnswer(p.n);
            for (std::int64_t i = 0; i < p.n; ++i) {
                batch.labels[static_cast<std::size_t>(i)] = 7;
                batch.dist[static_cast<std::size_t>(i)] = i % 2 ? 0.f : std::numeric_limits<float>::infinity();
            }
            TileJob more = jobFor(p, batch);
            more.upper = more.lower = nullptr;
            more.keepNearer = true;
            more.labelOffset = 40;
            host::searchTilesWith(set, more, exact);
            for (std::int64_t i = 0; i < p.n; ++i) {
                const auto at = static_cast<std::size_t>(i);
                if (i % 2) {
                    REQUIRE_EQ(batch.labels[at], 7);  // nothing is nearer than 0
                } else {
                    Answer one = blankAnswer(p.n);
                    referenceRow(p, i, exact, one);
                    REQUIRE_EQ(batch.labels[at], 40 + one.labels[at]);
                    REQUIRE_EQ(batch.dist[at], one.dist[at]);
                }
            }
        }
    }
}

TEST_CASE("anInstructionSetTheCpuLacksIsRefused")
{
    const Problem p = makeProblem(4, 2, 2, 3);
    Answer got = blankAnswer(p.n);
    REQUIRE_THROWS_AS(host::searchTilesWith("AVX-1024", jobFor(p, got), true), std::invalid_argument);
    REQUIRE_EQ(got.labels[0], -1);
}
