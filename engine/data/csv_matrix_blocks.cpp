// The parallel block reader of big matrix CSV files (see csv_matrix.h).
//
// The file is read a round at a time (a few MiB per thread) into one buffer, cut at
// line ends into one block per thread, and each block is parsed on its own into a
// small part; the parts are appended to the dataset in file order. Lines are cut at
// newlines, which is exact as long as no field is quoted: a quote anywhere sends the
// file back to the serial reader.
#include "csv_matrix.h"

#include "engine/core/error.h"
#include "engine/core/file_bytes.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <optional>

namespace clusterdesk::data {
namespace {

constexpr std::size_t kBlockBytes = std::size_t(4) << 20;  // text per thread and round

struct Part {
    // Empty for the next round, keeping its buffers (fresh ones every round cost a page
    // fault per 4 KiB written).
    void restart(std::int64_t cols)
    {
        rows.values.clear();
        rows.rowNames.clear();
        rows.truth.clear();
        rows.rows = 0;
        rows.cols = cols;
        newlines = 0;
        firstLine.reset();
        error = nullptr;
        quote = false;
    }

    Dataset rows;
    std::int64_t newlines = 0; // line ends in the block
    std::optional<std::int64_t> firstLine;  // counted when a line first needs it
    std::exception_ptr error;  // the first bad line of the block
    bool quote = false;        // the block holds a '"': read the file serially
};

struct BlockParser {
    const std::string& path;
    char delimiter;
    const MatrixColumns& columns;
    std::size_t maxLineBytes;

    // Parses [begin, end) (whole lines) into part. The block's first line number is
    // counted from roundStart (the round's first byte, on line roundLine) once, when
    // a line first needs it: one the serial reader takes.
    void parse(const char* roundStart, std::int64_t roundLine, const char* begin, const char* end, Part& part) const
    {
        const BlockBytes bytes = scanBytes(begin, end);
        if (bytes.quote) {
            part.quote = true;
            return;
        }
        try {
            for (const char* p = begin; p < end;) {
                const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
                const char* lineEnd = nl ? nl : end;
                const std::string_view line(p, static_cast<std::size_t>(lineEnd - p));
                if (line.size() > maxLineBytes || !(bytes.plain || scanBytes(p, lineEnd).plain) ||
                    !appendPlainRow(line, delimiter, columns, part.rows)) {
                    if (!part.firstLine) part.firstLine = roundLine + std::count(roundStart, begin, '\n');
                    parseSerially(p, lineEnd, *part.firstLine + part.newlines, part.rows);
                }
                part.newlines += nl != nullptr;
                p = nl ? nl + 1 : end;
            }
        } catch (...) {
            part.error = std::current_exception();
        }
    }

    // What text holds, in one pass: a quote; whether it is plain, ASCII without NUL
    // (nothing the validation of the serial reader would refuse).
    struct BlockBytes {
        bool quote;
        bool plain;
    };
    static BlockBytes scanBytes(const char* begin, const char* end)
    {
        unsigned char any = 0, nul = 0, quote = 0;
        for (const char* p = begin; p < end; ++p) {
            const auto c = static_cast<unsigned char>(*p);
            any |= c;
            nul |= c == 0;
            quote |= c == '"';
        }
        return {quote != 0, any < 0x80 && nul == 0};
    }

