// The hdf5 source: a 2-D numeric dataset inside an HDF5 file (.h5, .hdf5).
//
// Option `dataset`: its path inside the file; empty = the only 2-D numeric dataset in
// the file (an error lists the candidates when there are several), which describeFile
// then records by name. Float and integer
// types of any width are converted to float32 by HDF5; strings, compounds and the like
// are refused. Row and column names come from 1-D string datasets beside it, when
// present: `row_names` / `col_names` (the plain h5py layout), or pandas' fixed format
// (`axis1` / `block0_items` beside `block0_values`). Errors are DataErrors naming the
// file and the dataset, with the row and column of a bad value.
#include "data_source.h"
#include "engine/core/error.h"
#include "engine/core/file_bytes.h"
#include "progress.h"
#include "row_names.h"
#include "source_options.h"

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

namespace clusterdesk::data {
namespace {

constexpr char kMagic[] = "\x89HDF\r\n\x1a\n";
constexpr std::size_t kMagicSize = 8;
// A shape this large is a damaged or hostile header, not data anyone can cluster here.
constexpr hsize_t kMaxValues = hsize_t{1} << 32;

#if H5_VERSION_GE(1, 12, 0)
using LinkInfo = H5L_info2_t;
#else
using LinkInfo = H5L_info_t;
#endif

// An HDF5 identifier closed at the end of its scope.
class Handle {
public:
    Handle(hid_t id, herr_t (*close)(hid_t))
        : m_id(id)
        , m_close(close)
    {
    }
    ~Handle()
    {
        if (m_id >= 0) m_close(m_id);
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;

    bool valid() const { return m_id >= 0; }
    hid_t id() const { return m_id; }

private:
    hid_t m_id;
    herr_t (*m_close)(hid_t);
};

std::string shapeText(const std::vector<hsize_t>& dims)
{
    std::string s = "(";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + (dims.size() == 1 ? ",)" : ")");
}

std::string className(H5T_class_t c)
{
    switch (c) {
        case H5T_INTEGER: return "integer";
        case H5T_FLOAT: return "float";
        case H5T_STRING: return "string";
        case H5T_COMPOUND: return "compound";
        case H5T_ENUM: return "enum";
        case H5T_ARRAY: return "array";
        case H5T_VLEN: return "variable-length";
        case H5T_BITFIELD: return "bitfield";
        case H5T_OPAQUE: return "opaque";
        case H5T_REFERENCE: return "reference";
        case H5T_TIME: return "time";
        default: return "unknown";
    }
}

struct DatasetShape {
    std::vector<hsize_t> dims;
    H5T_class_t typeClass = H5T_NO_CLASS;
};

std::optional<DatasetShape> shapeOf(hid_t dataset)
{
    const Handle space(H5Dget_space(dataset), H5Sclose);
    const Handle type(H5Dget_type(dataset), H5Tclose);
    if (!space.valid() || !type.valid()) return std::nullopt;
    const int rank = H5Sget_simple_extent_ndims(space.id());
    if (rank < 0) return std::nullopt;
    DatasetShape shape;
    shape.dims.resize(static_cast<std::size_t>(rank));
    if (rank > 0 && H5Sget_simple_extent_dims(space.id(), shape.dims.data(), nullptr) < 0) return std::nullopt;
    shape.typeClass = H5Tget_class(type.id());
    return shape;
}

bool isNumeric(H5T_class_t c)
{
    return c == H5T_INTEGER || c == H5T_FLOAT;
}

class Hdf5File {
public:
    explicit Hdf5File(std::string path)
        : m_path(std::move(path))
        , m_file(open(m_path), H5Fclose)
    {
    }

    // HDF5 prints its error stack to stderr by default; ours carry the context instead.
    // (The setting is per thread in a thread-safe HDF5, so it is made on the reading thread.)
    static void silenceErrorPrinting() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

    [[noreturn]] void fail(const std::string& dataset, const std::string& message) const
    {
        throw DataError(m_path, 0, 0, (dataset.empty() ? "" : "dataset '" + dataset + "': ") + message);
    }

