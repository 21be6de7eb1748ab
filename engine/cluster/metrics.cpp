// Clustering quality metrics; see metrics.h for definitions and conventions.
#include "engine/cluster/metrics.h"

#include "engine/core/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace clusterdesk {
namespace {

// Labels renamed to 0..k-1 in ascending order of the original value, with the size of each.
struct DenseLabels {
    std::vector<std::int32_t> ids;      // per row, 0..k-1
    std::vector<std::int64_t> counts;   // per dense id, all > 0
};

// Renames labels densely; ascending order so the result (and every sum over it) does not
// depend on which of the two strategies below was taken.
DenseLabels densify(std::span<const std::int32_t> labels, const char* function, const char* argument)
{
    const auto n = static_cast<std::int64_t>(labels.size());
    std::int32_t maxLabel = -1;
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int32_t label = labels[static_cast<std::size_t>(i)];
        if (label < 0) {
            throw UsageError(std::string(function) + ": labels must be non-negative (" + argument + "[" +
                             std::to_string(i) + "] = " + std::to_string(label) + ")");
        }
        maxLabel = std::max(maxLabel, label);
    }

    DenseLabels out;
    out.ids.resize(labels.size());
    // A lookup table indexed by label while that stays O(n) memory; otherwise sort the
    // distinct values and binary-search them (labels such as 10^9 or hashes).
    if (static_cast<std::int64_t>(maxLabel) <= 2 * n + 1024) {
        std::vector<std::int32_t> table(static_cast<std::size_t>(maxLabel) + 1, -1);
        for (const std::int32_t label : labels) table[static_cast<std::size_t>(label)] = 0;
        std::int32_t next = 0;
        for (std::int32_t& slot : table) {
            if (slot == 0) slot = next++;
        }
        out.counts.assign(static_cast<std::size_t>(next), 0);
        for (std::size_t i = 0; i < labels.size(); ++i) {
            const std::int32_t id = table[static_cast<std::size_t>(labels[i])];
            out.ids[i] = id;
            ++out.counts[static_cast<std::size_t>(id)];
        }
    } else {
        std::vector<std::int32_t> distinct(labels.begin(), labels.end());
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        out.counts.assign(distinct.size(), 0);
        for (std::size_t i = 0; i < labels.size(); ++i) {
            const auto id = static_cast<std::int32_t>(
                std::lower_bound(distinct.begin(), distinct.end(), labels[i]) - distinct.begin());
            out.ids[i] = id;
            ++out.counts[static_cast<std::size_t>(id)];
        }
    }
    return out;
}

// One non-zero cell of the contingency table.
struct Cell {
    std::int32_t a;      // dense id in the first labeling
    std::int32_t b;      // dense id in the second labeling
    std::int64_t count;  // rows carrying both
};

// Non-zero cells of the contingency table, ordered by (a, b); O(n) memory whatever ka * kb is.
std::vector<Cell> contingency(const DenseLabels& a, const DenseLabels& b)
{
    const auto n = static_cast<std::int64_t>(a.ids.size());
    const auto kb = static_cast<std::int64_t>(b.counts.size());
    const auto cells = static_cast<std::int64_t>(a.counts.size()) * kb;  // <= n^2, fits for any int32-indexable n
    std::vector<Cell> out;
    if (cells <= 2 * n + 1024) {
        std::vector<std::int64_t> table(static_cast<std::size_t>(cells), 0);
        for (std::int64_t i = 0; i < n; ++i) {
            ++table[static_cast<std::size_t>(a.ids[static_cast<std::size_t>(i)] * kb + b.ids[static_cast<std::size_t>(i)])];
        }
        for (std::int64_t key = 0; key < cells; ++key) {
            const std::int64_t count = table[static_cast<std::size_t>(key)];
            if (count > 0) out.push_back({static_cast<std::int32_t>(key / kb), static_cast<std::int32_t>(key % kb), count});
        }
    } else {
        std::vector<std::int64_t> keys(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) {
            keys[static_cast<std::size_t>(i)] = a.ids[static_cast<std::size_t>(i)] * kb + b.ids[static_cast<std::size_t>(i)];
        }
        std::sort(keys.begin(), keys.end());
        for (std::size_t i = 0; i < keys.size();) {
            std::size_t j = i;
            while (j < keys.size() && keys[j] == keys[i]) ++j;
            out.push_back({static_cast<std::int32_t>(keys[i] / kb), static_cast<std::int32_t>(keys[i] % kb),
                           static_cast<std::int64_t>(j - i)});
            i = j;
        }
    }
    return out;
}

