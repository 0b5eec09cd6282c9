/* lock1: will-it-scale's lock1 in two threads: flock and fcntl lock-unlock
 * loops on one shared file (both threads take the lock context of one
 * inode: true sharing on its lock), or on one file per thread (the
 * control: two lock contexts, nothing shared).
 *
 *   lock1 shared|private GOFILE STOPFILE */
#include <fcntl.h>
#include <sys/file.h>
#include "lab-run.h"

static void step(struct lab_thread *t)
{
	int fd = *(int *)t->arg;
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1 };

	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		flock(fd, LOCK_UN);
	if (fcntl(fd, F_SETLK, &fl) == 0) {
		fl.l_type = F_UNLCK;
		fcntl(fd, F_SETLK, &fl);
	}
}

int main(int argc, char **argv)
{
	static int fd[2];
	int shared;

	if (argc != 4 || (strcmp(argv[1], "shared") && strcmp(argv[1], "private"))) {
		fprintf(stderr, "usage: lock1 shared|private GOFILE STOPFILE\n");
		return 2;
	}
	shared = !strcmp(argv[1], "shared");
	lab_stopfile = argv[3];
	/* New files, so new inodes: their lock contexts are this run's. */
	unlink("/tmp/lock1.0");
	unlink("/tmp/lock1.1");
	fd[0] = open("/tmp/lock1.0", O_RDWR | O_CREAT | O_EXCL, 0600);
	fd[1] = shared ? fd[0] : open("/tmp/lock1.1", O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd[0] < 0 || fd[1] < 0) {
		perror("open");
		return 1;
	}
	/* One lock and unlock per file now: the kernel allocates each inode's
	 * file_lock_context on its first lock, before the recorders start. */
	for (int i = 0; i < 2; i++) {
		struct lab_thread t = { .arg = &fd[i] };
		step(&t);
	}
	lab_wait_go(argv[2]);
	lab_run2(step, &fd[0], &fd[1]);
	return 0;
}
