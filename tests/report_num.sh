# tests/report_num.sh - sourced by script tests that read numbers from a
# run's JSON report (`uvmemu run --report FILE`, one key per line):
#
#   num KEY FILE   the number after the first "KEY": in FILE (empty if none)
# shellcheck shell=bash

num() {
	sed -n "s/^ *\"$1\": \([0-9.e+-]*\),\{0,1\}$/\1/p" "$2" | head -n 1
}