    void parseSerially(const char* begin, const char* end, std::int64_t line, Dataset& out) const
    {
        CsvOptions options;
        options.delimiter = delimiter;
        options.maxLineBytes = maxLineBytes;
        options.firstLine = line;
        CsvReader reader(path, std::string(begin, end), options);
        CsvRecord record;
        if (reader.next(record)) appendMatrixRow(reader, record, columns, out);
    }
};

}  // namespace

bool appendMatrixRowsInBlocks(const std::string& path, std::uint64_t offset, std::int64_t firstLine, char delimiter,
                              const MatrixColumns& columns, Dataset& out, Progress& progress)
{
    const BlockParser parser{path, delimiter, columns, CsvOptions().maxLineBytes};
    File file = openRegularFile(path);
    const std::uint64_t size = fileSize(path);
    if (std::fseek(file.get(), static_cast<long>(offset), SEEK_SET) != 0) throw DataError(path, 0, 0, "cannot seek in the file");
    const int threads = std::max(1, omp_get_max_threads());
    // A round holds every thread's block, and at least two of the longest lines accepted.
    // At most 64 MiB in all, however many threads.
    const std::size_t roundBytes =
        std::max(std::min(kBlockBytes * threads, std::size_t(64) << 20), 2 * parser.maxLineBytes + 2);
    std::vector<char> buffer(roundBytes);
    std::vector<Part> parts(threads);
    std::size_t carried = 0;  // bytes of an unfinished line kept from the last round
    std::uint64_t consumed = offset;
    std::int64_t line = firstLine;
    bool reserved = false;
    while (true) {
        const std::size_t read = std::fread(buffer.data() + carried, 1, buffer.size() - carried, file.get());
        if (read == 0 && std::ferror(file.get())) throw DataError(path, 0, 0, "cannot read the file");
        const std::size_t filled = carried + read;
        const bool last = read == 0 || consumed + filled >= size;
        if (filled == 0) break;
        // Whole lines only, except at the end of the file.
        std::size_t cut = filled;
        if (!last) {
            const char* nl = nullptr;
            for (std::size_t i = filled; i > 0 && !nl; --i)
                if (buffer[i - 1] == '\n') nl = buffer.data() + i - 1;
            // No line end in a full round: a line longer than accepted; the serial reader
            // says so, given the round cut before the last (maybe partial) UTF-8 character.
            cut = nl ? static_cast<std::size_t>(nl - buffer.data()) + 1 : filled;
            if (!nl) {
                while (cut > 0 && (static_cast<unsigned char>(buffer[cut - 1]) & 0xC0) == 0x80) --cut;
                if (cut > 0 && static_cast<unsigned char>(buffer[cut - 1]) >= 0xC0) --cut;
            }
        }
        // One block per thread, cut after a newline.
        std::vector<std::size_t> bounds{0};
        for (int t = 1; t < threads; ++t) {
            std::size_t b = std::max(bounds.back(), cut * t / threads);
            const void* nl = b < cut ? std::memchr(buffer.data() + b, '\n', cut - b) : nullptr;
            bounds.push_back(nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - buffer.data()) + 1 : cut);
        }
        bounds.push_back(cut);
#pragma omp parallel for schedule(static, 1) num_threads(threads)
        for (int t = 0; t < threads; ++t) {
            parts[t].restart(out.cols);
            parser.parse(buffer.data(), line, buffer.data() + bounds[t], buffer.data() + bounds[t + 1], parts[t]);
        }
        if (std::any_of(parts.begin(), parts.end(), [](const Part& p) { return p.quote; })) return false;
        if (!reserved) {
            // The file's row count from the first round's bytes per row, so the rows are
            // not regrown (twice their memory) while they are appended.
            std::int64_t roundRows = 0;
            for (const Part& part : parts) roundRows += part.rows.rows;
            const double rowBytes = static_cast<double>(cut) / static_cast<double>(std::max<std::int64_t>(1, roundRows));
            const std::uint64_t left = size > consumed + cut ? size - consumed - cut : 0;  // the file may have shrunk
            const auto rows = static_cast<std::size_t>(out.rows + roundRows + 16 + 1.02 * static_cast<double>(left) / rowBytes);
            out.values.reserve(rows * static_cast<std::size_t>(out.cols));
            if (columns.idColumn) out.rowNames.reserve(rows);
            if (columns.truthColumn) out.truth.reserve(rows);
            reserved = true;
        }
        for (Part& part : parts) {
            if (part.error) std::rethrow_exception(part.error);
            out.values.insert(out.values.end(), part.rows.values.begin(), part.rows.values.end());
            std::move(part.rows.rowNames.begin(), part.rows.rowNames.end(), std::back_inserter(out.rowNames));
            out.truth.insert(out.truth.end(), part.rows.truth.begin(), part.rows.truth.end());
            out.rows += part.rows.rows;
        }
        for (const Part& part : parts) line += part.newlines;
        consumed += cut;
        carried = filled - cut;
        std::memmove(buffer.data(), buffer.data() + cut, carried);
        progress.update(static_cast<double>(consumed) / static_cast<double>(std::max<std::uint64_t>(1, size)));
        if (last && carried == 0) break;
    }
    return true;
}

}  // namespace clusterdesk::data
