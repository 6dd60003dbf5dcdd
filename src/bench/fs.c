/*
 * The fs family: file creation and deletion after lmbench's lat_fs, and
 * the rereading of a page-cache-warm file after bw_file_rd and
 * bw_mmap_rd.
 *
 * The files an operation works on are made by setup() in the run's
 * scratch directory, untimed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "bench/bench.h"
#include "util.h"

/* ---- common helpers ---- */

/* A name of its own for every setup, in the scratch directory shared by
 * every copy of a benchmark that runs at once (threads, processes). */
static unsigned fs_names;

static char *fs_unique(const char *name)
{
	return pm_xasprintf("%s.%d.%u", name, (int)getpid(),
			    __atomic_fetch_add(&fs_names, 1, __ATOMIC_RELAXED));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* ---- create-*, delete-*: lat_fs ---- */

/*
 * lat_fs times the creation of N files (creat(), a write() of the file's
 * data, close()) and then, separately, the unlink() of the same N files,
 * in directories of at most 100 files each, creating and removing the
 * files outside the timed loop of the other half.  The runner times the
 * whole of run() and takes the median of its trials, so the other half
 * can neither be left out nor done in occasional large batches (a trial
 * with a batch and a trial without are not the same operation).  Both
 * benchmarks therefore keep a constant population of FS_POOL files, a
 * window moving along a ring of FS_RING names, and every call of run()
 * does as many creates as deletes, in alternating batches of up to
 * FS_STEP files (lat_fs's pattern, same operations back to back):
 *
 *   create-*: FS_STEP files created at the head of the window, then the
 *             same number deleted at its tail;
 *   delete-*: FS_STEP files deleted at the tail, then as many created.
 *
 * One operation is one create (one delete), and the other half, one
 * delete (one create) per operation, is subtracted (ctx->overhead_ns, as
 * lmbench's lat_ctx subtracts its pipe overhead): setup() moves the same
 * window in the same batches, timing the creates and the deletes
 * separately, as lat_fs times its two loops (see fs_calibrate()).  Both
 * per-file costs are kept in the result's detail.  The subtraction is
 * only as good as that estimate: when one half costs far more than the
 * other (creation on some file systems), the cheaper one is the
 * difference of two large, noisy numbers; the parameters then say so.
 */
#define FS_POOL 1000		/* files that exist between operations */
#define FS_PER_DIR 100		/* lat_fs's default -n */
#define FS_RING (2 * FS_POOL)
#define FS_NDIRS (FS_RING / FS_PER_DIR)
#define FS_STEP FS_PER_DIR	/* files per batch */
#define FS_GROUP 5		/* batches per measurement in setup */
#define FS_UNRELIABLE 5		/* warn: subtracting 5 times the figure */
#define FS_SAMPLES 9

struct fs_tree {
	char root[PATH_MAX];
	bool root_made;
	int dirs_made;
	char **names;		/* FS_RING file paths */
	size_t tail, n;		/* names[tail .. tail+n-1] (mod FS_RING) exist */
	size_t size;		/* of each file */
	char *buf;		/* the data written */
};

static int fs_mkfile(struct pm_ctx *ctx, struct fs_tree *t, const char *name)
{
	int fd = creat(name, 0666);

	if (fd < 0)
		return pm_bench_fail(ctx, -errno, "creat %s", name);
	if (t->size) {
		ssize_t w = write(fd, t->buf, t->size);

		if (w != (ssize_t)t->size) {
			int err = w < 0 ? -errno : -EIO;

			close(fd);
			unlink(name);
			return pm_bench_fail(ctx, err, "write %s", name);
		}
	}
	if (close(fd) != 0)
		return pm_bench_fail(ctx, -errno, "close %s", name);
	return 0;
}

/* Create the file at the head of the window. */
static inline int fs_grow(struct pm_ctx *ctx, struct fs_tree *t)
{
	int err = fs_mkfile(ctx, t, t->names[(t->tail + t->n) % FS_RING]);

	if (!err)
		t->n++;
	return err;
}

/* Delete the file at the tail of the window. */
static inline int fs_shrink(struct pm_ctx *ctx, struct fs_tree *t)
{
	const char *name = t->names[t->tail];

	if (unlink(name) != 0)
		return pm_bench_fail(ctx, -errno, "unlink %s", name);
	t->tail = (t->tail + 1) % FS_RING;
	t->n--;
	return 0;
}

static void fs_tree_teardown(struct pm_ctx *ctx)
{
	struct fs_tree *t = ctx->priv;
	char dir[PATH_MAX + 16];
	int i;

	if (!t)
		return;
	if (t->names) {
		for (; t->n > 0; t->n--, t->tail = (t->tail + 1) % FS_RING)
			unlink(t->names[t->tail]);
		for (i = 0; i < FS_RING; i++)
			free(t->names[i]);
		free(t->names);
	}
	for (i = 0; i < t->dirs_made; i++) {
		snprintf(dir, sizeof(dir), "%s/%d", t->root, i);
		rmdir(dir);
	}
	if (t->root_made)
		rmdir(t->root);
	free(t->buf);
	free(t);
	ctx->priv = NULL;
}

/*
 * lat_fs's two figures, per file, in the steady state of run(): the
 * window moved in batches of FS_STEP creates and FS_STEP deletes (in
 * run()'s order), the creates and the deletes timed separately and added
 * up over FS_GROUP batches, as lat_fs times its N creates and N deletes:
 * the means per file of a group, and the medians of FS_SAMPLES groups
 * (after the window has gone once round the ring, untimed).  Means, not
 * the median of single batches: the cost of a batch has a long tail (part
 * of the freeing of inodes and dentries is deferred and lands in later
 * batches), and a trial of run() pays all of it.
 */
static int fs_calibrate(struct pm_ctx *ctx, struct fs_tree *t,
			bool create_first, double *create_ns, double *delete_ns)
{
	double c[FS_SAMPLES], d[FS_SAMPLES], first, second;
	uint64_t t0, t1, t2;
	int err = 0, i, j, k;

	/* the window once round the ring: every directory warm */
	for (k = 0; !err && k < FS_RING - FS_POOL; k++) {
		err = fs_grow(ctx, t);
		if (!err)
			err = fs_shrink(ctx, t);
	}
	for (i = 0; !err && i < FS_SAMPLES; i++) {
		first = second = 0;
		for (j = 0; !err && j < FS_GROUP; j++) {
			t0 = pm_now_ns();
			for (k = 0; !err && k < FS_STEP; k++)
				err = create_first ? fs_grow(ctx, t) :
						     fs_shrink(ctx, t);
			t1 = pm_now_ns();
			for (k = 0; !err && k < FS_STEP; k++)
				err = create_first ? fs_shrink(ctx, t) :
						     fs_grow(ctx, t);
			t2 = pm_now_ns();
			first += (double)(t1 - t0);
			second += (double)(t2 - t1);
		}
		c[i] = (create_first ? first : second) / (FS_GROUP * FS_STEP);
		d[i] = (create_first ? second : first) / (FS_GROUP * FS_STEP);
	}
	if (err)
		return err;
	qsort(c, FS_SAMPLES, sizeof(c[0]), cmp_double);
	qsort(d, FS_SAMPLES, sizeof(d[0]), cmp_double);
	*create_ns = c[FS_SAMPLES / 2];
	*delete_ns = d[FS_SAMPLES / 2];
	return 0;
}

/* A create-* or delete-* descriptor's .arg. */
struct fs_tree_arg {
	size_t size;		/* of each file */
	bool creating;		/* create-*: the creates timed, the deletes subtracted */
};

static int fs_tree_setup(struct pm_ctx *ctx)
{
	const struct fs_tree_arg *a = ctx->bench->arg;
	const char *name = ctx->bench->name;
	size_t size = a->size;
	bool creating = a->creating;
	struct fs_tree *t = pm_xcalloc(1, sizeof(*t));
	char dir[PATH_MAX + 16];
	double create_ns = 0, delete_ns = 0, mine;
	char warn[96] = "", *unique;
	int err, i;

	ctx->priv = t;
	t->size = size;
	t->buf = pm_xmalloc(size ? size : 1);
	memset(t->buf, 0x5a, size ? size : 1);
	unique = fs_unique(name);
	if ((size_t)snprintf(t->root, sizeof(t->root), "%s/%s", ctx->scratch,
			     unique) >= sizeof(t->root)) {
		snprintf(ctx->why, sizeof(ctx->why), "%s/%s: path too long",
			 ctx->scratch, unique);
		free(unique);
		err = -ENAMETOOLONG;
		goto fail;
	}
	free(unique);
	if (mkdir(t->root, 0700) != 0) {
		err = pm_bench_fail(ctx, -errno, "mkdir %s", t->root);
		goto fail;
	}
	t->root_made = true;
	for (i = 0; i < FS_NDIRS; i++) {
		snprintf(dir, sizeof(dir), "%s/%d", t->root, i);
		if (mkdir(dir, 0700) != 0) {
			err = pm_bench_fail(ctx, -errno, "mkdir %s", dir);
			goto fail;
		}
		t->dirs_made++;
	}
	/* As lat_fs names them: <dir>/<index in the directory>. */
	t->names = pm_xcalloc(FS_RING, sizeof(*t->names));
	for (i = 0; i < FS_RING; i++)
		t->names[i] = pm_xasprintf("%s/%d/%d", t->root, i / FS_PER_DIR,
					   i % FS_PER_DIR);
	/* The population of the window. */
	for (i = 0; i < FS_POOL; i++) {
		err = fs_grow(ctx, t);
		if (err)
			goto fail;
	}
	err = fs_calibrate(ctx, t, creating, &create_ns, &delete_ns);
	if (err)
		goto fail;
	ctx->overhead_ns = creating ? delete_ns : create_ns;
	mine = creating ? create_ns : delete_ns;
	if (mine > 0 && ctx->overhead_ns > FS_UNRELIABLE * mine)
		snprintf(warn, sizeof(warn), "; unreliable here: the %s costs "
			 "%.0f times the %s", creating ? "delete" : "create",
			 ctx->overhead_ns / mine, creating ? "create" : "delete");
	snprintf(ctx->params, sizeof(ctx->params),
		 "%zu-byte files, %d in directories of %d, created and deleted "
		 "in batches of up to %d; the %s (%.2f us, measured in setup) "
		 "subtracted%s", size, FS_POOL, FS_PER_DIR, FS_STEP,
		 creating ? "delete" : "create", ctx->overhead_ns / 1000, warn);
	ctx->detail = json_pack("{s:i, s:i, s:i, s:s, s:f, s:f}",
				"file_bytes", (int)size,
				"files", FS_POOL,
				"files_per_directory", FS_PER_DIR,
				"subtracted", creating ? "delete" : "create",
				"setup_create_ns_per_file", create_ns,
				"setup_delete_ns_per_file", delete_ns);
	return 0;
fail:
	fs_tree_teardown(ctx);
	return err;
}

/* One batch of k creates then k deletes, or the other way round. */
static int fs_batch(struct pm_ctx *ctx, struct fs_tree *t, uint64_t k,
		    bool create_first)
{
	uint64_t i;
	int err = 0;

	for (i = 0; !err && i < k; i++)
		err = create_first ? fs_grow(ctx, t) : fs_shrink(ctx, t);
	for (i = 0; !err && i < k; i++)
		err = create_first ? fs_shrink(ctx, t) : fs_grow(ctx, t);
	return err;
}

/* run(), not op(): files are made in batches of FS_STEP, the deletes timed apart. */
static int create_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct fs_tree *t = ctx->priv;
	uint64_t k;
	int err;

	while (iters) {
		k = iters < FS_STEP ? iters : FS_STEP;
		err = fs_batch(ctx, t, k, true);	/* deletes subtracted */
		if (err)
			return err;
		iters -= k;
	}
	return 0;
}

