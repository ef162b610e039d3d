#!/bin/sh
# Builds E. Kluev's quadrant join (github.com/EvgenyKluev/N-Queens-Count-Sol)
# from its own sources, one binary per board size, in a cache outside this
# checkout: the build step of ../quadrant.toml. Nothing of it is copied into
# this repository.
#
#   sh quadrant/build.sh                         sizes 14 to 20
#   QUADRANT_SIZES="14 15 16" sh quadrant/build.sh
#
# Its board size and tuning are compile-time constants in solcounter.h, so
# each size gets its own copy of the headers and main.cpp, with solcounter.h
# set to that size and to its row of the table of parameters written in
# solcounter.h (sizes below 16 take the row of 16), and the prefetch and
# BMI2 headers switched on. A size already built is skipped: remove its
# folder to build it again (after changing the sources, say).
#
# Environment:
#   QUADRANT_SRC    a checkout of the repository; default: a clone made on
#                   first use in $CACHE/src (needs git and the network)
#   QUADRANT_SIZES  the sizes, 14 to 22, separated by spaces (default 14..20)
#   QUADRANT_MARCH  g++'s -march (default native); x86-64-v3 gives AVX2 and
#                   BMI2 but no AVX-512, to compare with half-join's AVX2
#                   kernel (QUEENS_KERNEL=avx2)
#   XDG_CACHE_HOME  CACHE is ${XDG_CACHE_HOME:-$HOME/.cache}/queens/quadrant
#
# Binaries: $CACHE/build/MARCH/N/nq (run.sh runs them), each with a line
# in $CACHE/build/MARCH/N/version naming the source's commit and the
# compiler. Exit 2, with one line on stderr, if a tool or the sources are
# missing, a size is out of range, or solcounter.h no longer has the
# settings this script edits; 1 if g++ fails.
set -eu

me=quadrant/build.sh
# refuse() and $cache, as both scripts have them.
. "$(dirname "$0")/common.sh"
march=${QUADRANT_MARCH:-native}
case $march in
    *[!A-Za-z0-9._-]* | "") refuse "QUADRANT_MARCH '$march' is not a -march value" ;;
esac
sizes=${QUADRANT_SIZES:-14 15 16 17 18 19 20}
for n in $sizes; do
    case $n in
        1[4-9] | 2[0-2]) ;;
        *) refuse "QUADRANT_SIZES: '$n' is not a size from 14 to 22" ;;
    esac
done
command -v g++ >/dev/null 2>&1 || refuse "g++ is needed to build the quadrant join (apt-get install g++)"

if [ -n "${QUADRANT_SRC:-}" ]; then
    src=$QUADRANT_SRC
    [ -f "$src/solcounter.h" ] || refuse "QUADRANT_SRC: $src has no solcounter.h"
else
    src=$cache/src
    if [ ! -f "$src/solcounter.h" ]; then
        command -v git >/dev/null 2>&1 || refuse "git is needed to fetch the quadrant join (or set QUADRANT_SRC to a checkout)"
        # A clone cut short earlier would make git refuse the folder.
        rm -rf "$src"
        mkdir -p "$cache"
        git clone --quiet https://github.com/EvgenyKluev/N-Queens-Count-Sol "$src" ||
            refuse "cannot clone the quadrant join (set QUADRANT_SRC to a checkout)"
    fi
fi
commit=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null || echo "an unknown commit")
compiler=$(g++ --version | head -n 1)

# The row of the table in solcounter.h for size $1: .sieveCuts,
# .matchMinSize, .bmiIntrin, .prefetch (its '*' taken as true) and the
# symmetry of the quarters' Subsquare.
params() {
    case $1 in
        19) set -- 0 40 true true QNoSymmetry ;;
        20) set -- 3 60 true true QNoSymmetry ;;
        21) set -- 3 60 true false QNoSymmetry ;;
        22) set -- 6 80 true true QRowSymmetry ;;
        *) set -- 0 40 false true QNoSymmetry ;;
    esac
    sieve=$1 match=$2 bmi=$3 prefetch=$4 symmetry=$5
}

# Fails unless file $1 has a line matching the basic regular expression $2.
has() {
    grep -q -e "$2" "$1"
}

for n in $sizes; do
    dir=$cache/build/$march/$n
    if [ -x "$dir/nq" ]; then
        echo "n = $n: built already, $dir/nq"
        continue
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$src"/*.h "$src/main.cpp" "$dir/"

    params "$n"
    # Each expression replaces the first match on a line, as its author's
    # instructions set them by hand; the checks below refuse a file whose
    # settings have moved or been renamed, rather than build the wrong size.
    sed -e "s/^\(inline constexpr int size = \)[0-9]*;/\1$n;/" \
        -e "s/\(\.sieveCuts = \)[0-9]*,/\1$sieve,/" \
        -e "s/\(\.matchMinSize = \)[0-9]*,/\1$match,/" \
        -e "s/\(\.bmiIntrin = \)[a-z]*,/\1$bmi,/" \
        -e "s/\(\.prefetch = \)[a-z]*,/\1$prefetch,/" \
        -e "s/\(Subsquare<size \/ 2, \)[A-Za-z]*\(, PackIter>\)/\1$symmetry\2/" \
        "$src/solcounter.h" >"$dir/solcounter.h"
    sed -e 's|^//\(#include "prefetchx86.h"\)|\1|' "$src/prefetch.h" >"$dir/prefetch.h"
    sed -e 's|^//\(#include "bmi2.h"\)|\1|' "$src/bmintrin.h" >"$dir/bmintrin.h"
    for setting in "^inline constexpr int size = $n;" "\.sieveCuts = $sieve," \
        "\.matchMinSize = $match," "\.bmiIntrin = $bmi," "\.prefetch = $prefetch," \
        "Subsquare<size / 2, $symmetry, PackIter>"; do
        has "$dir/solcounter.h" "$setting" ||
            refuse "$src/solcounter.h no longer has the expected settings ('$setting' could not be set)"
    done
    has "$dir/prefetch.h" '^#include "prefetchx86.h"' ||
        refuse "$src/prefetch.h no longer has the prefetchx86.h include to switch on"
    has "$dir/bmintrin.h" '^#include "bmi2.h"' ||
        refuse "$src/bmintrin.h no longer has the bmi2.h include to switch on"

    echo "n = $n: building with g++ -std=c++20 -O3 -march=$march"
    (cd "$dir" && g++ -std=c++20 -O3 "-march=$march" main.cpp -o nq) || {
        echo "$me: g++ failed for n = $n (in $dir)" >&2
        exit 1
    }
    echo "quadrant join $commit, $compiler, -O3 -march=$march" >"$dir/version"
    echo "n = $n: built $dir/nq"
done
