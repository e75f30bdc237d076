# Stands in for a bundled Google benchmark that a Debian orig tarball ships empty
# (leveldb's third_party/benchmark): headers from Debian's libbenchmark-dev.
add_library(benchmark INTERFACE)
add_library(benchmark_main INTERFACE)
