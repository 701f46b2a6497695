#!/bin/bash
# Instructions per operation of one micro case of the `tricks` section, counted by callgrind
# (repeatable on a loaded machine, unlike a clock). Run from the package root after
# `npm run bench -- tricks --help` (which compiles build/bench):
#   bench/callgrindOps.sh CASE VARIANT N [--with=DIR]
# e.g. bench/callgrindOps.sh router404 tryMatch 20000
# It runs N, then 2N operations, each in a fresh `node --predictable --single-threaded` under
# `valgrind --tool=callgrind`, and prints (I(2N) - I(N)) / N: start-up and loading cancel out.
set -euo pipefail
case=$1; variant=$2; n=$3; shift 3
count() {
  valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file=/dev/null \
    node --predictable --single-threaded build/bench/run.js tricks "--cases=$case" "--variant=$variant" "--ops=$1" "${@:2}" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
a=$(count "$n" "$@")
b=$(count $((2 * n)) "$@")
echo "$case $variant: $(( (b - a) / n )) instructions/op (I($n)=$a, I($((2 * n)))=$b)"
