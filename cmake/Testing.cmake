# One test executable per source file under test, registered with CTest. Tests run with
# the offscreen platform and a fixed DPI so they behave the same everywhere, and with a
# run store (and its chain key) inside the build directory, never the user's.
#   clusterdesk_add_test(NAME SOURCES ... [LIBS ...] [LABELS ...] [TIMEOUT s])    Qt Test
#   clusterdesk_add_doctest(NAME SOURCES ... [LIBS ...] [LABELS ...] [TIMEOUT s]) doctest, no Qt

# The executable's build settings and its CTest registration, shared by both kinds.
function(clusterdesk_register_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS})
  target_compile_definitions(${name} PRIVATE CLUSTERDESK_BIN_DIR="${CMAKE_BINARY_DIR}/bin"
                                             CLUSTERDESK_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  if(CLUSTERDESK_TEST_HOOKS)
    target_compile_definitions(${name} PRIVATE CLUSTERDESK_TEST_HOOKS)  # tests/test_hooks_guard.h
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QT_FONT_DPI=96;OMP_NUM_THREADS=2;XDG_DATA_HOME=${CMAKE_BINARY_DIR}/test-home/share;CLUSTERDESK_DB=${CMAKE_BINARY_DIR}/test-home/runs.sqlite;CLUSTERDESK_CHAIN_KEY=${CMAKE_BINARY_DIR}/test-home/chain.key"
    LABELS "${ARG_LABELS}")
  if(ARG_TIMEOUT)
    set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT})
  endif()
endfunction()

function(clusterdesk_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES AUTOMOC ON)
  target_link_libraries(${name} PRIVATE Qt6::Test)
  clusterdesk_register_test(${name} ${ARGN})
endfunction()

# tests/doctest_main.cpp is doctest's main, compiled once for every suite.
function(clusterdesk_add_doctest name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(NOT TARGET clusterdesk_doctest_main)
    add_library(clusterdesk_doctest_main STATIC ${CMAKE_SOURCE_DIR}/tests/doctest_main.cpp)
    target_link_libraries(clusterdesk_doctest_main PUBLIC doctest::doctest)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE clusterdesk_doctest_main)
  clusterdesk_register_test(${name} ${ARGN})
endfunction()
