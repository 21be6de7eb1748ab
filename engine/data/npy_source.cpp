// The npy source: NumPy .npy files (format versions 1.0, 2.0 and 3.0).
//
// dtype float32, float64 or an integer of 1, 2, 4 or 8 bytes, signed or not, in either
// byte order (all but '<f4' converted to float32), C or Fortran order, shape (n,) -> n x 1
// or (n, d). The shape must account for exactly the bytes after the header. Errors are
// DataError at line 1, column = 1-based byte offset of the problem.
#include "data_source.h"
#include "engine/core/background_sha256.h"
#include "engine/core/error.h"
#include "engine/core/file_bytes.h"
#include "progress.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace clusterdesk::data {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicSize = 6;
constexpr std::uint64_t kMaxHeader = 1u << 20;  // real headers are under 1 KiB

struct NpyHeader {
    std::string descr;
    bool fortran = false;
    std::vector<std::uint64_t> shape;
    std::uint64_t dataOffset = 0;
};

// Parser for the header's Python dict literal, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
class HeaderParser {
public:
    HeaderParser(const std::string& path, std::string_view text, std::uint64_t offset)
        : m_path(path),
          m_text(text),
          m_offset(offset)
    {
    }

    NpyHeader parse()
    {
        NpyHeader header;
        bool haveDescr = false, haveOrder = false, haveShape = false;
        skipSpace();
        expect('{');
        while (true) {
            skipSpace();
            if (peek() == '}') break;
            const std::size_t keyAt = m_pos;
            const std::string key = quoted();
            skipSpace();
            expect(':');
            skipSpace();
            if (key == "descr") {
                header.descr = quoted();
                haveDescr = true;
            } else if (key == "fortran_order") {
                if (m_text.substr(m_pos, 4) == "True") {
                    header.fortran = true;
                    m_pos += 4;
                } else if (m_text.substr(m_pos, 5) == "False") {
                    m_pos += 5;
                } else {
                    fail(m_pos, "fortran_order must be True or False");
                }
                haveOrder = true;
            } else if (key == "shape") {
                header.shape = tuple();
                haveShape = true;
            } else {
                fail(keyAt, "unexpected key '" + key + "' in the .npy header");
            }
            skipSpace();
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            skipSpace();
            if (peek() != '}') fail(m_pos, "expected ',' or '}' in the .npy header");
        }
        ++m_pos;
        if (!haveDescr || !haveOrder || !haveShape)
            fail(0, std::string("the .npy header lacks '") +
                        (!haveDescr   ? "descr"
                         : !haveOrder ? "fortran_order"
                                      : "shape") +
                        "'");
        return header;
    }

private:
    [[noreturn]] void fail(std::size_t at, const std::string& message) const
    {
        throw DataError(m_path, 1, static_cast<std::int64_t>(m_offset + at + 1), message);
    }
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    void skipSpace()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n'))
            ++m_pos;
    }
    void expect(char c)
    {
        if (peek() != c) fail(m_pos, std::string("expected '") + c + "' in the .npy header");
        ++m_pos;
    }
    std::string quoted()
    {
        const char q = peek();
        if (q != '\'' && q != '"') fail(m_pos, "expected a quoted string in the .npy header");
        const std::size_t end = m_text.find(q, m_pos + 1);
        if (end == std::string_view::npos) fail(m_pos, "unterminated string in the .npy header");
        std::string s(m_text.substr(m_pos + 1, end - m_pos - 1));
        m_pos = end + 1;
        return s;
    }
    std::vector<std::uint64_t> tuple()
    {
        expect('(');
        std::vector<std::uint64_t> dims;
        while (true) {
            skipSpace();
            if (peek() == ')') break;
            const std::size_t start = m_pos;
            std::uint64_t value = 0;
            while (peek() >= '0' && peek() <= '9') {
                const std::uint64_t digit = static_cast<std::uint64_t>(peek() - '0');
                if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
                    fail(start, "shape dimension too large");
                value = value * 10 + digit;
                ++m_pos;
            }
            if (m_pos == start) fail(m_pos, "expected a non-negative integer in the shape");
            if (peek() == 'L') ++m_pos;  // Python 2 longs
            dims.push_back(value);
            skipSpace();
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            if (peek() != ')') fail(m_pos, "expected ',' or ')' in the shape");
        }
        ++m_pos;
        return dims;
    }

    const std::string& m_path;
    std::string_view m_text;
    std::uint64_t m_offset;
    std::size_t m_pos = 0;
};

