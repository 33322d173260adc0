// SPDX-License-Identifier: MIT
/* profile.c - the object profile: building it, its text form (profile.h). */
#include "profile.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "uvmemu-objects"

void uvm_objprof_init(struct uvm_objprof *p)
{
	memset(p, 0, sizeof(*p));
}

void uvm_objprof_free(struct uvm_objprof *p)
{
	free(p->obj);
	free(p->launch);
	free(p->use);
	uvm_objprof_init(p);
}

/* Room for one more element of a growing array. */
static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t c = *cap ? 2 * *cap : 64;
	void *a;

	if (n < *cap)
		return 0;
	a = realloc(*arr, c * elem);
	if (!a)
		return -ENOMEM;
	*arr = a;
	*cap = c;
	return 0;
}

/* A name as one token: spaces would split the record, "" reads as '-'. */
void uvm_objprof_name(char *dst, const char *src)
{
	size_t i = 0;

	for (; src && src[i] && i + 1 < UVM_OBJPROF_NAMELEN; i++)
		dst[i] = src[i] == ' ' || src[i] == '\t' || src[i] == '\n' ? '_' : src[i];
	dst[i] = '\0';
	if (i == 0 || strcmp(dst, "-") == 0)
		dst[0] = '\0';
}

long uvm_objprof_find(const struct uvm_objprof *p, uint32_t id)
{
	for (size_t i = 0; i < p->nobj; i++)
		if (p->obj[i].id == id)
			return (long)i;
	return -1;
}

int uvm_objprof_add_object(struct uvm_objprof *p, uint32_t id, uint64_t bytes, const char *name)
{
	struct uvm_objprof_object *o;

	if (uvm_objprof_find(p, id) >= 0)
		return -EEXIST;
	if (grow((void **)&p->obj, &p->capobj, p->nobj, sizeof(*p->obj)))
		return -ENOMEM;
	o = &p->obj[p->nobj++];
	memset(o, 0, sizeof(*o));
	o->id = id;
	o->bytes = bytes;
	uvm_objprof_name(o->name, name);
	return 0;
}

int uvm_objprof_add_launch(struct uvm_objprof *p, const char *kernel)
{
	struct uvm_objprof_launch *l;

	if (grow((void **)&p->launch, &p->caplaunch, p->nlaunch, sizeof(*p->launch)))
		return -ENOMEM;
	l = &p->launch[p->nlaunch++];
	memset(l, 0, sizeof(*l));
	uvm_objprof_name(l->kernel, kernel);
	return 0;
}

static int add_use(struct uvm_objprof *p, uint64_t launch, uint32_t id, uint64_t touched,
		   uint64_t accesses, struct uvm_objprof_use **out)
{
	long o = uvm_objprof_find(p, id);
	struct uvm_objprof_use *u;

	if (o < 0)
		return -ENOENT;
	if (launch >= p->nlaunch)
		return -ERANGE;
	if (grow((void **)&p->use, &p->capuse, p->nuse, sizeof(*p->use)))
		return -ENOMEM;
	u = &p->use[p->nuse++];
	memset(u, 0, sizeof(*u));
	u->launch = launch;
	u->obj = (uint32_t)o;
	u->touched = touched;
	u->accesses = accesses;
	u->reuse = u->stated_reuse = UVM_OBJPROF_NEVER;
	if (out)
		*out = u;
	return 0;
}

int uvm_objprof_add_use(struct uvm_objprof *p, uint64_t launch, uint32_t id, uint64_t touched,
			uint64_t accesses)
{
	return add_use(p, launch, id, touched, accesses, NULL);
}

static int cmp_use(const void *a, const void *b)
{
	const struct uvm_objprof_use *x = a, *y = b;

	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	return 0;
}

