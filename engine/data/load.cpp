#include "load.h"

#include "engine/core/error.h"
#include "file_bytes.h"
#include "matrix_loader.h"
#include "npy_loader.h"
#include "price_pipeline.h"
#include "prices_loader.h"
#include "ticks_loader.h"

namespace clusterdesk {

void requireOptionsApply(const std::string& path, Layout layout, const LoadOptions& options, bool barGiven)
{
    if (layout == Layout::Matrix && options.returnWindow != 0) {
        throw UsageError("a return window (--window " + std::to_string(options.returnWindow) +
                         ") applies to prices and ticks files; " + path + " holds a matrix");
    }
    if (layout != Layout::Ticks && (barGiven || options.barSeconds != LoadOptions::kDefaultBarSeconds)) {
        throw UsageError("a bar size (--bar " + std::to_string(options.barSeconds) + ") applies to ticks files; " +
                         path + " holds " + (layout == Layout::Matrix ? "a matrix" : "a prices table, not ticks"));
    }
}

Dataset loadDataset(const std::string& path, const LoadOptions& options)
{
    data::validateLoadOptions(options);
    // By magic, or by name so that a damaged .npy gets a binary diagnosis, not a CSV one.
    const bool npyName = path.size() >= 4 && (path.compare(path.size() - 4, 4, ".npy") == 0 ||
                                              path.compare(path.size() - 4, 4, ".NPY") == 0);
    if (npyName || data::hasNpyMagic(data::readFilePrefix(path, 6))) {
        if (options.layout && *options.layout != Layout::Matrix) {
            throw UsageError(path + " is a NumPy .npy file, which holds a matrix; it cannot be read as " +
                             toString(*options.layout));
        }
        requireOptionsApply(path, Layout::Matrix, options);
        return data::loadNpy(path, options);
    }
    const Layout layout = options.layout ? *options.layout : sniffLayout(path);
    requireOptionsApply(path, layout, options);
    switch (layout) {
        case Layout::Matrix: return data::loadMatrixCsv(path, options);
        case Layout::Prices: return data::loadPricesCsv(path, options);
        case Layout::Ticks: return data::loadTicksCsv(path, options);
    }
    throw UsageError("unknown layout");
}

}  // namespace clusterdesk
