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
cp "$here"/*.erl "$here"/lib/*.erl "$work"/
releases=${OTP_BUGS_RELEASES:-25 27 29}
for r in 27 29; do mkdir -p "$(root_of $r)$work" && cp "$work"/*.erl "$(root_of $r)$work"/; done
# A crashing node writes no crash dump (into the working directory, or a root's /).
export ERL_CRASH_DUMP_SECONDS=0

# The header names each release's full version (releases/R/OTP_VERSION of its node).
printf '%-10s' otp
for r in $releases; do
    v=$($(erl_of $r) -noshell -eval 'R = erlang:system_info(otp_release), {ok, V} = file:read_file(filename:join([code:root_dir(), "releases", R, "OTP_VERSION"])), io:format("~s", [string:trim(V)]), halt().')
    printf ' %-8s' "$v"
done
echo
for id in $ids; do
    row=$(printf '%-10s' "$id")
    # A race's reproducer says "%% tries: N": one verdict is present if any of N runs was.
    tries=$(sed -n 's/^%% tries: *\([0-9][0-9]*\).*/\1/p' "$here/$id.erl")
    tries=${tries:-1}
    for r in $releases; do
        seen=""
        i=0
        : >"$work/verdicts"
        while [ $i -lt "$repeat" ]; do
            t=0
            v=""
            while [ $t -lt "$tries" ] && [ "$v" != present ]; do
                out="$work/$id.$r.$i.$t.out"
                timeout -s KILL "$limit" $(erl_of $r) -noshell -eval \
                    "[{module, M} = code:load_binary(M, F, B) || F <- [\"$work/otp_bugs_lib.erl\", \"$work/$id.erl\"], {ok, M, B} <- [compile:file(F, [binary, report])]], $id:run(), halt()." \
                    >"$out" 2>&1
                status=$?
                [ $status -eq 137 ] && status=124   # killed by timeout -s KILL
                v=$(verdict $status "$out")
                case $v in error|timeout) sed "s/^/  $id@$r: /" "$out" >&2 ;; esac
                t=$((t + 1))
            done
            echo "$v" >>"$work/verdicts"
            i=$((i + 1))
        done
        if [ "$repeat" -eq 1 ]; then seen=$(cat "$work/verdicts")
        else seen=$(sort "$work/verdicts" | uniq -c | awk '{ s = s (NR > 1 ? "+" : "") $2 ":" $1 } END { print s }'); fi
        row="$row $(printf '%-8s' "$seen")"
    done
    echo "$row"
done