void requireSameLength(std::span<const std::int32_t> a, std::span<const std::int32_t> b, const char* function)
{
    if (a.size() != b.size()) {
        throw UsageError(std::string(function) + ": the two labelings must label the same rows (a has " +
                         std::to_string(a.size()) + " labels, b has " + std::to_string(b.size()) + ")");
    }
}

// ARI from exact pair counts: sumCells = sum C(n_ij, 2), sumA/sumB the same over the
// marginals, total = C(n, 2). ARI = 2 (sumCells total - sumA sumB) / ((sumA + sumB) total
// - 2 sumA sumB), which is sklearn's pair-confusion formula divided through by 16.
template <typename Int>
double ariFromPairs(Int sumCells, Int sumA, Int sumB, Int total)
{
    const Int numerator = 2 * (sumCells * total - sumA * sumB);
    const Int denominator = (sumA + sumB) * total - 2 * sumA * sumB;
    // Converting each side once and dividing is what sklearn does with Python integers
    // (its counts are ours times powers of two), so the results agree bit for bit.
    return static_cast<double>(numerator) / static_cast<double>(denominator);
}

// Unbiased integer in [0, bound) from a fully specified engine (std::uniform_int_distribution
// is implementation-defined, which would make the sample differ between standard libraries).
std::uint64_t uniformBelow(std::mt19937_64& engine, std::uint64_t bound)
{
    const std::uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound: the biased low values
    for (;;) {
        const std::uint64_t r = engine();
        if (r >= threshold) return r % bound;
    }
}

// `m` distinct rows of [0, rows), sorted: Floyd's algorithm, O(m) memory and draws.
std::vector<std::int64_t> sampleRows(std::int64_t rows, std::int64_t m, std::uint64_t seed)
{
    std::vector<std::int64_t> out;
    if (m >= rows) {
        out.resize(static_cast<std::size_t>(rows));
        for (std::int64_t i = 0; i < rows; ++i) out[static_cast<std::size_t>(i)] = i;
        return out;
    }
    std::mt19937_64 engine(seed);
    std::unordered_set<std::int64_t> chosen;
    chosen.reserve(static_cast<std::size_t>(m) * 2);
    for (std::int64_t j = rows - m; j < rows; ++j) {
        const auto t = static_cast<std::int64_t>(uniformBelow(engine, static_cast<std::uint64_t>(j) + 1));
        if (!chosen.insert(t).second) chosen.insert(j);
    }
    out.assign(chosen.begin(), chosen.end());
    std::sort(out.begin(), out.end());  // unordered_set order is unspecified; sorted is also cache-friendly
    return out;
}

}  // namespace

double adjustedRandIndex(std::span<const std::int32_t> a, std::span<const std::int32_t> b)
{
    requireSameLength(a, b, "adjustedRandIndex");
    const DenseLabels da = densify(a, "adjustedRandIndex", "a");
    const DenseLabels db = densify(b, "adjustedRandIndex", "b");
    const std::vector<Cell> cells = contingency(da, db);
    const auto n = static_cast<std::int64_t>(a.size());

    // C(n, 2) of every count: integers, exact up to n ~ 4e9 in int64.
    const auto comb2 = [](std::int64_t m) { return m * (m - 1) / 2; };
    std::int64_t sumCells = 0, sumA = 0, sumB = 0;
    for (const Cell& c : cells) sumCells += comb2(c.count);
    for (const std::int64_t m : da.counts) sumA += comb2(m);
    for (const std::int64_t m : db.counts) sumB += comb2(m);
    const std::int64_t total = comb2(n);

    // sklearn: no pair of rows is split differently by the two labelings (false negatives
    // and false positives both zero) -> 1. Covers n <= 1, both single-cluster, both
    // all-singletons and identical partitions; in every other case the denominator is > 0.
    if (sumA == sumCells && sumB == sumCells) return 1.0;

    // Exact in 128-bit integers while the products fit (total < 2^61 for n <= 2^31, products
    // < 2^124); beyond that, long double keeps 64 significant bits, ample for a score.
    if (n <= (std::int64_t{1} << 31)) {
        using Int = __int128;
        return ariFromPairs<Int>(sumCells, sumA, sumB, total);
    }
    return ariFromPairs<long double>(sumCells, sumA, sumB, total);
}

