# bench/sweep.d/row.jq - one CSV row of a sweep's merged results.
#
# Input: nothing (jq -n). Arguments:
#   $p       the run's parameters, as bench/sweep wrote them (JSON object)
#   $status  pass | verify-fail | verify-none | exit-N | timeout | no-report
#   $rc      the run's exit status, or "" when it never finished
#   $r       [report] from --slurpfile, or [] when there is no readable report
# The columns are listed once, in header() and in row(), in the same order.
# clock is the run's clock (model, real; "real" for reports from before the
# model clock); gpu_s, the region of interest in modelled time, and the gpu_*
# columns (the modelled batches: what the GPU's fault buffer held) exist
# only under the model clock; wall_s and roi_s are the host's time (under
# the model clock, the emulator's cost).

def counters: ["gpu_faults", "cpu_faults", "batches", "duplicate_faults",
  "vablocks_serviced", "bytes_h2d", "bytes_d2h", "blocks_h2d", "blocks_d2h",
  "blocks_prefetched", "blocks_evicted", "thrashed_blocks", "remote_bytes",
  "blocks_remote", "model_overruns", "peak_device_bytes"];
def stages: ["fetch", "preprocess", "service", "unmap", "copy", "map",
  "replay", "tracker_wait"];

def header:
  ["run", "workload", "oversub", "link", "policy", "args", "uvmemu", "config", "repeat",
   "status", "exit_code", "verify", "clock", "gpu_s", "gpu_batches", "gpu_faults_per_batch",
   "gpu_vablocks_per_batch", "gpu_faults_per_vablock", "wall_s", "roi_s", "footprint_bytes",
   "device_mem_bytes", "kernels"]
  + counters + (stages | map(. + "_s")) + ["report"];

def row:
  ($r[0] // {}) as $rep
  | [$p.run, $p.workload, $p.oversub, $p.link, $p.policy, $p.args, $p.uvmemu,
     ($p.config // "none"), $p.repeat, $status, $rc, ($rep.verify // ""),
     (if $rep == {} then "" else $rep.clock // "real" end), ($rep.gpu_s // ""),
     ($rep.gpu.batches // ""), ($rep.gpu.faults_per_batch // ""),
     ($rep.gpu.vablocks_per_batch // ""), ($rep.gpu.faults_per_vablock // ""), ($rep.wall_s // ""),
     ($rep.roi_s // ""), ($rep.footprint_bytes // ""),
     ($rep.device_mem_bytes // ""), ($rep.kernels // "")]
  + (counters | map(. as $k | $rep[$k] // ""))
  + (stages | map(. as $k | ($rep.time_s // {})[$k] // ""))
  + [(if $r == [] then "" else $p.report end)];