    // Every dataset in the file, by absolute path, in name order.
    std::vector<std::string> datasets() const
    {
        std::vector<std::string> names;
        const auto visit = [](hid_t, const char* name, const LinkInfo* info, void* out) -> herr_t {
            if (info->type == H5L_TYPE_HARD) static_cast<std::vector<std::string>*>(out)->push_back(name);
            return 0;
        };
        if (H5Lvisit(m_file.id(), H5_INDEX_NAME, H5_ITER_INC, visit, &names) < 0)
            fail("", "cannot list the file's contents: the file is damaged or truncated");
        std::vector<std::string> out;
        for (const std::string& name : names) {
            const Handle object(H5Oopen(m_file.id(), name.c_str(), H5P_DEFAULT), H5Oclose);
            if (object.valid() && H5Iget_type(object.id()) == H5I_DATASET) out.push_back("/" + name);
        }
        return out;
    }

    // The dataset to read: `named`, or the only 2-D numeric one.
    std::string choose(const std::string& named) const
    {
        if (!named.empty()) return named;
        const std::vector<std::string> all = datasets();
        std::vector<std::string> candidates;
        for (const std::string& name : all) {
            const Handle d(H5Dopen2(m_file.id(), name.c_str(), H5P_DEFAULT), H5Dclose);
            const auto shape = d.valid() ? shapeOf(d.id()) : std::nullopt;
            if (shape && shape->dims.size() == 2 && isNumeric(shape->typeClass)) candidates.push_back(name);
        }
        if (candidates.size() == 1) return candidates.front();
        std::string list;
        for (const std::string& name : candidates.empty() ? all : candidates)
            list += (list.empty() ? "" : ", ") + name;
        if (candidates.empty())
            fail("", "no 2-D numeric dataset in the file (datasets: " + (list.empty() ? "none" : list) + ")");
        fail("", "several 2-D numeric datasets (" + list +
                         "): choose one with the dataset option (--option dataset=PATH)");
    }

    hid_t openDataset(const std::string& name) const
    {
        if (H5Lexists(m_file.id(), name.c_str(), H5P_DEFAULT) <= 0) {
            std::string list;
            for (const std::string& d : datasets()) list += (list.empty() ? "" : ", ") + d;
            fail(name, "no such dataset in the file (datasets: " + (list.empty() ? "none" : list) + ")");
        }
        const hid_t d = H5Dopen2(m_file.id(), name.c_str(), H5P_DEFAULT);
        if (d < 0) fail(name, "not a dataset (a group?), or the file is damaged");
        return d;
    }

    // The strings of a 1-D string dataset beside `dataset` named `sibling`, when it exists.
    std::optional<std::vector<std::string>> siblingStrings(const std::string& dataset, const std::string& sibling) const
    {
        const std::string name = dataset.substr(0, dataset.rfind('/') + 1) + sibling;
        if (H5Lexists(m_file.id(), name.c_str(), H5P_DEFAULT) <= 0) return std::nullopt;
        const Handle d(H5Dopen2(m_file.id(), name.c_str(), H5P_DEFAULT), H5Dclose);
        const auto shape = d.valid() ? shapeOf(d.id()) : std::nullopt;
        if (!shape || shape->dims.size() != 1 || shape->typeClass != H5T_STRING) return std::nullopt;
        return readStrings(d.id(), name, static_cast<std::size_t>(shape->dims[0]));
    }

private:
    static hid_t open(const std::string& path)
    {
        openRegularFile(path);  // missing, unreadable, a FIFO or a device: the usual DataError
        const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        if (file < 0) {
            // The signature may also sit after a user block (at 512, 1024, ...), where only HDF5 looks.
            const std::string start = readFilePrefix(path, kMagicSize);
            const bool signed_ = start.size() == kMagicSize && std::memcmp(start.data(), kMagic, kMagicSize) == 0;
            throw DataError(path, 0, 0,
                            signed_ ? "cannot open as HDF5: the file is damaged or truncated"
                                    : "not an HDF5 file (no HDF5 signature found)");
        }
        return file;
    }

