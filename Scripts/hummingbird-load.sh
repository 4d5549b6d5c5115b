#!/usr/bin/env bash
# The FrostHummingbird load measurement (issue 28): the same Hummingbird server wired three ways
# (Scripts/HummingbirdLoad: `hand`, plain Frost with `withChild` in the handler, and
# RequestContainerMiddleware), each under wrk on loopback, interleaved, in release mode.
#
#   Scripts/hummingbird-load.sh [ROUNDS] [SECONDS]     (default 3 rounds of 10 s per server)
#
# For each server and round it reports the process's CPU time per request (utime + stime from
# /proc/PID/stat, over the wrk run only, divided by the requests the server handled), and once
# per server, in a separate shorter run under `strace -f -c -e trace=write,writev`, the write
# and writev calls per request. Each server checks that every request's unit of work was rolled
# back (served == disposed). Linux only; needs wrk and strace (apt-get install wrk strace).
# Every server listens on 127.0.0.1 only and exits by itself after its time.
set -euo pipefail
cd "$(dirname "$0")/HummingbirdLoad"
rounds=${1:-3}
seconds=${2:-10}
port=18080
modes=(hand frost middleware)

nice -n 10 swift build -c release -Xswiftc -warnings-as-errors >/dev/null
binary=.build/release/hummingbird-load
ticks=$(getconf CLK_TCK)

cpu_ticks() {  # utime + stime of process $1, in clock ticks
    awk '{ print $14 + $15 }' "/proc/$1/stat"
}
served() {  # requests handled so far by the server on $1, and children/units disposed
    exec 3<>"/dev/tcp/127.0.0.1/$1"
    printf 'GET /stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
    tail -1 <&3
    exec 3<&-
}
start_server() {  # mode, lifetime in seconds; sets $pid
    "$binary" "$1" "$port" "$2" >/dev/null &
    pid=$!
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
        sleep 0.05
    done
    echo "the $1 server did not start"; exit 1
}
stop_server() {
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
url="http://127.0.0.1:$port/todos?user=7"

declare -A cpu_total requests_total
for mode in "${modes[@]}"; do cpu_total[$mode]=0; requests_total[$mode]=0; done
for round in $(seq "$rounds"); do
    for mode in "${modes[@]}"; do
        start_server "$mode" $((seconds + 20))
        wrk -t1 -c16 -d2s "$url" >/dev/null  # warm-up
        before_cpu=$(cpu_ticks "$pid")
        read -r _ before_served _ before_disposed < <(served "$port")
        wrk -t1 -c16 -d"${seconds}s" "$url" >/dev/null
        after_cpu=$(cpu_ticks "$pid")
        read -r _ after_served _ after_disposed < <(served "$port")
        stop_server
        requests=$((after_served - before_served))
        cpu=$((after_cpu - before_cpu))
        cpu_total[$mode]=$((cpu_total[$mode] + cpu))
        requests_total[$mode]=$((requests_total[$mode] + requests))
        awk -v m="$mode" -v r="$round" -v c="$cpu" -v n="$requests" -v t="$ticks" \
            -v s="$after_served" -v d="$after_disposed" -v secs="$seconds" 'BEGIN {
            printf "round %d %-10s %8d requests (%6.0f/s)  %7.2f us CPU/request  served %d disposed %d%s\n",
                r, m, n, n / secs, c / t * 1e6 / n, s, d, (s == d ? "" : "  MISMATCH") }'
    done
done

echo "all rounds:"
for mode in "${modes[@]}"; do
    awk -v m="$mode" -v c="${cpu_total[$mode]}" -v n="${requests_total[$mode]}" -v t="$ticks" \
        'BEGIN { printf "  %-10s %7.2f us CPU/request\n", m, c / t * 1e6 / n }'
done
awk -v h="${cpu_total[hand]}" -v hn="${requests_total[hand]}" \
    -v f="${cpu_total[frost]}" -v fn="${requests_total[frost]}" \
    -v w="${cpu_total[middleware]}" -v wn="${requests_total[middleware]}" 'BEGIN {
    printf "  frost / hand:       %.3fx\n", (f / fn) / (h / hn)
    printf "  middleware / hand:  %.3fx\n", (w / wn) / (h / hn)
    printf "  middleware / frost: %.3fx\n", (w / wn) / (f / fn) }'

echo "write and writev calls per request (strace -f -c, 3 s of wrk):"
for mode in "${modes[@]}"; do
    start_server "$mode" 30
    wrk -t1 -c16 -d1s "$url" >/dev/null
    trace=$(mktemp)
    strace -f -c -e trace=write,writev -o "$trace" -p "$pid" 2>/dev/null &
    tracer=$!
    sleep 1
    read -r _ before_served _ _ < <(served "$port")
    wrk -t1 -c16 -d3s "$url" >/dev/null
    read -r _ after_served _ _ < <(served "$port")
    kill -INT "$tracer"; wait "$tracer" 2>/dev/null || true
    stop_server
    requests=$((after_served - before_served))
    awk -v m="$mode" -v n="$requests" '
        $NF == "write" { w = $4 } $NF == "writev" { v = $4 }
        END { printf "  %-10s %d requests: %.2f write, %.2f writev per request\n", m, n, w / n, v / n }' \
        "$trace"
    rm -f "$trace"
done
