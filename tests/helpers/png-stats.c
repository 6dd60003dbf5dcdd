/*
 * png-stats FILE: what a screenshot holds, for tests/cli/report-page.sh:
 * "WIDTH HEIGHT COLOURS INKED", the distinct colours and the pixels per
 * thousand that are not white.  A blank page is one colour and 0 inked.
 * Reads 8-bit RGB and RGBA PNGs (what Chromium writes), not interlaced.
 * Exit 2 on a file it cannot read, 77 when built without zlib.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_ZLIB
#include <zlib.h>

#define MAX_FILE (64u << 20)

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int die(const char *file, const char *why)
{
	fprintf(stderr, "png-stats: %s: %s\n", file, why);
	return 2;
}

static unsigned paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return (unsigned)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

/* Undo the filter of each scanline in place (PNG spec, section 9). */
static int unfilter(unsigned char *img, size_t h, size_t stride, size_t bpp)
{
	size_t y, x;

	for (y = 0; y < h; y++) {
		unsigned char *line = img + y * (stride + 1), type = line[0];
		const unsigned char *prev = y ? line - stride : NULL;

		line++;
		for (x = 0; x < stride; x++) {
			int a = x >= bpp ? line[x - bpp] : 0, b = prev ? prev[x] : 0;
			int c = prev && x >= bpp ? prev[x - bpp] : 0;

			switch (type) {
			case 0: break;
			case 1: line[x] = (unsigned char)(line[x] + a); break;
			case 2: line[x] = (unsigned char)(line[x] + b); break;
			case 3: line[x] = (unsigned char)(line[x] + (a + b) / 2); break;
			case 4: line[x] = (unsigned char)(line[x] + paeth(a, b, c)); break;
			default: return -1;
			}
		}
	}
	return 0;
}

static int stats(const char *file, const unsigned char *d, size_t n)
{
	size_t w = 0, h = 0, bpp = 0, stride, at, y, x, colours = 0, inked = 0;
	unsigned char *img = NULL, *seen;
	z_stream z;
	int zr = Z_OK;

	memset(&z, 0, sizeof(z));
	if (n < 33 || memcmp(d, "\x89PNG\r\n\x1a\n", 8) || memcmp(d + 12, "IHDR", 4))
		return die(file, "not a PNG");
	w = be32(d + 16);
	h = be32(d + 20);
	bpp = d[25] == 2 ? 3 : d[25] == 6 ? 4 : 0;
	if (d[24] != 8 || !bpp || d[28] || !w || !h || w > 20000 || h > 40000)
		return die(file, "not an 8-bit RGB(A) PNG of a sane size, not interlaced");
	stride = w * bpp;
	img = malloc(h * (stride + 1));
	if (!img || inflateInit(&z) != Z_OK)
		return die(file, "out of memory");
	z.next_out = img;
	z.avail_out = (uInt)(h * (stride + 1));
	for (at = 8; at + 12 <= n && zr == Z_OK; at += 12 + be32(d + at)) {
		size_t len = be32(d + at);

		if (len > n - at - 12)
			break;
		if (!memcmp(d + at + 4, "IDAT", 4)) {
			z.next_in = (unsigned char *)d + at + 8;
			z.avail_in = (uInt)len;
			zr = inflate(&z, Z_NO_FLUSH);
		}
	}
	inflateEnd(&z);
	if (zr != Z_STREAM_END || z.avail_out || unfilter(img, h, stride, bpp)) {
		free(img);
		return die(file, "image data incomplete or corrupt");
	}
	seen = calloc(1u << 21, 1);	/* a bit per 24-bit colour */
	if (!seen) {
		free(img);
		return die(file, "out of memory");
	}
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			const unsigned char *p = img + y * (stride + 1) + 1 + x * bpp;
			uint32_t rgb = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];

			if (!(seen[rgb >> 3] & (1u << (rgb & 7)))) {
				seen[rgb >> 3] |= (unsigned char)(1u << (rgb & 7));
				colours++;
			}
			inked += rgb != 0xffffff;
		}
	printf("%zu %zu %zu %zu\n", w, h, colours, inked * 1000 / (w * h));
	free(seen);
	free(img);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char *d;
	size_t n;
	FILE *f;
	int st;

	if (argc != 2) {
		fputs("usage: png-stats FILE.png\n", stderr);
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f)
		return die(argv[1], "cannot open");
	d = malloc(MAX_FILE);
	n = d ? fread(d, 1, MAX_FILE, f) : 0;
	fclose(f);
	st = d ? stats(argv[1], d, n) : die(argv[1], "out of memory");
	free(d);
	return st;
}
#else
int main(void)
{
	fputs("png-stats: built without zlib\n", stderr);
	return 77;
}
#endif
