/* Allocates kernel objects that live until it exits: files (the filp
 * cache, struct file), a pipe (two more files) and sockets
 * (sock_inode_cache, struct socket_alloc).  tests/report/kmem.sh records
 * it with `hitmap record --kmem`; perf script of that recording says what
 * was allocated where. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	int fds[4], p[2], sv[2], i;

	for (i = 0; i < 4; i++)
		if ((fds[i] = open("/dev/null", O_RDONLY)) < 0)
			return 1;
	if (pipe(p) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 1;
	/* Give the objects a lifetime before exit closes them all. */
	usleep(20000);
	printf("%d %d %d\n", fds[3], p[1], sv[1]);
	return 0;
}
