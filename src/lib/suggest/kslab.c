/* kslab: the kernel structs whose objects start a cacheline because their
 * slab cache is created with SLAB_HWCACHE_ALIGN, so that suggest knows
 * where such an object starts without a rule file's `placement
 * line-aligned`.  mm/slab_common.c (calculate_alignment(), line 121 in
 * Linux 6.1) aligns those objects to the cacheline when they are larger
 * than half of it (smaller ones to a smaller power of two).  Each entry is
 * the kmem_cache_create() or KMEM_CACHE() call of Debian's 6.1.170 source
 * that creates the cache, file and line; a struct whose cache is made of
 * arrays of it (bio_vec) or whose name other subsystems reuse is left
 * out. */
#include "config.h"
#include <string.h>
#include "suggest/suggest-int.h"

static const struct {
	const char *type, *where;
} kslab[] = {
	{ "afs_vnode", "fs/afs/super.c:106" },
	{ "aio_kiocb", "fs/aio.c:302" },
	{ "bdev_inode", "block/bdev.c:484" },
	{ "bio_integrity_payload", "block/bio-integrity.c:459" },
	{ "cachefiles_object", "fs/cachefiles/main.c:59" },
	{ "cred", "kernel/cred.c:692" },
	{ "dlm_lock", "fs/ocfs2/dlm/dlmlock.c:53" },
	{ "dlm_lock_resource", "fs/ocfs2/dlm/dlmmaster.c:437" },
	{ "dlm_master_list_entry", "fs/ocfs2/dlm/dlmmaster.c:389" },
	{ "dlmfs_inode_private", "fs/ocfs2/dlmfs/dlmfs.c:579" },
	{ "dquot", "fs/quota/dquot.c:3040" },
	{ "epitem", "fs/eventpoll.c:2397" },
	{ "file", "fs/file_table.c:412" },
	{ "files_struct", "kernel/fork.c:3147" },
	{ "fs_struct", "kernel/fork.c:3151" },
	{ "fuse_inode", "fs/fuse/inode.c:1976" },
	{ "hfs_inode_info", "fs/hfs/super.c:481" },
	{ "inet_bind2_bucket", "net/ipv4/tcp.c:4837" },
	{ "inet_bind_bucket", "net/ipv4/tcp.c:4831" },
	{ "inet_peer", "net/ipv4/inetpeer.c:84" },
	{ "jbd2_revoke_record_s", "fs/jbd2/revoke.c:196" },
	{ "jffs2_raw_dirent", "fs/jffs2/malloc.c:42" },
	{ "jffs2_raw_inode", "fs/jffs2/malloc.c:48" },
	{ "key", "security/keys/key.c:1200" },
	{ "kioctx", "fs/aio.c:303" },
	{ "ksmbd_file", "fs/smb/server/vfs_cache.c:713" },
	{ "ksmbd_work", "fs/smb/server/ksmbd_work.c:74" },
	{ "mfc_cache", "net/ipv4/ipmr.c:3146" },
	{ "mid_q_entry", "fs/smb/client/cifsfs.c:1790" },
	{ "mm_struct", "kernel/fork.c:3129" },
	{ "mount", "fs/namespace.c:4453" },
	{ "mqueue_inode_info", "ipc/mqueue.c:1721" },
	{ "nfs_commit_data", "fs/nfs/write.c:2194" },
	{ "nfs_page", "fs/nfs/pagelist.c:1362" },
	{ "nfs_pgio_header", "fs/nfs/write.c:2182" },
	{ "ocfs2_dquot", "fs/ocfs2/super.c:1712" },
	{ "ocfs2_inode_info", "fs/ocfs2/super.c:1706" },
	{ "ocfs2_meta_cache_item", "fs/ocfs2/uptodate.c:609" },
	{ "ovl_aio_req", "fs/overlayfs/file.c:704" },
	{ "pid", "kernel/pid.c:659" },
	{ "rtable", "net/ipv4/route.c:3778" },
	{ "sighand_struct", "kernel/fork.c:3139" },
	{ "signal_struct", "kernel/fork.c:3143" },
	{ "sk_buff", "net/core/skbuff.c:4556" },
	{ "sk_buff_fclones", "net/core/skbuff.c:4563" },
	{ "smb_direct_recvmsg", "fs/smb/server/transport_rdma.c:1829" },
	{ "smb_direct_sendmsg", "fs/smb/server/transport_rdma.c:1815" },
	{ "smbd_request", "fs/smb/client/smbdirect.c:1481" },
	{ "smbd_response", "fs/smb/client/smbdirect.c:1497" },
	{ "socket_alloc", "net/socket.c:339" },
	{ "squashfs_inode_info", "fs/squashfs/super.c:510" },
	{ "tcp_sock", "net/core/sock.c:3919, proto_register() of tcp_prot, net/ipv4/tcp_ipv4.c:3111" },
	{ "udp_sock", "net/core/sock.c:3919, proto_register() of udp_prot, net/ipv4/udp.c:2950" },
	{ "user_struct", "kernel/user.c:235" },
	{ "userfaultfd_ctx", "fs/userfaultfd.c:2200" },
	{ "xfs_buf", "fs/xfs/xfs_super.c:1997" },
	{ "xfs_inode", "fs/xfs/xfs_super.c:2061" },
};

const char *hmi_kslab_where(const char *type)
{
	size_t lo = 0, hi = sizeof(kslab) / sizeof(kslab[0]);

	while (type && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(kslab[mid].type, type);

		if (!r)
			return kslab[mid].where;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
