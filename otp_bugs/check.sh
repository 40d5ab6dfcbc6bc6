#!/bin/sh
# Runs every reproducer otp_bugs/<id>.erl on OTP 25 (the host's erl), 27 and 29 (Debian roots
# under ${TCS_OTP_CACHE:-/var/cache/tcs}, see driver/tcs_driver/provision.py), each in its own
# node with a timeout, and prints one row per bug: its result on each release.
#   present         the reproducer saw the bug, or the node died of a signal (crash bugs);
#                   a race's reproducer ("%% tries: N" in its file) runs up to N times, and
#                   is present as soon as one run is
#   absent          the reproducer ran and saw correct behaviour
#   n/a             the reproducer says the release lacks what the bug needs
#   timeout, error  the node hung, or ended without a verdict (its output is on stderr)
# Usage: otp_bugs/check.sh [-n REPEAT] [ID...]   (default: every reproducer, once)
set -u
here=$(cd "$(dirname "$0")" && pwd)
cache=${TCS_OTP_CACHE:-/var/cache/tcs}
limit=${OTP_BUGS_TIMEOUT:-20}
repeat=1
if [ "${1:-}" = "-n" ]; then repeat=$2; shift 2; fi
if [ $# -gt 0 ]; then ids="$*"; else ids=$(cd "$here" && ls *.erl | sed 's/\.erl$//'); fi

# The command that starts a node of a release, and the root its files must be copied into.
erl_of() { case $1 in 25) echo erl ;; 27) echo "chroot $cache/otp-trixie erl" ;; 29) echo "chroot $cache/otp-sid erl" ;; esac; }
root_of() { case $1 in 25) echo "" ;; 27) echo "$cache/otp-trixie" ;; 29) echo "$cache/otp-sid" ;; esac; }

# One verdict for one run: the reproducer's line, or what the node's end says.
verdict() {  # $1 exit status, $2 output file
    line=$(grep -E '^(present|absent|not_applicable)' "$2" | tail -n 1)
    case $line in
        present|absent) echo "$line"; return ;;
        not_applicable*) echo "n/a"; return ;;
    esac
    if [ "$1" -eq 124 ]; then echo timeout
    elif [ "$1" -ge 128 ]; then echo present
    else echo error; fi
}

work=$(mktemp -d /tmp/otp-bugs.XXXXXX)
trap 'rm -rf "$work"; for r in 27 29; do rm -rf "$(root_of $r)$work"; done' EXIT
# Compiled once, by the host's OTP 25: its BEAM files load on 27 and 29 as well.
erlc -o "$work" "$here"/lib/*.erl "$here"/*.erl || exit 2
releases=${OTP_BUGS_RELEASES:-25 27 29}
for r in 27 29; do mkdir -p "$(root_of $r)$work" && cp "$work"/*.beam "$(root_of $r)$work"/; done
# A crashing node writes no crash dump (into the working directory, or a root's /).
export ERL_CRASH_DUMP_SECONDS=0

# One run of a reproducer on a release: its verdict (a race's up to N tries, see above).
verdict_of() {  # $1 id, $2 release, $3 run number, $4 tries
    t=0
    v=""
    while [ $t -lt "$4" ] && [ "$v" != present ]; do
        out="$work/$1.$2.$3.$t.out"
        timeout -s KILL "$limit" $(erl_of $2) -noshell -pa "$work" -eval "$1:run(), halt()." >"$out" 2>&1
        status=$?
        [ $status -eq 137 ] && status=124   # killed by timeout -s KILL
        v=$(verdict $status "$out")
        case $v in error|timeout) sed "s/^/  $1@$2: /" "$out" >&2 ;; esac
        t=$((t + 1))
    done
    echo "$v"
}

# A release's column: its full version (releases/R/OTP_VERSION of its node), then one
# cell per reproducer: the verdict, or with -n the count of each verdict.
column() {  # $1 release
    $(erl_of $1) -noshell -eval 'R = erlang:system_info(otp_release), {ok, V} = file:read_file(filename:join([code:root_dir(), "releases", R, "OTP_VERSION"])), io:format("~s~n", [string:trim(V)]), halt().'
    for id in $ids; do
        # A race's reproducer says "%% tries: N": one verdict is present if any of N runs was.
        tries=$(sed -n 's/^%% tries: *\([0-9][0-9]*\).*/\1/p' "$here/$id.erl")
        i=0
        while [ $i -lt "$repeat" ]; do
            verdict_of "$id" "$1" "$i" "${tries:-1}"
            i=$((i + 1))
        done | sort | uniq -c | awk -v n="$repeat" '{ s = s (NR > 1 ? "+" : "") $2 (n > 1 ? ":" $1 : "") } END { print s }'
    done
}

# One release after another: a race's reproducer run beside the other releases' nodes
# loses its race far more often (pr8286 on 25.2.3: absent in 3 of 3 tries side by side).
for r in $releases; do column "$r" >"$work/column.$r"; done
{ echo otp; for id in $ids; do echo "$id"; done; } >"$work/column.bug"
paste -d ' ' "$work/column.bug" $(for r in $releases; do echo "$work/column.$r"; done) |
    awk '{ printf "%-10s", $1; for (i = 2; i <= NF; i++) printf " %-8s", $i; print "" }'
