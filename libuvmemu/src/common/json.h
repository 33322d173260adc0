/* SPDX-License-Identifier: MIT */
/* json.h - a streaming JSON writer for reports (objects, arrays, scalars). */
#ifndef UVM_JSON_H
#define UVM_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define UVM_JSON_DEPTH 16

struct uvm_json {
	FILE *f;
	int depth;
	bool first[UVM_JSON_DEPTH]; /* no member written yet at this depth */
};

void uvm_json_begin(struct uvm_json *j, FILE *f); /* opens the top-level object */
void uvm_json_end(struct uvm_json *j);		  /* closes it, adds a newline */
/* key may be NULL inside arrays. */
void uvm_json_object(struct uvm_json *j, const char *key);
void uvm_json_array(struct uvm_json *j, const char *key);
void uvm_json_close(struct uvm_json *j, char bracket); /* '}' or ']' */
void uvm_json_str(struct uvm_json *j, const char *key, const char *value);
void uvm_json_u64(struct uvm_json *j, const char *key, uint64_t value);
void uvm_json_i64(struct uvm_json *j, const char *key, int64_t value);
/* Non-finite numbers are written as null. */
void uvm_json_num(struct uvm_json *j, const char *key, double value);
void uvm_json_bool(struct uvm_json *j, const char *key, bool value);
/* s as a JSON string literal, quotes and escapes included (for writers of their own). */
void uvm_json_put_string(FILE *f, const char *s);

#endif
