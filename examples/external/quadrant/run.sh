#!/bin/sh
# Runs E. Kluev's quadrant join, as built by build.sh, for one board size:
# the command of ../quadrant.toml.
#
#   sh quadrant/run.sh N THREADS    its output, with a "Result: COUNT" line
#   sh quadrant/run.sh --version    one line: the source's commit, g++, -march
#
# A config's command runs with no shell and nothing expanded, and the
# binaries live in a cache outside the checkout (one per size and
# -march), so this script finds the one for N and replaces itself with it
# (exec). The start of sh is part of what the comparison times as the
# quadrant join's start-up cost, measured at its smallest n.
# QUADRANT_MARCH and XDG_CACHE_HOME pick the binaries as in build.sh.
# Exit 2, with one line on stderr, for bad arguments or a size not built.
set -eu

me=quadrant/run.sh
# refuse() and $cache, as both scripts have them.
. "$(dirname "$0")/common.sh"
build=$cache/build/${QUADRANT_MARCH:-native}

if [ "$#" -eq 1 ] && [ "$1" = --version ]; then
    # One line if every size was built from the same source by the same
    # compiler; the record keeps only the first line, so say so when not.
    versions=$(cat "$build"/*/version 2>/dev/null | sort -u)
    [ -n "$versions" ] || refuse "nothing built in $build (run sh quadrant/build.sh)"
    if [ "$(echo "$versions" | wc -l)" -eq 1 ]; then
        echo "$versions"
    else
        echo "quadrant join, sizes built from different sources or compilers (see $build/*/version)"
    fi
    exit 0
fi

[ "$#" -eq 2 ] || refuse "usage: sh quadrant/run.sh N THREADS | --version"
case $1 in *[!0-9]* | "") refuse "N '$1' is not a board size" ;; esac
case $2 in *[!0-9]* | "" | 0) refuse "THREADS '$2' is not a thread count" ;; esac
[ -x "$build/$1/nq" ] ||
    refuse "n = $1 is not built in $build (QUADRANT_SIZES=$1 sh quadrant/build.sh)"
exec "$build/$1/nq" "$2"
