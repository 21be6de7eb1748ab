// A DataSource turns a location (a file path, or a generated demo's spec) and its
// options into a Dataset. Each source lives in its own file (csv_source.cpp,
// ticks_source.cpp, ...) and is listed once in source_registry.cpp; the registry,
// describeFile and openSource do the rest (detection, option checks, the SourceSpec).
#pragma once

#include "dataset.h"
#include "file_head.h"
#include "source_spec.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clusterdesk::data {

// One option a source takes, as it is written in SourceSpec::options.
struct SourceOption {
    std::string name;          // key in SourceSpec::options and CLI flag (--name)
    std::string description;   // what it is, for messages: "a return window"
    std::string defaultValue;  // canonical text used when the option is not given
    // Checks a value given as text and returns its canonical text (the one spelling
    // the spec records); throws UsageError naming the option and the value.
    std::function<std::string(const std::string& value)> canonical;
    // The command line's own flag for it ("--window"), if it has one; otherwise it is
    // given as --option name=value. Messages spell it the way the user would type it.
    std::string flag = {};
};

// Fraction done in [0,1]; returning false cancels the load (Cancelled is thrown).
using ProgressCallback = std::function<bool(double)>;

class DataSource {
public:
    virtual ~DataSource() = default;

    // The name in SourceSpec::source: "csv", "ticks", "demo", ...
    virtual std::string name() const = 0;
    // What its rows are, for messages: "a matrix", "a prices table".
    virtual std::string holds() const = 0;
    // File name extensions it reads, lower case without the dot (file dialogs).
    virtual std::vector<std::string> extensions() const { return {}; }
    // Whether a file's own bytes (magic number) or a binary format's extension say it
    // is this source's. Asked of every source before any content sniffing, and a file
    // with a signature cannot be read by another source.
    virtual bool hasSignature(const FileHead&) const { return false; }
    // Whether the content looks like this source's (text formats). Asked in
    // registration order; the first that says yes reads the file.
    virtual bool sniff(const FileHead&) const { return false; }
    // Generated data (no file behind the location).
    virtual bool generated() const { return false; }
    // Every option it takes; any other is refused with a UsageError.
    virtual std::vector<SourceOption> options() const { return {}; }
    // The options (complete, canonical) with any default that depends on the file made
    // explicit, so the spec still names the same rows if the file gains more (HDF5:
    // which dataset). Throws what open throws for a file it cannot read.
    virtual SourceOptions resolveOptions(const FileHead&, SourceOptions options) const { return options; }

    // The rows of spec.location. spec.options holds every option of options() in its
    // canonical text. Throws DataError ("FILE:LINE:COLUMN: message"), UsageError or
    // Cancelled.
    virtual Dataset open(const SourceSpec& spec, const ProgressCallback& progress) const = 0;
};

}  // namespace clusterdesk::data