/* run(), not op(): as create_run, in batches. */
static int delete_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct fs_tree *t = ctx->priv;
	uint64_t k;
	int err;

	while (iters) {
		k = iters < FS_STEP ? iters : FS_STEP;
		err = fs_batch(ctx, t, k, false);	/* creates subtracted */
		if (err)
			return err;
		iters -= k;
	}
	return 0;
}

/* ---- bw-file-reread, bw-mmap-reread: bw_file_rd, bw_mmap_rd ---- */

/*
 * lmbench's summary reports the largest size of its curve, the MB of its
 * configuration (8 MiB when it has none, as lat_mmap in the proc family
 * uses); bw_file_rd reads in XFERSIZE (64 KiB) transfers and sums the
 * data as ints.  One operation is one 64 KiB chunk.
 */
#define REREAD_SIZE (8u << 20)
#define REREAD_CHUNK (64u << 10)

struct reread {
	char path[PATH_MAX];
	bool created;
	int fd;
	int *buf;		/* read() target */
	char *map;		/* the mapping */
	size_t off;		/* next chunk */
	volatile unsigned sink;
};

static void reread_teardown(struct pm_ctx *ctx)
{
	struct reread *st = ctx->priv;

	if (!st)
		return;
	if (st->map && st->map != MAP_FAILED)
		munmap(st->map, REREAD_SIZE);
	if (st->fd >= 0)
		close(st->fd);
	if (st->created)
		unlink(st->path);
	free(st->buf);
	free(st);
	ctx->priv = NULL;
}

