// A matrix CSV's columns and how one record becomes a row: shared by the serial
// reader (small files, quoted text) and the parallel block reader (big plain files),
// so both accept the same cells and fail with the same messages.
#pragma once

#include "csv_reader.h"
#include "dataset.h"
#include "progress.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clusterdesk::data {

// What the first records said about the columns.
struct MatrixColumns {
    std::size_t width = 0;                   // fields per record
    std::vector<std::size_t> features;       // the float columns, in order
    bool idColumn = false;                   // field 0 names the row
    std::optional<std::size_t> truthColumn;  // integer ground truth
    std::vector<std::string> headerNames;    // one per field with a header, empty without
    double limit = 0.0;                      // maxFeatureMagnitude(features.size())

    std::string_view headerName(std::size_t field) const
    {
        return headerNames.empty() ? std::string_view() : std::string_view(headerNames[field]);
    }
};

// Appends record as a row of out (values, row name, truth, rows), or throws DataError
// at the cell that cannot be one.
void appendMatrixRow(const CsvReader& reader, const CsvRecord& record, const MatrixColumns& columns, Dataset& out);

// The block reader's fast path for one line, without its '\n'. The caller has checked
// what the serial reader checks first: ASCII without NUL, at most
// CsvOptions::maxLineBytes. Appends the line as a row of out and returns true when
// every cell is plain (a number, or the id or truth cell) with the right count; a
// blank line adds nothing and is plain. Returns false, out unchanged, when the line
// needs the serial reader: the values it takes are then the serial reader's, bit for
// bit, and the errors are the serial reader's to give. Each number is parsed where it
// stands and must be followed by the delimiter (the line's end after the last cell),
// spaces aside, so the line is not cut into cells first.
bool appendPlainRow(std::string_view line, char delimiter, const MatrixColumns& columns, Dataset& out);

// Appends the rows of the file's text from byte `offset` (the start of line
// `firstLine`) to its end, parsed in parallel blocks straight into out. The file is
// read a few MiB at a time, so the text is never held whole. A row the fast scan does
// not take as plain numbers (spaces, a bad cell, non-ASCII text, a wrong width) goes
// through CsvReader and appendMatrixRow on its own line, so errors are the serial
// reader's, at the file's line and column; the first in the file is thrown.
// Returns false when the text holds a quote: fields may then span lines, and the
// caller reads the whole file serially (out's rows must then be discarded).
bool appendMatrixRowsInBlocks(const std::string& path, std::uint64_t offset, std::int64_t firstLine, char delimiter,
                              const MatrixColumns& columns, Dataset& out, Progress& progress);

}  // namespace clusterdesk::data
