// SPDX-License-Identifier: MIT
/*
 * graph_unpack.c - compressed graph files: xz (liblzma) and gzip (zlib)
 * streams read through a stdio cookie that decompresses on the fly, so every
 * reader works on lines from a FILE whatever the file's compression.
 */
#include "graph_int.h"

#include <errno.h>
#include <limits.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/*
 * A decoder over the raw file. Its first error is kept in `err` (and the
 * stream then fails every read), so the reader can name it instead of
 * whatever the text cut short by it looks like.
 */
struct unpack {
	FILE *raw;
	bool gz;
	union {
		lzma_stream xz;
		z_stream zs;
	} s;
	bool in_eof;	   /* raw has no more bytes */
	bool done;	   /* the end of the last stream was decoded */
	bool member_ended; /* gzip: between two members */
	const char *err;
	uint8_t in[1 << 16];
};

static ssize_t unpack_fail(struct unpack *u, const char *err)
{
	u->err = err;
	errno = EIO;
	return -1;
}

/* Refills the input buffer when the decoder has used it all: the bytes now
 * available, 0 at the end of raw, -1 on a read error. */
static ssize_t fill(struct unpack *u, size_t avail, const uint8_t **next)
{
	size_t n;

	if (avail > 0 || u->in_eof)
		return (ssize_t)avail;
	n = fread(u->in, 1, sizeof(u->in), u->raw);
	if (ferror(u->raw))
		return -1;
	u->in_eof = n == 0;
	*next = u->in;
	return (ssize_t)n;
}

static const char *xz_error(lzma_ret ret)
{
	switch (ret) {
	case LZMA_MEM_ERROR:
		return "out of memory decompressing xz data";
	case LZMA_OPTIONS_ERROR:
		return "unsupported xz options";
	case LZMA_FORMAT_ERROR: /* the magic matched, so what follows is bad */
	case LZMA_DATA_ERROR:
		return "corrupt xz data";
	case LZMA_BUF_ERROR:
		return "truncated xz data";
	default:
		return "xz decoder error";
	}
}

static ssize_t xz_read(void *cookie, char *buf, size_t size)
{
	struct unpack *u = cookie;
	lzma_stream *s = &u->s.xz;

	if (u->done || u->err)
		return u->err ? -1 : 0;
	s->next_out = (uint8_t *)buf;
	s->avail_out = size;
	/* Decode until some output exists: xz headers produce none. */
	while (s->avail_out == size) {
		ssize_t avail = fill(u, s->avail_in, &s->next_in);
		lzma_ret ret;

		if (avail < 0)
			return unpack_fail(u, "read error");
		s->avail_in = (size_t)avail;
		ret = lzma_code(s, u->in_eof ? LZMA_FINISH : LZMA_RUN);
		if (ret == LZMA_STREAM_END) {
			u->done = true;
			break;
		}
		if (ret != LZMA_OK)
			return unpack_fail(u, xz_error(ret));
	}
	return (ssize_t)(size - s->avail_out);
}

static ssize_t gz_read(void *cookie, char *buf, size_t size)
{
	struct unpack *u = cookie;
	z_stream *s = &u->s.zs;
	uInt want = size > UINT_MAX ? UINT_MAX : (uInt)size;

	if (u->done || u->err)
		return u->err ? -1 : 0;
	s->next_out = (Bytef *)buf;
	s->avail_out = want;
	while (s->avail_out == want) {
		const uint8_t *next = s->next_in;
		ssize_t avail = fill(u, s->avail_in, &next);
		int ret;

		if (avail < 0)
			return unpack_fail(u, "read error");
		s->next_in = (Bytef *)next;
		s->avail_in = (uInt)avail;
		if (avail == 0) {
			/* The data may end only where a member does. */
			if (!u->member_ended)
				return unpack_fail(u, "truncated gz data");
			u->done = true;
			break;
		}
		u->member_ended = false;
		ret = inflate(s, Z_NO_FLUSH);
		if (ret == Z_STREAM_END) {
			/* gzip allows members one after another, as `cat a.gz b.gz`. */
			u->member_ended = true;
			if (inflateReset(s) != Z_OK)
				return unpack_fail(u, "gz decoder error");
			continue;
		}
		if (ret == Z_MEM_ERROR)
			return unpack_fail(u, "out of memory decompressing gz data");
		if (ret == Z_BUF_ERROR)
			return unpack_fail(u, "truncated gz data");
		if (ret != Z_OK)
			return unpack_fail(u, "corrupt gz data");
	}
	return (ssize_t)(want - s->avail_out);
}

static int unpack_close(void *cookie)
{
	struct unpack *u = cookie;

	if (u->gz)
		inflateEnd(&u->s.zs);
	else
		lzma_end(&u->s.xz);
	free(u);
	return 0;
}

int unpack_open(FILE *raw, FILE **text, struct unpack **z)
{
	static const uint8_t xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
	static const uint8_t gz_magic[2] = {0x1f, 0x8b};
	cookie_io_functions_t io = {.close = unpack_close};
	struct unpack *u;
	uint8_t head[6];
	size_t n;
	bool xz, gz;

	*text = raw;
	*z = NULL;
	n = fread(head, 1, sizeof(head), raw);
	if (fseek(raw, 0, SEEK_SET) != 0)
		return -ESPIPE;
	/* A file cut inside the magic is still that format's (cut short): no
	 * text starts with these bytes. */
	xz = n > 0 && memcmp(head, xz_magic, n) == 0;
	gz = n > 0 && memcmp(head, gz_magic, n < sizeof(gz_magic) ? n : sizeof(gz_magic)) == 0;
	if (!xz && !gz)
		return 0;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->raw = raw;
	u->gz = gz;
	if (gz) {
		/* 15 + 16: the largest window, with the gzip wrapper and its CRC. */
		if (inflateInit2(&u->s.zs, 15 + 16) != Z_OK) {
			free(u);
			return -ENOMEM;
		}
		io.read = gz_read;
	} else {
		u->s.xz = (lzma_stream)LZMA_STREAM_INIT;
		if (lzma_stream_decoder(&u->s.xz, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
			free(u);
			return -ENOMEM;
		}
		io.read = xz_read;
	}
	*text = fopencookie(u, "r", io);
	if (!*text) {
		*text = raw;
		unpack_close(u);
		return -ENOMEM;
	}
	*z = u;
	return 0;
}

const char *unpack_error(const struct unpack *z)
{
	return z ? z->err : NULL;
}
