# What build.sh and run.sh share, sourced by both after they set $me:
# refuse (one line on stderr naming the script, exit 2) and $cache, the
# folder outside the checkout that holds the sources and the binaries.

refuse() {
    echo "$me: $*" >&2
    exit 2
}

if [ -n "${XDG_CACHE_HOME:-}" ]; then
    cache=$XDG_CACHE_HOME/queens/quadrant
elif [ -n "${HOME:-}" ]; then
    cache=$HOME/.cache/queens/quadrant
else
    refuse "neither XDG_CACHE_HOME nor HOME is set"
fi
