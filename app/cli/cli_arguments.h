// What the store commands share (runs ..., report): their arguments, and the store
// they read or write.
#pragma once

#include "engine/store/run_store.h"

#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clusterdesk::cli {

// A command's arguments: positionals, options with a value, and flags. Anything else is
// refused naming it.
struct Arguments {
    std::vector<std::string> positional;
    std::map<std::string, std::string> values;
    std::set<std::string> flags;

    std::string value(const std::string& option) const
    {
        const auto found = values.find(option);
        return found == values.end() ? "" : found->second;
    }
    bool has(const std::string& option) const { return values.count(option) || flags.count(option); }
};

// Throws UsageError when `option` was seen before (recorded in `seen`): a second value
// would silently win over the first. --option KEY=VALUE may repeat, one key at a time.
void refuseRepeated(std::set<std::string>& seen, const std::string& option);

// The value of the option at args[i], which moves i onto it. UsageError when there is
// none, it is empty, or it is the next option (--labels-out --json would write a file
// named --json; a file of that name is written ./--json).
const std::string& takeValue(const std::vector<std::string>& args, std::size_t& i);

// command: as the user typed it ("runs show", "report"), for messages. Between
// minPositionals and maxPositionals run ids; --db is always accepted.
Arguments parseArguments(const std::string& command, const std::vector<std::string>& args, std::size_t minPositionals,
                         std::size_t maxPositionals, std::set<std::string> valueOptions, const std::set<std::string>& flagOptions);

// Reading commands open the store read-only (it may sit on a read-only medium, and
// reading must never change it); each one says first when the file lost records. A
// file whose schema is too old to read as it is (or that another process is still
// creating) is opened read-write, which migrates it, only where it may be written.
std::unique_ptr<store::RunStore> openStore(const std::string& dbOption, store::StoreAccess access);

}  // namespace clusterdesk::cli
