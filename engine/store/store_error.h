// What the run store throws when the database cannot be opened, read or written.
#pragma once

#include "engine/core/error.h"

namespace clusterdesk::store {

// what() names the database file and the operation: "runs.sqlite: insert run: disk I/O error".
class StoreError : public Error {
public:
    using Error::Error;
};

// finishRun refused a result that holds NaN or infinity: what() names the run and the
// value. The caller records the run as failed with this reason instead.
class NonFiniteResult : public StoreError {
public:
    using StoreError::StoreError;
};

// A store opened read-only whose schema must be migrated before it can be read (or one
// still being created by another process): what() says what to do.
class SchemaNeedsMigration : public StoreError {
public:
    using StoreError::StoreError;
};

}  // namespace clusterdesk::store