double normalizedMutualInformation(std::span<const std::int32_t> a, std::span<const std::int32_t> b)
{
    requireSameLength(a, b, "normalizedMutualInformation");
    const DenseLabels da = densify(a, "normalizedMutualInformation", "a");
    const DenseLabels db = densify(b, "normalizedMutualInformation", "b");
    const std::size_t ka = da.counts.size(), kb = db.counts.size();

    // sklearn: both labelings single-cluster (zero entropies, the data is not split) or both
    // empty -> a perfect match, 1.
    if (ka == kb && ka <= 1) return 1.0;
    // sklearn: one side single-cluster -> MI = 0 -> NMI = 0 whatever the normalisation.
    if (ka == 1 || kb == 1) return 0.0;

    const auto n = static_cast<double>(a.size());
    // MI = sum p_ij log(p_ij / (p_i p_j)) with the ratio N n_ij / (n_i n_j) formed before the
    // logarithm: one rounding per term instead of the cancellation of four large logs.
    long double mi = 0;
    for (const Cell& c : contingency(da, db)) {
        const double ratio = (static_cast<double>(c.count) * n) /
                             (static_cast<double>(da.counts[static_cast<std::size_t>(c.a)]) *
                              static_cast<double>(db.counts[static_cast<std::size_t>(c.b)]));
        mi += static_cast<long double>(static_cast<double>(c.count) / n) * std::log(ratio);
    }
    // MI >= 0 mathematically; a rounding residue below zero is clipped as sklearn does.
    if (mi <= 0) return 0.0;

    const auto entropy = [n](const std::vector<std::int64_t>& counts) {
        long double h = 0;
        for (const std::int64_t m : counts) {
            const double p = static_cast<double>(m) / n;
            h -= static_cast<long double>(p) * std::log(p);
        }
        return h;
    };
    const long double normalizer = (entropy(da.counts) + entropy(db.counts)) / 2;
    // MI <= min(H(a), H(b)) <= mean; clamp the last-ulp excess of identical labelings so the
    // score stays in its documented range [0, 1].
    return std::min(1.0, static_cast<double>(mi / normalizer));
}

double sampledSilhouette(const float* x, std::int64_t rows, std::int64_t cols, std::span<const std::int32_t> labels,
                         std::int64_t sampleSize, std::uint64_t seed)
{
    if (rows < 0 || cols < 1) {
        throw UsageError("sampledSilhouette: need rows >= 0 and cols >= 1 (rows=" + std::to_string(rows) +
                         ", cols=" + std::to_string(cols) + ")");
    }
    if (static_cast<std::int64_t>(labels.size()) != rows) {
        throw UsageError("sampledSilhouette: one label per row is required (rows=" + std::to_string(rows) +
                         ", labels=" + std::to_string(labels.size()) + ")");
    }
    if (x == nullptr && rows > 0) throw UsageError("sampledSilhouette: x is null with rows=" + std::to_string(rows));
    if (sampleSize < 1) {
        throw UsageError("sampledSilhouette: sampleSize must be at least 1 (sampleSize=" + std::to_string(sampleSize) + ")");
    }
    const DenseLabels dense = densify(labels, "sampledSilhouette", "labels");
    const auto k = static_cast<std::int64_t>(dense.counts.size());
    // sklearn raises here too: with one cluster there is no b(i), with one row per cluster
    // every score would be 0 by convention, which says nothing.
    if (k < 2 || k > rows - 1) {
        throw UsageError("sampledSilhouette: the number of distinct labels must be between 2 and rows - 1 (labels=" +
                         std::to_string(k) + ", rows=" + std::to_string(rows) + ")");
    }

    const std::vector<std::int64_t> sample = sampleRows(rows, sampleSize, seed);
    const auto m = static_cast<std::int64_t>(sample.size());
    std::vector<double> scores(static_cast<std::size_t>(m));
    const std::int32_t* ids = dense.ids.data();
    const std::int64_t* counts = dense.counts.data();

    // Per-thread distance sums allocated here, outside the parallel region, so that an
    // allocation failure throws normally instead of terminating inside OpenMP.
#ifdef _OPENMP
    const int threads = std::max(1, omp_get_max_threads());
#else
    const int threads = 1;
#endif
    std::vector<double> perThreadSums(static_cast<std::size_t>(threads) * static_cast<std::size_t>(k));

#pragma omp parallel num_threads(threads)
    {
#ifdef _OPENMP
        double* sums = perThreadSums.data() + static_cast<std::size_t>(omp_get_thread_num()) * static_cast<std::size_t>(k);
#else
        double* sums = perThreadSums.data();
#endif
        // Dynamic chunks: each item is a full pass over x, so imbalance is small but cheap to avoid.
#pragma omp for schedule(dynamic, 4)
        for (std::int64_t s = 0; s < m; ++s) {
            const std::int64_t i = sample[static_cast<std::size_t>(s)];
            const std::int32_t own = ids[i];
            if (counts[own] == 1) {  // singleton cluster: sklearn's convention is 0
                scores[static_cast<std::size_t>(s)] = 0.0;
                continue;
            }
            std::fill(sums, sums + k, 0.0);
            const float* xi = x + i * cols;
            // Rows in ascending order, so each sum (and the score) is independent of the thread count.
            for (std::int64_t j = 0; j < rows; ++j) {
                const float* xj = x + j * cols;
                double d2 = 0.0;
                for (std::int64_t c = 0; c < cols; ++c) {
                    const double diff = static_cast<double>(xi[c]) - static_cast<double>(xj[c]);
                    d2 += diff * diff;
                }
                sums[ids[j]] += std::sqrt(d2);
            }
            const double intra = sums[own] / static_cast<double>(counts[own] - 1);  // self adds 0
            double inter = std::numeric_limits<double>::infinity();
            for (std::int64_t c = 0; c < k; ++c) {
                if (c != own) inter = std::min(inter, sums[c] / static_cast<double>(counts[c]));
            }
            const double scale = std::max(intra, inter);
            // a = b = 0 (the row coincides with rows of its own and another cluster): sklearn's
            // nan_to_num makes that 0.
            scores[static_cast<std::size_t>(s)] = scale > 0.0 ? (inter - intra) / scale : 0.0;
        }
    }

    long double total = 0;
    for (const double score : scores) total += score;  // fixed order: reproducible
    return static_cast<double>(total / static_cast<long double>(m));
}