/*
 * Sum a chunk as ints, every int once, as bw_file_rd's doit() and
 * lmbench's bread() do (they add 128 ints per pass).  Written with
 * vectors, 32 ints a pass into 4 accumulators: a tight loop of a few
 * bytes would run at a speed that depends on where the linker puts it
 * (across a 64-byte boundary it can run at half speed on some CPUs).
 * Both the buffer and the mapping are page aligned.
 */
/* unsigned: the sum of a file's words wraps (signed overflow is undefined) */
typedef unsigned reread_v4 __attribute__((vector_size(16), may_alias));

static inline unsigned reread_sum(const void *p)
{
	const reread_v4 *v = (const reread_v4 *)p;
	reread_v4 a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 };
	size_t i;

	for (i = 0; i < REREAD_CHUNK / sizeof(*v); i += 8) {
		a0 += v[i] + v[i + 4];
		a1 += v[i + 1] + v[i + 5];
		a2 += v[i + 2] + v[i + 6];
		a3 += v[i + 3] + v[i + 7];
	}
	a0 += a1 + a2 + a3;
	return a0[0] + a0[1] + a0[2] + a0[3];
}

/* .arg: true for the mapped file (bw-mmap-reread) */
static int reread_setup(struct pm_ctx *ctx)
{
	bool mapped = *(const bool *)ctx->bench->arg;
	struct reread *st = pm_xcalloc(1, sizeof(*st));
	char *name = fs_unique(ctx->bench->name);
	size_t off;
	int err;

	st->fd = -1;
	ctx->priv = st;
	err = pm_scratch_file(ctx, name, REREAD_SIZE, st->path,
			      sizeof(st->path));
	free(name);
	if (err)
		goto fail;
	st->created = true;
	st->fd = open(st->path, O_RDONLY | O_CLOEXEC);
	if (st->fd < 0) {
		err = pm_bench_fail(ctx, -errno, "open %s", st->path);
		goto fail;
	}
	if (mapped) {
		st->map = mmap(NULL, REREAD_SIZE, PROT_READ, MAP_SHARED,
			       st->fd, 0);
		if (st->map == MAP_FAILED) {
			st->map = NULL;
			err = pm_bench_fail(ctx, -errno, "mmap %s", st->path);
			goto fail;
		}
		/* Map every page now: the loop rereads a mapped file. */
		for (off = 0; off < REREAD_SIZE; off += REREAD_CHUNK)
			st->sink += reread_sum(st->map + off);
	} else {
		if (posix_memalign((void **)&st->buf, 4096, REREAD_CHUNK)) {
			err = pm_bench_fail(ctx, -ENOMEM, "allocating the buffer");
			goto fail;
		}
		memset(st->buf, 0, REREAD_CHUNK);
	}
	ctx->bytes_per_op = REREAD_CHUNK;
	snprintf(ctx->params, sizeof(ctx->params),
		 "%u MiB file in the page cache, %u KiB per operation%s",
		 REREAD_SIZE >> 20, REREAD_CHUNK >> 10,
		 mapped ? ", mapped in setup" : "");
	return 0;
fail:
	reread_teardown(ctx);
	return err;
}

