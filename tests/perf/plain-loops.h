/* The reference loops of tests/perf/plain-loops.c, for pmbench-agree,
 * which runs them in its own process (built with PLAIN_NO_MAIN). */
#ifndef PLAIN_LOOPS_H
#define PLAIN_LOOPS_H

void plain_setup(const char *op, const char *hello, const char *tmp, int serve);
void plain_use_file(const char *path);
double plain_value(const char *op, long n);
void plain_cleanup(void);

#endif
