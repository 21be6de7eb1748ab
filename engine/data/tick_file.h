// A ticks file read whole: the long layout timestamp,symbol,price[,size] in any column
// order, checked line by line (DataError naming the line and the field), sorted by time
// with the file's order breaking ties. The ticks source resamples it into bars; the feed
// server replays it.
#pragma once

#include "csv_reader.h"
#include "price_pipeline.h"
#include "progress.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clusterdesk::data {

struct TickRow {
    std::int64_t micros;
    std::int32_t symbol;  // index into TickFile::symbols
    double price;
    double size;          // 0 when the file has no size column or the cell is empty
    PriceOrigin origin;   // the price cell: a bar's close points back at the tick that set it
};

struct TickFile {
    std::vector<std::string> symbols;  // in order of first appearance
    std::vector<TickRow> ticks;        // in time order
};

// Whether a header names the timestamp, symbol and price columns (the ticks layout).
bool isTicksHeader(const CsvRecord& header);
// Reports reading progress on `progress` (the caller maps it onto its own stages).
TickFile readTickFile(const std::string& path, Progress& progress);

}  // namespace clusterdesk::data