PM_OP(file_reread_op)
{
	struct reread *st = ctx->priv;
	unsigned sum = 0;
	ssize_t r;

	if (st->off >= REREAD_SIZE) {
		/* bw_file_rd io_only: lseek(fd, 0, 0) per pass */
		if (lseek(st->fd, 0, SEEK_SET) != 0)
			return pm_bench_fail(ctx, -errno, "lseek %s", st->path);
		st->off = 0;
	}
	r = read(st->fd, st->buf, REREAD_CHUNK);
	if (r != (ssize_t)REREAD_CHUNK) {
		if (r < 0)
			return pm_bench_fail(ctx, -errno, "read %s", st->path);
		snprintf(ctx->why, sizeof(ctx->why),
			 "read %.150s: %zd of %u bytes", st->path, r,
			 REREAD_CHUNK);
		return -EIO;
	}
	st->off += REREAD_CHUNK;
	sum += reread_sum(st->buf);
	st->sink += sum;
	return 0;
}

PM_OP(mmap_reread_op)
{
	struct reread *st = ctx->priv;
	unsigned sum = 0;

	if (st->off >= REREAD_SIZE)
		st->off = 0;
	sum += reread_sum(st->map + st->off);
	st->off += REREAD_CHUNK;
	st->sink += sum;
	return 0;
}

