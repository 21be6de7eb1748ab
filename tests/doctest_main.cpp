// doctest's main for every engine and kernel suite (cmake/Testing.cmake).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