    std::vector<std::string> readStrings(hid_t dataset, const std::string& name, std::size_t n) const
    {
        const Handle fileType(H5Dget_type(dataset), H5Tclose);
        const Handle memType(H5Tcopy(H5T_C_S1), H5Tclose);
        std::vector<std::string> out;
        out.reserve(n);
        if (H5Tis_variable_str(fileType.id()) > 0) {
            H5Tset_size(memType.id(), H5T_VARIABLE);
            std::vector<char*> text(n, nullptr);
            if (H5Dread(dataset, memType.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()) < 0)
                fail(name, "cannot read the names: the file is damaged or truncated");
            for (char* s : text) out.emplace_back(s ? s : "");
            const Handle space(H5Dget_space(dataset), H5Sclose);
            H5Dvlen_reclaim(memType.id(), space.id(), H5P_DEFAULT, text.data());
        } else {
            const std::size_t size = H5Tget_size(fileType.id());
            H5Tset_size(memType.id(), size);
            std::vector<char> text(n * size);
            if (n > 0 && H5Dread(dataset, memType.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()) < 0)
                fail(name, "cannot read the names: the file is damaged or truncated");
            for (std::size_t i = 0; i < n; ++i) {
                const char* s = text.data() + i * size;
                out.emplace_back(s, strnlen(s, size));
            }
        }
        return out;
    }

