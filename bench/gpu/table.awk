# table.awk - bench/gpu/validate's table (table.md) from its results.tsv
# files: per program and configuration, the GPU's and the emulator's times
# and their ratios to (a), the geometric means of those ratios over the
# programs, and the traffic: bytes moved, GPU fault groups against the
# emulator's batches, CPU faults. Variables: gpu_state, emu_state, machine,
# programs (comma-separated, in table order).
#
# Rows: side gpu (with CUPTI's counters), gpu-time (without: the table's GPU
# times when it ran), emu; a row that did not pass shows its status.

BEGIN {
	FS = "\t"
	nm = split("explicit managed prefetch advise", M, " ")
	np = split(programs, P, ",")
}
FNR == 1 { next }
{
	s = $1 == "gpu" ? "g" : $1 == "gpu-time" ? "t" : "e"
	k = $2 SUBSEP $3
	# A later row of the same run (a rerun into the same directory) replaces it.
	status[s, k] = $4
	if ($4 != "pass") {
		delete ok[s, k]
		next
	}
	ok[s, k] = 1
	roi[s, k] = $6; ks[s, k] = $7
	h2d[s, k] = $9 + $11; d2h[s, k] = $10 + $12
	gf[s, k] = $13; fg[s, k] = $14; b[s, k] = $15; cf[s, k] = $17
	if ($18 != "")
		dil = $18
}

function seen(k) { return (("g", k) in status) || (("t", k) in status) || (("e", k) in status) }
# Where the GPU's time of k comes from: the run without CUPTI, else the one with.
function gside(k) { return (("t", k) in ok) ? "t" : (("g", k) in ok) ? "g" : "" }
function time_of(s, k,    g) {
	if (s == "e")
		return (("e", k) in ok) ? roi["e", k] : ""
	g = gside(k)
	return g == "" ? "" : roi[g, k]
}
function ratio(s, p, m,    a, x) {
	a = time_of(s, p SUBSEP "explicit"); x = time_of(s, p SUBSEP m)
	return (a == "" || x == "" || a <= 0) ? "" : x / a
}
# What a cell shows for side s when the value is missing: the run's status;
# the GPU's time says why its run without CUPTI is missing first.
function why(s, k) { return ((s, k) in status) ? status[s, k] : "absent" }
function gwhy(k) { return (("t", k) in status) ? status["t", k] : why("g", k) }
# A cell of the emulator's run k, or of the GPU's run with CUPTI's counters.
function ecell(k, v) { return (("e", k) in ok) ? v : why("e", k) }
function gcell(k, v) { return !(("g", k) in ok) ? why("g", k) : fg["g", k] == "" ? "no CUPTI" : v }
# Empty: the report had no such figure; negative: the GPU could not time it.
function ms(x) { return x == "" || x < 0 ? "-" : sprintf("%.1f", x * 1000) }
function mib(x) { return x == "" ? "-" : sprintf("%.1f", x / 1048576) }
function fmt(x) { return x == "" ? "-" : sprintf("%.2f", x) }

END {
	printf "## The emulator beside a real GPU\n\n"
	printf "- GPU: %s\n- emulator: %s\n- %s\n\n", gpu_state, emu_state, machine
	printf "Times in ms: the region of interest (the copies or prefetches, the kernels, the "
	printf "results back on the host); GPU kernels by CUDA events; the emulator's on its "
	printf "modelled clock (gpu_s, --clock model), not its host's. Ratios to (a) explicit copies.\n\n"
	# The rows of both tables: each program's configurations that ran.
	for (i = 1; i <= np; i++)
		for (j = 1; j <= nm; j++)
			if (seen(P[i] SUBSEP M[j])) {
				rp[++nr] = P[i]; rm[nr] = M[j]; rl[nr] = substr("abcd", j, 1)
			}
	printf "| program | config | GPU roi | GPU kernels | GPU /(a) | emu roi | emu /(a) | emu/GPU |\n"
	printf "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
	for (r = 1; r <= nr; r++) {
		p = rp[r]; m = rm[r]; k = p SUBSEP m
		g = gside(k)
		rg = ratio("g", p, m); re = ratio("e", p, m)
		printf "| %s | (%s) %s | %s | %s | %s | %s | %s | %s |\n", p, rl[r], m,
		       g == "" ? gwhy(k) : ms(roi[g, k]), g == "" ? "-" : ms(ks[g, k]), fmt(rg),
		       ecell(k, ms(roi["e", k])), fmt(re), (rg == "" || re == "") ? "-" : fmt(re / rg)
		if (m != "explicit") {
			if (rg != "") { sg[m] += log(rg); ng[m]++ }
			if (re != "") { se[m] += log(re); ne[m]++ }
		}
	}
	printf "\nGeometric means of the ratios over the programs (UVMBench, GTX 1080 Ti on PCIe 3: "
	printf "plain managed memory 34.2%% slower than explicit copies on average; with prefetching "
	printf "the geometric-mean slow-down falls from 95.8%% to 0.7%%):\n\n"
	printf "| ratio | GPU | emulator | programs (GPU, emulator) |\n| --- | ---: | ---: | --- |\n"
	for (j = 2; j <= nm; j++) {
		m = M[j]
		printf "| (%s)/(a) %s | %s | %s | %d, %d |\n", substr("abcd", j, 1), m,
		       ng[m] ? fmt(exp(sg[m] / ng[m])) : "-", ne[m] ? fmt(exp(se[m] / ne[m])) : "-",
		       ng[m], ne[m]
	}
	printf "\nTraffic over each whole run (input generation and the check included, on both sides): "
	printf "migrations plus copies in MiB; the GPU's page-fault groups (CUPTI) against the "
	printf "emulator's fault batches (its GPU faults); CPU page faults.\n\n"
	printf "| program | config | GPU h2d | emu h2d | GPU d2h | emu d2h | GPU fault groups | "
	printf "emu batches (GPU faults) | GPU CPU faults | emu CPU faults |\n"
	printf "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
	for (r = 1; r <= nr; r++) {
		k = rp[r] SUBSEP rm[r]
		printf "| %s | (%s) %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", rp[r], rl[r], rm[r],
		       gcell(k, mib(h2d["g", k])), ecell(k, mib(h2d["e", k])),
		       gcell(k, mib(d2h["g", k])), ecell(k, mib(d2h["e", k])),
		       gcell(k, fg["g", k]), ecell(k, b["e", k] " (" gf["e", k] ")"),
		       gcell(k, cf["g", k]), ecell(k, cf["e", k])
	}
	if (dil != "")
		printf "\nEmulator dilation D = %s (--dilation auto against the --gpu preset).\n", dil
}