/* ---- the family ---- */

static const struct pm_bench fs_benches[] = {
	{
		.name = "create-0k",
		.group = "fs",
		.summary = "create an empty file (creat+close); deleting one of "
			   "1000 per create subtracted",
		.unit = "us",
		.lmbench = "fs: 0K File Create",
		.setup = fs_tree_setup,
		.arg = &(const struct fs_tree_arg){ 0, true },
		.run = create_run,
		.teardown = fs_tree_teardown,
		.flags = PM_FS,
		.exercises = PM_EX_FSMETA | PM_EX_PATH,
	},
	{
		.name = "delete-0k",
		.group = "fs",
		.summary = "unlink an empty file; creating one per delete (1000 "
			   "kept) subtracted",
		.unit = "us",
		.lmbench = "fs: 0K File Delete",
		.setup = fs_tree_setup,
		.arg = &(const struct fs_tree_arg){ 0, false },
		.run = delete_run,
		.teardown = fs_tree_teardown,
		.flags = PM_FS,
		.exercises = PM_EX_FSMETA | PM_EX_PATH,
	},
	{
		.name = "create-10k",
		.group = "fs",
		.summary = "create a 10 KiB file (creat+write+close); deleting "
			   "one of 1000 per create subtracted",
		.unit = "us",
		.lmbench = "fs: 10K File Create",
		.setup = fs_tree_setup,
		.arg = &(const struct fs_tree_arg){ 10 * 1024, true },
		.run = create_run,
		.teardown = fs_tree_teardown,
		.flags = PM_FS,
		.exercises = PM_EX_FSMETA | PM_EX_PATH | PM_EX_FILEIO,
	},
	{
		.name = "delete-10k",
		.group = "fs",
		.summary = "unlink a 10 KiB file; creating one per delete (1000 "
			   "kept) subtracted",
		.unit = "us",
		.lmbench = "fs: 10K File Delete",
		.setup = fs_tree_setup,
		.arg = &(const struct fs_tree_arg){ 10 * 1024, false },
		.run = delete_run,
		.teardown = fs_tree_teardown,
		.flags = PM_FS,
		.exercises = PM_EX_FSMETA | PM_EX_PATH,
	},
	{
		.name = "bw-file-reread",
		.group = "fs",
		.summary = "read() of a 64 KiB chunk of a cached 8 MiB file, "
			   "summed as ints",
		.unit = "MB/s",
		.lmbench = "bw: File reread",
		.setup = reread_setup,
		.arg = &(const bool){ false },
		PM_OP_HOOKS(file_reread_op),
		.teardown = reread_teardown,
		.flags = PM_FS,
		.exercises = PM_EX_FILEIO,
	},
	{
		.name = "bw-mmap-reread",
		.group = "fs",
		.summary = "sum of a 64 KiB chunk of a mapped, cached 8 MiB "
			   "file, as ints",
		.unit = "MB/s",
		.lmbench = "bw: Mmap reread",
		.setup = reread_setup,
		.arg = &(const bool){ true },
		PM_OP_HOOKS(mmap_reread_op),
		.teardown = reread_teardown,
		.flags = PM_FS,
		.exercises = PM_EX_FILEIO | PM_EX_MEMORY,
	},
};

PM_FAMILY(fs, "file system: create, delete, reread", fs_benches);
