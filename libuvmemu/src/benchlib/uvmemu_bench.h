/* SPDX-License-Identifier: MIT */
/*
 * uvmemu_bench.h - the library's insides that the benchmarks in bench/
 * measure, and nothing more: an emulator instance of their own (emu.h), the
 * userfaultfd calls whose floor bench-floor measures (uffd.h), the machine's
 * map-touch probe (map_touch.h), and the shared helpers (configuration,
 * units, medians, clocks, counters). A benchmark includes this header only,
 * and links the uvmemu_bench target; tests/structure checks that.
 */
#ifndef UVMEMU_BENCH_H
#define UVMEMU_BENCH_H

#include "config.h"
#include "emu.h"
#include "map_touch.h"
#include "median.h"
#include "session.h"
#include "space.h"
#include "stats.h"
#include "timing.h"
#include "uffd.h"
#include "units.h"

#endif
