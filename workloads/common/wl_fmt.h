/* SPDX-License-Identifier: MIT */
/* wl_fmt.h - number formatting for --output (wl.h's format). */
#ifndef WL_FMT_H
#define WL_FMT_H

#include <stdint.h>

/* Room for any value's text below and its NUL ("-1.7976931348623157e+308"). */
#define WL_FMT_MAX 32

/* Each writes v into buf as snprintf would with the format named, byte
 * for byte, and returns the length; the integers' and the float's are
 * several times faster than printf. */
int wl_fmt_u64(char *buf, uint64_t v); /* "%" PRIu64 */
int wl_fmt_i64(char *buf, int64_t v);  /* "%" PRId64 */
int wl_fmt_f32(char *buf, float v);    /* "%.9g" */
int wl_fmt_f64(char *buf, double v);   /* "%.17g" */

#endif