int uvm_objprof_finish(struct uvm_objprof *p, size_t *bad)
{
	uint64_t *next = NULL;
	size_t n = 0;

	/* Object indices follow allocation ids, so that uses sort by id. */
	for (size_t i = 1; i < p->nobj; i++)
		if (p->obj[i - 1].id > p->obj[i].id)
			return -EINVAL;
	if (p->nuse) /* a profile may have launches without uses: use is NULL */
		qsort(p->use, p->nuse, sizeof(*p->use), cmp_use);
	for (size_t i = 0; i < p->nuse; i++) {
		if (n && cmp_use(&p->use[n - 1], &p->use[i]) == 0) {
			p->use[n - 1].touched += p->use[i].touched;
			p->use[n - 1].accesses += p->use[i].accesses;
			continue;
		}
		p->use[n++] = p->use[i];
	}
	p->nuse = n;
	for (size_t l = 0; l < p->nlaunch; l++)
		p->launch[l].first = p->launch[l].n = 0;
	for (size_t i = p->nuse; i-- > 0;) {
		p->launch[p->use[i].launch].first = i;
		p->launch[p->use[i].launch].n++;
	}
	next = malloc((p->nobj ? p->nobj : 1) * sizeof(*next));
	if (!next)
		return -ENOMEM;
	for (size_t o = 0; o < p->nobj; o++) {
		next[o] = UVM_OBJPROF_NEVER;
		p->obj[o].accesses = 0;
	}
	/* Backwards, so each use sees the next launch that uses its object. */
	for (size_t i = p->nuse; i-- > 0;) {
		struct uvm_objprof_use *u = &p->use[i];
		struct uvm_objprof_object *o = &p->obj[u->obj];

		if (u->touched > o->bytes) {
			free(next);
			if (bad)
				*bad = i;
			return -ERANGE;
		}
		u->density = o->bytes ? (double)u->touched / (double)o->bytes : 0;
		u->reuse = next[u->obj] == UVM_OBJPROF_NEVER ? UVM_OBJPROF_NEVER
							     : next[u->obj] - u->launch;
		next[u->obj] = u->launch;
		o->accesses += u->accesses;
	}
	free(next);
	return 0;
}

/* ------------------------------------------------------------ text form */

static const char *name_or_dash(const char *s)
{
	return *s ? s : "-";
}

