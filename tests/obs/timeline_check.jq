# timeline_check.jq - checks a timeline.json against the Chrome trace-event
# format's rules that viewers rely on, and prints one line per problem
# (nothing when it is sound). Used by tests/obs/timeline.sh:
#   jq -r -f timeline_check.jq timeline.json
#
# - the object form: a traceEvents array;
# - every event has ph, ts, pid and tid; a complete event (X) has dur >= 0;
# - on each track (pid, tid) complete events nest: one that starts inside
#   another ends inside it too;
# - async events (b/e) pair up per (pid, cat, id) and do not overlap.
# Times are compared in integer nanoseconds (ts and dur are microseconds with
# three decimals), so that rounding cannot fake an overlap.

def ns: . * 1000 | round;

def nesting_problems:
  # . is one track's complete events, sorted by start, longest first
  reduce .[] as $e ({stack: [], bad: []};
    ($e.ts | ns) as $s | ($s + (($e.dur // 0) | ns)) as $fin
    | .stack |= (map(select(.end > $s)))
    | if (.stack | length) > 0 and $fin > .stack[-1].end
      then .bad += ["pid \($e.pid) tid \($e.tid): '\($e.name)' at \($e.ts) us overlaps '\(.stack[-1].name)' partly"]
      else . end
    | .stack += [{end: $fin, name: $e.name}])
  | .bad[];

if (type != "object") or ((.traceEvents | type) != "array") then
  "not a trace-event object with a traceEvents array"
else
  .traceEvents as $ev
  | ($ev[] | select((has("ph") and has("ts") and has("pid") and has("tid")) | not)
     | "an event without ph, ts, pid or tid: \(tojson)"),
    ($ev[] | select(.ph == "X" and ((.dur | type) != "number" or .dur < 0))
     | "a complete event without a duration: \(tojson)"),
    ($ev[] | select((.ts | type) != "number") | "a ts that is not a number: \(tojson)"),
    ($ev | map(select(.ph == "X")) | group_by([.pid, .tid])[]
     | sort_by([(.ts | ns), -((.dur // 0) | ns)]) | nesting_problems),
    ($ev | map(select(.ph == "b" or .ph == "e")) | group_by([.pid, .cat, .id])[]
     | sort_by([(.ts | ns), (if .ph == "e" then 0 else 1 end)])
     | reduce .[] as $e ({open: 0, bad: []};
         if $e.ph == "b" then (if .open > 0 then .bad += ["async '\($e.name)' begins at \($e.ts) us inside another"] else . end) | .open += 1
         else (if .open == 0 then .bad += ["async '\($e.name)' ends at \($e.ts) us without a begin"] else . end) | .open -= 1 end)
     | .bad[], (if .open != 0 then "async events left open" else empty end))
end
