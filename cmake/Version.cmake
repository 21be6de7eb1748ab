# The engine version and the git commit it was built from, recorded with every run.
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_VARIABLE CLUSTERDESK_GIT_COMMIT
                OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET)
if(NOT CLUSTERDESK_GIT_COMMIT)
  set(CLUSTERDESK_GIT_COMMIT "unknown")
endif()
configure_file(${CMAKE_SOURCE_DIR}/engine/core/version.h.in ${CMAKE_BINARY_DIR}/generated/clusterdesk/version.h @ONLY)