int uvm_objprof_write(const struct uvm_objprof *p, FILE *f)
{
	fprintf(f,
		"# uvmemu object profile (format: libuvmemu/src/objects/profile.h)\n"
		"%s 1\n"
		"# object ID BYTES NAME\n",
		MAGIC);
	for (size_t o = 0; o < p->nobj; o++)
		fprintf(f, "object %u %llu %s\n", p->obj[o].id, (unsigned long long)p->obj[o].bytes,
			name_or_dash(p->obj[o].name));
	fprintf(f, "# launch INDEX KERNEL, then its uses:\n"
		   "# use LAUNCH OBJECT TOUCHED_BYTES ACCESSES DENSITY REUSE\n");
	for (size_t l = 0; l < p->nlaunch; l++) {
		const struct uvm_objprof_launch *la = &p->launch[l];

		fprintf(f, "launch %zu %s\n", l, name_or_dash(la->kernel));
		for (size_t i = la->first; i < la->first + la->n; i++) {
			const struct uvm_objprof_use *u = &p->use[i];
			char reuse[24] = "-";

			if (u->reuse != UVM_OBJPROF_NEVER)
				snprintf(reuse, sizeof(reuse), "%llu",
					 (unsigned long long)u->reuse);
			fprintf(f, "use %zu %u %llu %llu %.6f %s\n", l, p->obj[u->obj].id,
				(unsigned long long)u->touched, (unsigned long long)u->accesses,
				u->density, reuse);
		}
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}

struct reader {
	const char *path;
	unsigned long line;
	char *err;
	size_t errlen;
};

static int bad(struct reader *r, const char *fmt, ...)
{
	size_t n = (size_t)snprintf(r->err, r->errlen, "%s:%lu: ", r->path, r->line);
	va_list ap;

	if (n < r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err + n, r->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A whole token of decimal digits. */
static bool to_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return true;
}

static bool to_double(const char *s, double *out)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return !*end && !errno && isfinite(*out);
}

/* Splits a line at single spaces; returns the token count (at most max). */
static int split(char *s, char **tok, int max)
{
	int n = 0;

	s[strcspn(s, "\r\n")] = '\0';
	while (*s && n <= max) {
		tok[n++] = s;
		s = strchr(s, ' ');
		if (!s)
			break;
		*s++ = '\0';
	}
	return n;
}

static int read_object(struct reader *r, struct uvm_objprof *p, char **t, int n)
{
	uint64_t id, bytes;

	if (n != 4)
		return bad(r, "'object' takes 3 fields: ID BYTES NAME");
	if (!to_u64(t[1], &id) || id > UINT32_MAX)
		return bad(r, "object id '%s' is not an allocation id (0 to %u)", t[1], UINT32_MAX);
	if (!to_u64(t[2], &bytes) || bytes == 0)
		return bad(r, "object %s: size '%s' is not a positive number of bytes", t[1], t[2]);
	if (p->nobj && p->obj[p->nobj - 1].id >= id)
		return bad(r, "object %s follows object %u: objects are listed by ascending id",
			   t[1], p->obj[p->nobj - 1].id);
	if (p->nlaunch)
		return bad(r, "object %s after the first launch: objects come first", t[1]);
	return uvm_objprof_add_object(p, (uint32_t)id, bytes, t[3]) ? bad(r, "out of memory") : 0;
}

static int read_launch(struct reader *r, struct uvm_objprof *p, char **t, int n)
{
	uint64_t index;

	if (n != 3)
		return bad(r, "'launch' takes 2 fields: INDEX KERNEL");
	if (!to_u64(t[1], &index))
		return bad(r, "launch index '%s' is not a number", t[1]);
	if (index != p->nlaunch)
		return bad(r,
			   "launch %s where launch %zu was due: launches are listed 0, 1, 2, ...",
			   t[1], p->nlaunch);
	return uvm_objprof_add_launch(p, t[2]) ? bad(r, "out of memory") : 0;
}

static int read_use(struct reader *r, struct uvm_objprof *p, char **t, int n)
{
	uint64_t launch, id, touched, accesses, reuse = UVM_OBJPROF_NEVER;
	struct uvm_objprof_use *u;
	double density;
	long o;

	if (n != 7)
		return bad(r, "'use' takes 6 fields: LAUNCH OBJECT TOUCHED_BYTES ACCESSES DENSITY "
			      "REUSE");
	if (!p->nlaunch)
		return bad(r, "a use before the first launch line");
	if (!to_u64(t[1], &launch) || launch != p->nlaunch - 1)
		return bad(r,
			   "use of launch '%s' under launch %zu: a launch's uses follow its "
			   "launch line",
			   t[1], p->nlaunch - 1);
	if (!to_u64(t[2], &id) || id > UINT32_MAX || (o = uvm_objprof_find(p, (uint32_t)id)) < 0)
		return bad(r, "use of object '%s', which no object line declares", t[2]);
	if (!to_u64(t[3], &touched) || touched > p->obj[o].bytes)
		return bad(r,
			   "object %s: touched bytes '%s' are not a number from 0 to its size %llu",
			   t[2], t[3], (unsigned long long)p->obj[o].bytes);
	if (!to_u64(t[4], &accesses))
		return bad(r, "object %s: accesses '%s' are not a number", t[2], t[4]);
	if (!to_double(t[5], &density) || density < 0 || density > 1)
		return bad(r, "object %s: density '%s' is not a number from 0 to 1", t[2], t[5]);
	if (strcmp(t[6], "-") != 0 && (!to_u64(t[6], &reuse) || reuse == 0))
		return bad(r, "object %s: reuse '%s' is not a positive number of launches or '-'",
			   t[2], t[6]);
	if (p->nuse && p->use[p->nuse - 1].launch == launch &&
	    p->use[p->nuse - 1].obj >= (uint32_t)o)
		return bad(r,
			   "object %s is not after object %u: a launch's uses go by ascending "
			   "object id, once each",
			   t[2], p->obj[p->use[p->nuse - 1].obj].id);
	if (add_use(p, launch, (uint32_t)id, touched, accesses, &u))
		return bad(r, "out of memory");
	u->line = r->line;
	u->stated_density = density;
	u->stated_reuse = reuse;
	return 0;
}

/* The derived fields must say what the rest of the file says. */
static int check_derived(struct reader *r, const struct uvm_objprof *p)
{
	for (size_t i = 0; i < p->nuse; i++) {
		const struct uvm_objprof_use *u = &p->use[i];
		const struct uvm_objprof_object *o = &p->obj[u->obj];

		r->line = u->line;
		if (fabs(u->density - u->stated_density) > 1e-6)
			return bad(r, "object %u: density %.6f, but %llu of %llu bytes is %.6f",
				   o->id, u->stated_density, (unsigned long long)u->touched,
				   (unsigned long long)o->bytes, u->density);
		if (u->reuse != u->stated_reuse) {
			char stated[24] = "-";

			if (u->stated_reuse != UVM_OBJPROF_NEVER)
				snprintf(stated, sizeof(stated), "%llu",
					 (unsigned long long)u->stated_reuse);
			if (u->reuse == UVM_OBJPROF_NEVER)
				return bad(r, "object %u: reuse %s, but no later launch uses it",
					   o->id, stated);
			return bad(r,
				   "object %u: reuse %s, but launch %llu uses it next (reuse %llu)",
				   o->id, stated, (unsigned long long)(u->launch + u->reuse),
				   (unsigned long long)u->reuse);
		}
	}
	return 0;
}

int uvm_objprof_read(struct uvm_objprof *p, const char *path, char *err, size_t errlen)
{
	struct reader r = {path, 0, err, errlen};
	FILE *f = fopen(path, "r");
	char *line = NULL, *t[8] = {0};
	size_t cap = 0;
	bool magic = false;
	int rc = 0;

	uvm_objprof_init(p);
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (!rc && getline(&line, &cap, f) >= 0) {
		int n;

		r.line++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		n = split(line, t, 7);
		if (n == 0) { /* "\rtext": split ends the line at the '\r' */
			rc = bad(&r, "a carriage return before the line's first field");
			continue;
		}
		if (!magic) {
			if (n != 2 || strcmp(t[0], MAGIC) != 0)
				rc = bad(&r, "not an object profile (its first line must be '" MAGIC
					     " 1'; `uvmemu profile` writes them)");
			else if (strcmp(t[1], "1") != 0)
				rc = bad(&r,
					 "object profile version %s; this uvmemu reads version 1",
					 t[1]);
			magic = true;
			continue;
		}
		if (strcmp(t[0], "object") == 0)
			rc = read_object(&r, p, t, n);
		else if (strcmp(t[0], "launch") == 0)
			rc = read_launch(&r, p, t, n);
		else if (strcmp(t[0], "use") == 0)
			rc = read_use(&r, p, t, n);
		else
			rc = bad(&r, "unknown record '%s' (object, launch, use)", t[0]);
	}
	free(line);
	if (!rc && ferror(f))
		rc = bad(&r, "read error");
	fclose(f);
	if (!rc && !magic)
		rc = bad(&r, "empty: not an object profile");
	if (!rc && !p->nlaunch)
		rc = bad(&r, "no launches: the profiled run launched no kernel");
	if (!rc && uvm_objprof_finish(p, NULL))
		rc = bad(&r, "out of memory");
	if (!rc)
		rc = check_derived(&r, p);
	if (rc)
		uvm_objprof_free(p);
	return rc;
}
