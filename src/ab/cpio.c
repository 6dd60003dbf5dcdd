/*
 * The initramfs archive: cpio "newc" (the format the kernel unpacks,
 * Documentation/driver-api/early-userspace/buffer-format.rst), written
 * here rather than with libarchive: a 110-byte ASCII header per entry,
 * name and data each padded to 4 bytes, a TRAILER!!! entry at the end.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab/ab.h"

#define NEWC_MAGIC "070701"
#define NEWC_HEADER 110

struct writer {
	FILE *f;
	uint64_t off;
	unsigned ino;
};

static int put(struct writer *w, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, w->f) != n)
		return -EIO;
	w->off += n;
	return 0;
}

static int pad4(struct writer *w)
{
	static const char zero[4];

	return put(w, zero, (4 - w->off % 4) % 4);
}

static int header(struct writer *w, const char *name, unsigned mode, unsigned nlink,
		  uint64_t size, unsigned rmajor, unsigned rminor)
{
	char h[NEWC_HEADER + 1];
	size_t nl = strlen(name) + 1;
	int err;

	if (size > 0xffffffffu)
		return -EFBIG;
	/* ino mode uid gid nlink mtime filesize devmajor devminor
	 * rdevmajor rdevminor namesize check; mtime 0: reproducible */
	snprintf(h, sizeof(h), NEWC_MAGIC "%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 ++w->ino, mode, 0u, 0u, nlink, 0u, (unsigned)size, 0u, 0u, rmajor,
		 rminor, (unsigned)nl, 0u);
	err = put(w, h, NEWC_HEADER);
	if (!err)
		err = put(w, name, nl);
	if (!err)
		err = pad4(w);
	return err;
}

/* A host file's entry: header with the size it has now, then exactly
 * that many bytes (a file that changes meanwhile is an error). */
static int add_file(struct writer *w, const struct pm_ir_entry *ent, struct pm_err *e)
{
	char buf[65536];
	struct stat st;
	uint64_t left;
	int fd, err;

	fd = open(ent->source, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pm_err_set(e, -errno, "%s: %s", ent->source, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return pm_err_set(e, -EINVAL, "%s: not a regular file", ent->source);
	}
	err = header(w, ent->path, ent->mode, 1, (uint64_t)st.st_size, 0, 0);
	for (left = (uint64_t)st.st_size; !err && left;) {
		ssize_t n = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			close(fd);
			return pm_err_set(e, err, "%s: %s", ent->source,
					  n < 0 ? strerror(-err) : "file shrank while copied");
		}
		err = put(w, buf, (size_t)n);
		left -= (uint64_t)n;
	}
	close(fd);
	if (!err)
		err = pad4(w);
	return err;
}

static int add_entry(struct writer *w, const struct pm_ir_entry *ent, struct pm_err *e)
{
	int err;

	switch (ent->mode & S_IFMT) {
	case S_IFREG:
	case S_IFLNK:
		/* a host file, else contents in memory (a link: its target) */
		if (ent->source)
			return add_file(w, ent, e);
		err = header(w, ent->path, ent->mode, 1, ent->len, 0, 0);
		if (!err)
			err = put(w, ent->data, ent->len);
		if (!err)
			err = pad4(w);
		return err;
	case S_IFDIR:
		return header(w, ent->path, ent->mode, 2, 0, 0, 0);
	default:
		return header(w, ent->path, ent->mode, 1, 0, ent->rmajor, ent->rminor);
	}
}

int pm_initramfs_write(const struct pm_initramfs *ir, const char *path,
		       struct pm_err *e)
{
	struct writer w = { 0 };
	size_t i;
	int err = 0;

	w.f = fopen(path, "wbe");
	if (!w.f)
		return pm_err_set(e, -errno, "%s: %s", path, strerror(errno));
	if (e)
		e->msg[0] = '\0';
	for (i = 0; i < ir->n && !err; i++)
		err = add_entry(&w, &ir->v[i], e);
	if (!err)
		err = header(&w, "TRAILER!!!", 0, 1, 0, 0, 0);
	if (fclose(w.f) && !err)
		err = -errno;
	if (err && (!e || !e->msg[0]))
		pm_err_set(e, err, "%s: %s", path, strerror(-err));
	return err;
}

static int hexfield(const char *p, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 8; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else
			return -EBADMSG;
	}
	*out = v;
	return 0;
}

int pm_cpio_next(const char *buf, size_t len, size_t *off, struct pm_cpio_entry *ent)
{
	unsigned f[13];
	size_t at = *off, name, data;
	int i;

	if (at + NEWC_HEADER > len || memcmp(buf + at, NEWC_MAGIC, 6))
		return -EBADMSG;
	for (i = 0; i < 13; i++)
		if (hexfield(buf + at + 6 + 8 * i, &f[i]))
			return -EBADMSG;
	name = at + NEWC_HEADER;
	if (!f[11] || name + f[11] > len || buf[name + f[11] - 1] != '\0')
		return -EBADMSG;
	data = (name + f[11] + 3) & ~(size_t)3;
	if (data + f[6] > len)
		return -EBADMSG;
	memset(ent, 0, sizeof(*ent));
	ent->name = buf + name;
	ent->mode = f[1];
	ent->uid = f[2];
	ent->gid = f[3];
	ent->nlink = f[4];
	ent->rmajor = f[9];
	ent->rminor = f[10];
	ent->data = buf + data;
	ent->size = f[6];
	*off = (data + f[6] + 3) & ~(size_t)3;
	return strcmp(ent->name, "TRAILER!!!") ? 0 : 1;
}
