# Stands in for a bundled googletest that a Debian orig tarball ships empty
# (leveldb's third_party/googletest). The clang oracle only compiles each unit to
# IR, never links, so the targets need no sources: the headers come from Debian's
# libgtest-dev and libgmock-dev in /usr/include.
add_library(gtest INTERFACE)
add_library(gmock INTERFACE)
add_library(gtest_main INTERFACE)
add_library(gmock_main INTERFACE)
