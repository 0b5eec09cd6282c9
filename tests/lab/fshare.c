/* fshare: false sharing inside the kernel's struct file, provoked on
 * purpose.  Two processes share one open file (fork): one seeks it in a
 * loop (lseek takes f_pos_lock, since two file tables hold the file, and
 * writes f_pos), the other sets its flags in a loop (fcntl F_SETFL writes
 * f_flags under f_lock).  In Linux 6.1 f_flags sits on the cacheline of
 * f_pos_lock and f_pos: the two write different fields of one line.  With
 * "private" each process opens the file itself (two struct files: the
 * control, nothing shared).
 *
 *   fshare shared|private GOFILE STOPFILE */
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include "lab-run.h"

int main(int argc, char **argv)
{
	unsigned long n = 0;
	int fd, shared, role, flags;
	pid_t child;
	double t0;

	if (argc != 4 || (strcmp(argv[1], "shared") && strcmp(argv[1], "private"))) {
		fprintf(stderr, "usage: fshare shared|private GOFILE STOPFILE\n");
		return 2;
	}
	shared = !strcmp(argv[1], "shared");
	unlink("/tmp/fshare");
	fd = open("/tmp/fshare", O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		perror("open");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	role = child == 0;
	if (!shared && role) {
		close(fd);
		fd = open("/tmp/fshare", O_RDWR);
	}
	printf("role %d pid %d fd %d\n", role, getpid(), fd);
	fflush(stdout);
	if (!role)
		lab_wait_go(argv[2]);
	else
		while (access(argv[2], F_OK))
			usleep(10000);
	lab_pin(role);
	flags = fcntl(fd, F_GETFL);
	t0 = lab_now();
	for (; (n & 1023) || access(argv[3], F_OK); n++) {
		if (role)
			fcntl(fd, F_SETFL, (n & 1) ? flags | O_APPEND : flags);
		else
			lseek(fd, n & 7, SEEK_SET);
	}
	printf("role %d iterations %lu in %.2f s\n", role, n, lab_now() - t0);
	fflush(stdout);
	if (!role)
		waitpid(child, NULL, 0);
	return 0;
}