std::string shapeText(const std::vector<std::uint64_t>& shape)
{
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

// Binary errors: line 1, column = 1-based byte offset.
[[noreturn]] void failAt(const std::string& path, std::uint64_t offset, const std::string& message)
{
    throw DataError(path, 1, static_cast<std::int64_t>(offset + 1), message);
}

// An element type the reader converts: kind 'f' (float), 'i' or 'u' (integers).
struct ElementType {
    char kind = 'f';
    std::size_t size = 4;
    bool bigEndian = false;
    bool isNativeFloat32() const { return kind == 'f' && size == 4 && !bigEndian; }
};

// From a descr such as '<f4', '>i8' or '|u1'; nullopt for any other (complex, bool,
// strings, dates, objects, float16).
std::optional<ElementType> elementType(const std::string& descr)
{
    if (descr.size() < 3) return std::nullopt;
    const char order = descr[0];
    const char kind = descr[1];
    const std::string size = descr.substr(2);
    ElementType type{kind, 0, order == '>'};
    if (kind == 'f' && (size == "4" || size == "8"))
        type.size = size == "4" ? 4 : 8;
    else if ((kind == 'i' || kind == 'u') && (size == "1" || size == "2" || size == "4" || size == "8"))
        type.size = static_cast<std::size_t>(size[0] - '0');
    else
        return std::nullopt;
    // NumPy writes '|' (no byte order) for one-byte types and '<' or '>' for the others.
    if (order != '<' && order != '>' && !(order == '|' && type.size == 1)) return std::nullopt;
    return type;
}

// The element at p in little-endian order, integers sign-extended to 64 bits.
std::uint64_t elementBits(const unsigned char* p, const ElementType& type)
{
    std::uint64_t bits = 0;
    // float64 in the machine's order, NumPy's default, is most files: one load.
    if (std::endian::native == std::endian::little && !type.bigEndian)
        std::memcpy(&bits, p, type.size);
    else
        for (std::size_t b = 0; b < type.size; ++b)
            bits |= static_cast<std::uint64_t>(p[type.bigEndian ? type.size - 1 - b : b]) << (8 * b);
    if (type.kind == 'i' && type.size < 8) {
        const unsigned shift = static_cast<unsigned>(64 - 8 * type.size);
        bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(bits << shift) >> shift);
    }
    return bits;
}

// The element as a double: exact for every float and for integers up to 2^53.
double elementValue(std::uint64_t bits, const ElementType& type)
{
    if (type.kind == 'f') return type.size == 8 ? std::bit_cast<double>(bits) : std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    return type.kind == 'u' ? static_cast<double>(bits) : static_cast<double>(static_cast<std::int64_t>(bits));
}

// Whether float32 holds the integer exactly: at most 24 significant bits.
bool integerFitsFloat(std::uint64_t bits, const ElementType& type)
{
    const bool negative = type.kind == 'i' && static_cast<std::int64_t>(bits) < 0;
    const std::uint64_t magnitude = negative ? ~bits + 1 : bits;
    return magnitude == 0 || 64 - std::countl_zero(magnitude) - std::countr_zero(magnitude) <= 24;
}

bool hasNpyMagic(std::string_view firstBytes)
{
    return firstBytes.size() >= kMagicSize && std::memcmp(firstBytes.data(), kMagic, kMagicSize) == 0;
}

