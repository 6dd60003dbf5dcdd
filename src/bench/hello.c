/*
 * pmbench-hello: the tiny program the exec and sh benchmarks start
 * (lmbench's "hello").  Only libc, nothing else to load or initialize.
 */
#include <unistd.h>

int main(void)
{
	static const char msg[] = "Hello world\n";
	ssize_t r = write(1, msg, sizeof(msg) - 1);

	(void)r;
	return 0;
}
