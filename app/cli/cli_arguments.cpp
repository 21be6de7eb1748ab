#include "cli_arguments.h"

#include "cli_options.h"

#include "engine/core/error.h"

#include <unistd.h>

#include <iostream>

namespace clusterdesk::cli {

void refuseRepeated(std::set<std::string>& seen, const std::string& option)
{
    if (option.rfind("--", 0) != 0 || option == "--option") return;
    if (!seen.insert(option).second) throw UsageError("option " + option + " is given twice; give it once");
}

const std::string& takeValue(const std::vector<std::string>& args, std::size_t& i)
{
    const std::string& option = args[i];
    if (i + 1 >= args.size()) throw UsageError("option " + option + " needs a value");
    const std::string& value = args[i + 1];
    if (value.empty()) throw UsageError("option " + option + " needs a value, not an empty one");
    if (value.rfind("--", 0) == 0 && value.size() > 2)
        throw UsageError("option " + option + " needs a value, but the option " + value + " follows it");
    return args[++i];
}

Arguments parseArguments(const std::string& command, const std::vector<std::string>& args, std::size_t minPositionals,
                         std::size_t maxPositionals, std::set<std::string> valueOptions, const std::set<std::string>& flagOptions)
{
    valueOptions.insert("--db");
    Arguments parsed;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (valueOptions.count(arg) || flagOptions.count(arg)) refuseRepeated(seen, arg);
        if (valueOptions.count(arg)) {
            parsed.values[arg] = takeValue(args, i);
        } else if (flagOptions.count(arg)) {
            parsed.flags.insert(arg);
        } else if (arg.rfind("--", 0) == 0) {
            throw UsageError(command + ": unknown option '" + arg + "' (see clusterdesk-cli --help)");
        } else {
            parsed.positional.push_back(arg);
        }
    }
    const std::size_t got = parsed.positional.size();
    if (got < minPositionals || got > maxPositionals) {
        const std::string count = minPositionals == maxPositionals ? std::to_string(minPositionals) : "at least " + std::to_string(minPositionals);
        throw UsageError(command + " takes " + count + (minPositionals == 1 ? " run id" : " run ids") + " (got " + std::to_string(got) + ")");
    }
    return parsed;
}

std::unique_ptr<store::RunStore> openStore(const std::string& dbOption, store::StoreAccess access)
{
    const std::string path = existingStorePath(dbOption);
    std::unique_ptr<store::RunStore> runStore;
    try {
        runStore = std::make_unique<store::RunStore>(path, access);
    } catch (const store::SchemaNeedsMigration&) {
        if (::access(path.c_str(), W_OK) != 0) throw;
        runStore = std::make_unique<store::RunStore>(path, store::StoreAccess::ReadWrite);
    }
    if (!runStore->lostOnOpen().empty())
        std::cerr << "clusterdesk-cli: warning: " << runStore->path() << ": " << runStore->lostOnOpen() << '\n';
    return runStore;
}

}  // namespace clusterdesk::cli
