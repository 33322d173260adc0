/* SPDX-License-Identifier: MIT */
/* units.h - parsing and printing of sizes, bandwidths and durations. */
#ifndef UVM_UNITS_H
#define UVM_UNITS_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

/* Each parser consumes the whole string and returns 0, or -EINVAL (malformed)
 * or -ERANGE (too large); on error *out is left alone. */

/* "4096", "64K", "512M", "1.5G", "2T" (binary multiples; "KB"/"KiB" accepted). */
int uvm_parse_size(const char *s, uint64_t *out);
/* Bytes per second: "16G", "16GB/s", "900M" (decimal multiples). */
int uvm_parse_bandwidth(const char *s, double *out);
/* Nanoseconds: "45us", "1.5ms", "0", "2s", "100ns"; a bare number is microseconds. */
int uvm_parse_duration(const char *s, int64_t *out_ns);
int uvm_parse_double(const char *s, double *out);
int uvm_parse_int(const char *s, long long *out);

/* Human-readable forms, written into buf (always NUL-terminated). */
const char *uvm_fmt_size(char *buf, size_t len, uint64_t bytes);
const char *uvm_fmt_duration(char *buf, size_t len, double seconds);
const char *uvm_fmt_bandwidth(char *buf, size_t len, double bytes_per_s);

#endif
