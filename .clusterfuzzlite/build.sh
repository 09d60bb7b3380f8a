#!/bin/bash -eu
# ClusterFuzzLite entry: the repository's OSS-Fuzz build script.
FONTVM_SRC=$SRC/fontvm exec "$SRC/fontvm/fuzz/build.sh"
