// SPDX-License-Identifier: MIT
/*
 * median.h - the median of repeated measurements, the figure every probe,
 * calibration and benchmark of this project reports (with its range), so
 * that one slow or lucky repetition does not set it.
 */
#ifndef UVMEMU_MEDIAN_H
#define UVMEMU_MEDIAN_H

#include <stddef.h>

/*
 * Sorts v[0..n) in place (ascending, so v[0] and v[n-1] are the range) and
 * returns its median: the middle value, or the mean of the middle two when n
 * is even. n must be at least 1.
 */
double uvm_median(double *v, size_t n);

#endif
