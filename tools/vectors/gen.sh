#!/bin/sh
# Build the APFloat vector generator and regenerate test/vectors/*.json.
# Needs LLVM 22 (Debian: apt-get install -y llvm-22-dev). CI does not: the vectors are committed.
set -eu
cd "$(dirname "$0")/../.."
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config-22}
if ! command -v "$LLVM_CONFIG" >/dev/null 2>&1; then LLVM_CONFIG=/usr/lib/llvm-22/bin/llvm-config; fi
BIN=$(mktemp -d)/gen
c++ -std=c++17 -O2 $("$LLVM_CONFIG" --cxxflags) tools/vectors/gen.cpp \
  -o "$BIN" $("$LLVM_CONFIG" --ldflags) -lLLVM-22 -Wl,-rpath,"$("$LLVM_CONFIG" --libdir)"
mkdir -p test/vectors
"$BIN" test/vectors
ls -l test/vectors