Dataset readNpy(const std::string& path, const ProgressCallback& callback)
{
    Progress progress(callback);
    progress.report(0.0);
    const std::uint64_t size = fileSize(path);

    const std::string start = readFilePrefix(path, 12);
    if (start.size() < kMagicSize || !hasNpyMagic(start)) {
        std::size_t at = 0;
        while (at < start.size() && at < kMagicSize && start[at] == kMagic[at]) ++at;
        failAt(path, at,
               at == start.size() ? "truncated .npy file: the magic string is incomplete"
                                  : "not a .npy file: bad magic (expected \\x93NUMPY)");
    }
    if (start.size() < 8) failAt(path, start.size(), "truncated .npy file: no format version");
    const int major = static_cast<unsigned char>(start[6]);
    if (major < 1 || major > 3)
        failAt(path, 6, "unsupported .npy format version " + std::to_string(major) + " (1, 2 or 3 are read)");
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    if (start.size() < 8 + lengthBytes)
        failAt(path, start.size(), "truncated .npy file: the header length is incomplete");
    std::uint64_t headerLength = 0;
    for (std::size_t i = 0; i < lengthBytes; ++i)
        headerLength |= static_cast<std::uint64_t>(static_cast<unsigned char>(start[8 + i])) << (8 * i);
    const std::uint64_t headerStart = 8 + lengthBytes;
    if (headerLength > kMaxHeader) failAt(path, 8, "implausible .npy header length " + std::to_string(headerLength));
    if (headerStart + headerLength > size) {
        failAt(path, size,
               "truncated .npy file: the header says it is " + std::to_string(headerLength) +
                   " bytes, the file ends at byte " + std::to_string(size));
    }
    const std::string prefix = readFilePrefix(path, static_cast<std::size_t>(headerStart + headerLength));
    if (prefix.size() != headerStart + headerLength)
        failAt(path, prefix.size(), "truncated .npy file (changed while reading?)");
    const std::string_view headerText = std::string_view(prefix).substr(headerStart);
    for (std::size_t i = 0; i < headerText.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(headerText[i]);
        if (c == 0 || (c >= 0x80 && major < 3)) failAt(path, headerStart + i, "invalid byte in the .npy header");
    }
    NpyHeader header = HeaderParser(path, headerText, headerStart).parse();
    header.dataOffset = headerStart + headerLength;

    const std::optional<ElementType> type = elementType(header.descr);
    if (!type) {
        const std::size_t at = prefix.find(header.descr, headerStart);
        failAt(path, at == std::string::npos ? headerStart : at,
               "unsupported dtype '" + header.descr +
                   "': float32, float64 and integer arrays are read ('<f4', '<f8', '<i8', '|u1', ...; either byte order)");
    }
    const std::size_t itemSize = type->size;
    if (header.shape.empty() || header.shape.size() > 2) {
        failAt(path, prefix.find("shape", headerStart),
               "unsupported shape " + shapeText(header.shape) + ": a 1-D or 2-D array is expected");
    }
    const std::uint64_t rows = header.shape[0];
    const std::uint64_t cols = header.shape.size() == 2 ? header.shape[1] : 1;
    if (rows == 0 || cols == 0)
        failAt(path, prefix.find("shape", headerStart), "empty array " + shapeText(header.shape));
    // Overflow-safe: compare against the bytes actually present before allocating.
    const std::uint64_t dataBytes = size - header.dataOffset;
    const std::uint64_t maxElements = dataBytes / itemSize;
    if (rows > maxElements / cols + 1 || rows * cols > maxElements) {
        failAt(path, size,
               "truncated .npy file: shape " + shapeText(header.shape) + " of " + header.descr +
                   " needs more than the " + std::to_string(dataBytes) + " data bytes present");
    }
    const std::uint64_t count = rows * cols;
    if (count * itemSize != dataBytes) {
        failAt(path, header.dataOffset + count * itemSize,
               std::to_string(dataBytes - count * itemSize) + " extra bytes after the data of shape " +
                   shapeText(header.shape));
    }
    if (rows > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        failAt(path, size, "too many rows");

    File file = openRegularFile(path);
    if (std::fseek(file.get(), static_cast<long>(header.dataOffset), SEEK_SET) != 0)
        throw DataError(path, 0, 0, "cannot read the data of the .npy file");

    Dataset out;
    out.source = path;
    out.layout = Layout::Matrix;
    out.rows = static_cast<std::int64_t>(rows);
    out.cols = static_cast<std::int64_t>(cols);
    const double limit = maxFeatureMagnitude(out.cols);
    // In C order the values arrive in their final order: the vector grows a chunk at a
    // time within its reserve (zeroed while the chunk is in cache, not all at once, and
    // never moved), and each checked chunk is hashed (contentHash) on a thread of its
    // own while the next is read. Declared after `out` and `shape`, the hasher stops
    // (its thread joined) before the bytes it was given go, when a bad value throws.
    const std::array<unsigned char, 16> shape = contentHashPrefix(out.rows, out.cols);
    std::optional<BackgroundSha256> hasher;
    if (header.fortran) {
        out.values.resize(static_cast<std::size_t>(count));
    } else {
        out.values.reserve(static_cast<std::size_t>(count));
        hasher.emplace();
        hasher->feed(shape.data(), shape.size());
    }

    // Read in chunks straight into the output (little-endian float32, C order) or through
    // a small buffer (conversion, Fortran transposition), checking every value.
    constexpr std::size_t chunk = 1u << 20;  // elements
    std::vector<unsigned char> buffer(
        type->isNativeFloat32() && !header.fortran ? 0 : std::min<std::size_t>(chunk, count) * itemSize);
    std::uint64_t roundedIntegers = 0;  // integers float32 cannot hold (more than 24 significant bits)
    for (std::uint64_t done = 0; done < count;) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, count - done));
        if (!header.fortran) out.values.resize(static_cast<std::size_t>(done + n));
        unsigned char* target =
            buffer.empty() ? reinterpret_cast<unsigned char*>(out.values.data() + done) : buffer.data();
        if (std::fread(target, itemSize, n, file.get()) != n)
            failAt(path, header.dataOffset + done * itemSize, "truncated .npy file (changed while reading?)");
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t index = done + i;
            double value;
            if (type->isNativeFloat32()) {
                float f;
                std::memcpy(&f, target + i * 4, 4);
                value = f;
            } else {
                const std::uint64_t bits = elementBits(target + i * itemSize, *type);
                value = elementValue(bits, *type);
                if (type->kind != 'f' && !integerFitsFloat(bits, *type)) ++roundedIntegers;
            }
            // Beyond `limit` the run's float32 squared distances would overflow: refused
            // here, where the value's place in the file is known.
            if (!std::isfinite(value) || std::fabs(value) > limit) {
                const std::uint64_t r = header.fortran ? index % rows : index / cols;
                const std::uint64_t c = header.fortran ? index / rows : index % cols;
                const std::string at = " at row " + std::to_string(r + 1) + ", column " + std::to_string(c + 1);
                failAt(path, header.dataOffset + index * itemSize,
                       std::isfinite(value) ? "value too large" + at + ": " + tooLargeForDistances(out.cols)
                                            : "not a finite number" + at);
            }
            if (!buffer.empty()) {
                const std::uint64_t to = header.fortran ? (index % rows) * cols + index / rows : index;
                out.values[static_cast<std::size_t>(to)] = static_cast<float>(value);
            }
        }
        if (hasher) hasher->feed(out.values.data() + done, n * sizeof(float));
        done += n;
        progress.update(static_cast<double>(done) / static_cast<double>(count));
    }
    if (hasher) out.knownHash = hasher->hex();
    out.notes.push_back("npy: " + std::to_string(rows) + " rows x " + std::to_string(cols) + " features, " +
                        header.descr + (header.fortran ? ", Fortran order" : ", C order") +
                        (type->isNativeFloat32() ? "" : ", converted to float32"));
    if (roundedIntegers > 0)
        out.notes.push_back("npy: " + std::to_string(roundedIntegers) +
                            " integers beyond +-16777216 (2^24) rounded to the nearest float32");
    progress.report(1.0);
    return out;
}

class NpySource final : public DataSource {
public:
    std::string name() const override { return "npy"; }
    std::string holds() const override { return "a matrix"; }
    std::vector<std::string> extensions() const override { return {"npy"}; }
    // By magic, or by name so that a damaged .npy gets a binary diagnosis, not a CSV one.
    bool hasSignature(const FileHead& head) const override
    {
        return hasNpyMagic(head.bytes()) || head.extension() == "npy";
    }
    Dataset open(const SourceSpec& spec, const ProgressCallback& progress) const override
    {
        return readNpy(spec.location, progress);
    }
};

}  // namespace

std::unique_ptr<DataSource> makeNpySource()
{
    return std::make_unique<NpySource>();
}

}  // namespace clusterdesk::data
