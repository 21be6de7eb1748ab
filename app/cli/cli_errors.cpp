#include "cli_errors.h"

#include "engine/core/error.h"
#include "engine/store/store_error.h"

#include <iostream>
#include <new>

namespace clusterdesk::cli {

int exitCodeOf(const std::function<int()>& body)
{
    try {
        return body();
    } catch (const UsageError& e) {
        std::cerr << "clusterdesk-cli: " << e.what() << '\n';
        return kExitUsage;
    } catch (const DataError& e) {
        std::cerr << "clusterdesk-cli: bad input data: " << e.what() << '\n';
        return kExitData;
    } catch (const Cancelled& e) {
        std::cerr << "clusterdesk-cli: " << e.what() << '\n';  // every message says it was cancelled
        return kExitCancelled;
    } catch (const OutputError& e) {
        std::cerr << "clusterdesk-cli: " << e.what() << '\n';
        return kExitOutput;
    } catch (const store::StoreError& e) {
        std::cerr << "clusterdesk-cli: run store error: " << e.what() << '\n';
        return kExitEngine;
    } catch (const std::bad_alloc&) {
        std::cerr << "clusterdesk-cli: engine error: out of memory\n";
        return kExitEngine;
    } catch (const std::exception& e) {
        std::cerr << "clusterdesk-cli: engine error: " << e.what() << '\n';
        return kExitEngine;
    }
}

}  // namespace clusterdesk::cli
