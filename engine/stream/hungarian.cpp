#include "hungarian.h"

#include "engine/core/error.h"

#include <limits>
#include <string>

namespace clusterdesk::stream {
namespace {

// n <= m: every row is assigned. Potentials u (rows), v (columns); the classic
// augmenting-path formulation with 1-based arrays and column 0 as the virtual start.
std::vector<int> assignRows(const std::vector<double>& cost, int n, int m, bool transposed)
{
    auto a = [&](int i, int j) { return transposed ? cost[static_cast<std::size_t>(j) * n + i] : cost[static_cast<std::size_t>(i) * m + j]; };
    constexpr double kInf = std::numeric_limits<double>::infinity();
    std::vector<double> u(n + 1, 0.0), v(m + 1, 0.0);
    std::vector<int> p(m + 1, 0), way(m + 1, 0);
    for (int i = 1; i <= n; ++i) {
        p[0] = i;
        int j0 = 0;
        std::vector<double> minv(m + 1, kInf);
        std::vector<char> used(m + 1, 0);
        do {
            used[j0] = 1;
            const int i0 = p[j0];
            double delta = kInf;
            int j1 = 0;
            for (int j = 1; j <= m; ++j) {
                if (used[j]) continue;
                const double reduced = a(i0 - 1, j - 1) - u[i0] - v[j];
                if (reduced < minv[j]) {
                    minv[j] = reduced;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= m; ++j) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            const int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0 != 0);
    }
    std::vector<int> column(n, -1);
    for (int j = 1; j <= m; ++j)
        if (p[j] != 0) column[p[j] - 1] = j - 1;
    return column;
}

}  // namespace

std::vector<int> minCostAssignment(const std::vector<double>& cost, int rows, int cols)
{
    if (rows < 0 || cols < 0 || cost.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols))
        throw Error("assignment: a " + std::to_string(rows) + " x " + std::to_string(cols) + " cost matrix has " +
                    std::to_string(cost.size()) + " entries (internal)");
    if (rows == 0 || cols == 0) return std::vector<int>(static_cast<std::size_t>(rows), -1);
    if (rows <= cols) return assignRows(cost, rows, cols, false);
    // More rows than columns: assign the columns to rows, then read it back per row.
    const std::vector<int> rowOfColumn = assignRows(cost, cols, rows, true);
    std::vector<int> column(static_cast<std::size_t>(rows), -1);
    for (int j = 0; j < cols; ++j) column[static_cast<std::size_t>(rowOfColumn[j])] = j;
    return column;
}

}  // namespace clusterdesk::stream
