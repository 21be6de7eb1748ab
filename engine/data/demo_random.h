// Counter-based random numbers for the demo generators: a stream is keyed by
// (seed, purpose, index), so any row can be generated on any thread in any order
// and the result is the same bytes.
#pragma once

#include <cmath>
#include <cstdint>

namespace clusterdesk::data {

inline std::uint64_t mix64(std::uint64_t x)
{
    // SplitMix64 finaliser: a bijection with good avalanche.
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

class Random {
public:
    Random(std::uint64_t seed, std::uint64_t purpose, std::uint64_t index)
        : m_state(mix64(mix64(seed ^ mix64(purpose)) ^ index))
    {
    }

    std::uint64_t next()
    {
        m_state += 0x9E3779B97F4A7C15ULL;
        std::uint64_t z = m_state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform in (0, 1): never exactly 0 or 1, so logs are safe.
    double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    // Uniform integer in [0, n) (multiply-shift; bias below 2^-32 for the n used here).
    std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32); }
    // Two independent standard normals (Box-Muller).
    void normals(double& a, double& b)
    {
        const double r = std::sqrt(-2.0 * std::log(uniform()));
        const double theta = 6.283185307179586 * uniform();
        a = r * std::cos(theta);
        b = r * std::sin(theta);
    }
    double normal()
    {
        double a, b;
        normals(a, b);
        return a;
    }
    // Student-t with 4 degrees of freedom, scaled to unit variance: Z / sqrt(chi2_4 / 4)
    // with chi2_4 = -2 ln(U1 U2), times sqrt((nu - 2) / nu).
    double studentT4()
    {
        const double chi2 = -2.0 * std::log(uniform() * uniform());
        return normal() / std::sqrt(chi2 / 4.0) * std::sqrt(0.5);
    }

private:
    std::uint64_t m_state;
};

}  // namespace clusterdesk::data