    std::string m_path;
    Handle m_file;
};

Dataset readHdf5(const std::string& path, const std::string& named, const ProgressCallback& callback)
{
    Progress progress(callback);
    progress.report(0.0);
    Hdf5File::silenceErrorPrinting();
    const Hdf5File file(path);
    const std::string name = file.choose(named);
    const Handle dataset(file.openDataset(name), H5Dclose);
    const auto shape = shapeOf(dataset.id());
    if (!shape) file.fail(name, "cannot read its shape or type: the file is damaged or truncated");
    if (!isNumeric(shape->typeClass)) {
        file.fail(name, "holds " + className(shape->typeClass) +
                            " values; a 2-D dataset of integers or floats is expected");
    }
    if (shape->dims.size() != 2) {
        file.fail(name, "has rank " + std::to_string(shape->dims.size()) + ", shape " + shapeText(shape->dims) +
                            "; a 2-D dataset (rows x features) is expected");
    }
    const hsize_t rows = shape->dims[0], cols = shape->dims[1];
    if (rows == 0 || cols == 0) file.fail(name, "is empty, shape " + shapeText(shape->dims));
    if (rows > kMaxValues / cols) file.fail(name, "is too large to load, shape " + shapeText(shape->dims));
    // Unwritten storage would read as HDF5's fill value: zeros nobody measured.
    if (H5Dget_storage_size(dataset.id()) == 0) file.fail(name, "has no data written, shape " + shapeText(shape->dims));

    Dataset out;
    out.source = path;
    out.layout = Layout::Matrix;
    out.rows = static_cast<std::int64_t>(rows);
    out.cols = static_cast<std::int64_t>(cols);
    out.values.resize(static_cast<std::size_t>(rows * cols));
    const double limit = maxFeatureMagnitude(out.cols);

    // Row blocks of about a million values, read as double (HDF5 converts any integer or
    // float type) and checked before they become float32.
    const hsize_t block = std::max<hsize_t>(1, (1u << 20) / cols);
    std::vector<double> buffer(static_cast<std::size_t>(std::min(block, rows) * cols));
    const Handle fileSpace(H5Dget_space(dataset.id()), H5Sclose);
    for (hsize_t first = 0; first < rows; first += block) {
        const hsize_t count[2] = {std::min(block, rows - first), cols};
        const hsize_t start[2] = {first, 0};
        const Handle memSpace(H5Screate_simple(2, count, nullptr), H5Sclose);
        if (H5Sselect_hyperslab(fileSpace.id(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0 ||
            H5Dread(dataset.id(), H5T_NATIVE_DOUBLE, memSpace.id(), fileSpace.id(), H5P_DEFAULT, buffer.data()) < 0) {
            file.fail(name, "cannot read rows " + std::to_string(first + 1) + " to " +
                                std::to_string(first + count[0]) + ": the file is damaged or truncated");
        }
        const std::size_t n = static_cast<std::size_t>(count[0] * cols);
        for (std::size_t i = 0; i < n; ++i) {
            const double value = buffer[i];
            if (!std::isfinite(value) || std::fabs(value) > limit) {
                const std::string at = "row " + std::to_string(first + i / cols + 1) + ", column " +
                                       std::to_string(i % cols + 1);
                file.fail(name, std::isfinite(value) ? "value too large at " + at + ": " + tooLargeForDistances(out.cols)
                                                     : "not a finite number at " + at);
            }
            out.values[static_cast<std::size_t>(first * cols) + i] = static_cast<float>(value);
        }
        progress.update(static_cast<double>(first + count[0]) / static_cast<double>(rows));
    }

    const std::string leaf = name.substr(name.rfind('/') + 1);
    const bool pandas = leaf == "block0_values";
    const char* rowNamesName = pandas ? "axis1" : "row_names";
    const char* colNamesName = pandas ? "block0_items" : "col_names";
    auto rowNames = file.siblingStrings(name, rowNamesName);
    auto colNames = file.siblingStrings(name, colNamesName);
    // Names that do not fit the data name nothing for sure: not paired up to the shorter
    // list, and said (the rows are listed by number instead).
    const auto fitting = [&](auto& names, const char* sibling, std::uint64_t wanted, const char* what) {
        if (!names || names->size() == wanted) return names ? std::move(*names) : std::vector<std::string>();
        out.notes.push_back("hdf5: " + std::string(sibling) + " beside " + name + " holds " + std::to_string(names->size()) +
                            " names for its " + std::to_string(wanted) + " " + what + ": not used");
        return std::vector<std::string>();
    };
    out.rowNames = fitting(rowNames, rowNamesName, rows, "rows (they are listed by number)");
    out.colNames = fitting(colNames, colNamesName, cols, "columns");
    noteRepeatedRowNames(out, std::string("hdf5 ") + rowNamesName);
    out.notes.push_back("hdf5: dataset " + name + ", " + std::to_string(rows) + " rows x " + std::to_string(cols) +
                        " features, " + className(shape->typeClass) + " converted to float32" +
                        (out.rowNames.empty() ? "" : ", row names") + (out.colNames.empty() ? "" : ", column names"));
    progress.report(1.0);
    return out;
}

class Hdf5Source final : public DataSource {
public:
    std::string name() const override { return "hdf5"; }
    std::string holds() const override { return "a matrix"; }
    std::vector<std::string> extensions() const override { return {"h5", "hdf5"}; }
    // By magic at the start (files with a user block are found by name), or by name so
    // that a damaged file gets an HDF5 diagnosis, not a CSV one.
    bool hasSignature(const FileHead& head) const override
    {
        const std::string ext = head.extension();
        return head.bytes().compare(0, kMagicSize, kMagic, kMagicSize) == 0 || ext == "h5" || ext == "hdf5";
    }
    std::vector<SourceOption> options() const override
    {
        SourceOption dataset = textOption("dataset", "a dataset inside an HDF5 file", "");
        // One spelling per dataset: paths inside the file are absolute.
        dataset.canonical = [](const std::string& path) {
            return path.empty() || path.front() == '/' ? path : "/" + path;
        };
        return {dataset};
    }
    // The dataset read by default is recorded by name.
    SourceOptions resolveOptions(const FileHead& head, SourceOptions options) const override
    {
        if (options["dataset"].empty()) {
            Hdf5File::silenceErrorPrinting();
            options["dataset"] = Hdf5File(head.path()).choose("");
        }
        return options;
    }
    Dataset open(const SourceSpec& spec, const ProgressCallback& progress) const override
    {
        return readHdf5(spec.location, textValue(spec, "dataset"), progress);
    }
};

}  // namespace

std::unique_ptr<DataSource> makeHdf5Source()
{
    return std::make_unique<Hdf5Source>();
}

}  // namespace clusterdesk::data