double sphericalBic(std::span<const std::int64_t> counts, std::span<const double> withinSS, std::int64_t dims)
{
    if (counts.size() != withinSS.size()) {
        throw UsageError("sphericalBic: one within-cluster sum of squares per cluster is required (counts=" +
                         std::to_string(counts.size()) + ", withinSS=" + std::to_string(withinSS.size()) + ")");
    }
    if (dims < 1) throw UsageError("sphericalBic: dims must be at least 1 (dims=" + std::to_string(dims) + ")");

    std::int64_t n = 0, k = 0;
    double ss = 0.0;
    for (std::size_t c = 0; c < counts.size(); ++c) {
        if (counts[c] < 0) {
            throw UsageError("sphericalBic: counts must be non-negative (counts[" + std::to_string(c) +
                             "] = " + std::to_string(counts[c]) + ")");
        }
        if (!(withinSS[c] >= 0.0) || !std::isfinite(withinSS[c])) {
            throw UsageError("sphericalBic: within-cluster sums of squares must be finite and non-negative (withinSS[" +
                             std::to_string(c) + "] = " + std::to_string(withinSS[c]) + ")");
        }
        if (counts[c] == 0) continue;  // an empty cluster has no parameters to pay for
        n += counts[c];
        ++k;
        ss += withinSS[c];
    }

    const double minusInf = -std::numeric_limits<double>::infinity();
    // N <= K: no residual degrees of freedom, the pooled variance is undefined. Returning -inf
    // (rather than throwing) lets AdaptGrow compare candidates without special cases: such a
    // model never wins.
    if (n <= k) return minusInf;
    const double d = static_cast<double>(dims);
    const double nd = static_cast<double>(n);
    const double sigma2 = ss / (static_cast<double>(n - k) * d);
    // sigma^2 = 0: every point sits on its centroid, the likelihood is unbounded; -inf keeps
    // a degenerate (e.g. duplicated-row) candidate from being accepted.
    if (!(sigma2 > 0.0)) return minusInf;

    double logL = 0.0;
    for (const std::int64_t m : counts) {
        if (m > 0) logL += static_cast<double>(m) * std::log(static_cast<double>(m) / nd);
    }
    // Pelleg & Moore print the last term as (N - K) / 2; the residuals sum to (N - K) d sigma^2,
    // so with d dimensions it is (N - K) d / 2 (the usual correction of the paper).
    logL -= nd * d / 2.0 * std::log(2.0 * std::numbers::pi * sigma2);
    logL -= static_cast<double>(n - k) * d / 2.0;
    const double parameters = static_cast<double>(k - 1) + static_cast<double>(k) * d + 1.0;  // weights, means, variance
    return logL - parameters / 2.0 * std::log(nd);
}

}  // namespace clusterdesk
