/* datasrc: perf_mem_data_src decoding and perf c2c's counting rules.
 *
 * hm_c2c_count() follows perf's c2c_decode_stats() rule for rule (see
 * SPECS.md, "How perf c2c counts a sample"): the tests compare its per-line
 * counts with `perf c2c report` on the same files. */
#include "config.h"
#include <linux/perf_event.h>
#include <stddef.h>
#include "hitmap/datasrc.h"

/* Field extraction from the little-endian bit layout of perf_mem_data_src. */
#define DS_OP(v)	((v) & 0x1f)
#define DS_LVL(v)	(((v) >> 5) & 0x3fff)
#define DS_SNOOP(v)	(((v) >> 19) & 0x1f)
#define DS_LOCK(v)	(((v) >> 24) & 0x3)
#define DS_LVLNUM(v)	(((v) >> 33) & 0xf)
#define DS_REMOTE(v)	(((v) >> 37) & 0x1)
#define DS_SNOOPX(v)	(((v) >> 38) & 0x3)
#define DS_BLK(v)	(((v) >> 40) & 0x7)
#define DS_HOPS(v)	(((v) >> 43) & 0x7)

static void count_load(hm_c2c_stats *st, uint64_t lvl, uint64_t snoop, uint64_t snoopx,
		       int mrem)
{
	if (lvl & PERF_MEM_LVL_HIT) {
		if (lvl & PERF_MEM_LVL_UNC)
			st->ld_uncache++;
		if (lvl & PERF_MEM_LVL_IO)
			st->ld_io++;
		if (lvl & PERF_MEM_LVL_LFB)
			st->ld_fbhit++;
		if (lvl & PERF_MEM_LVL_L1)
			st->ld_l1hit++;
		if (lvl & PERF_MEM_LVL_L2) {
			st->ld_l2hit++;
			if (snoopx & PERF_MEM_SNOOPX_PEER) {
				st->lcl_peer++;
				st->tot_peer++;
			}
		}
		if (lvl & PERF_MEM_LVL_L3) {
			if (snoop & PERF_MEM_SNOOP_HITM) {
				st->lcl_hitm++;
				st->tot_hitm++;
			} else {
				st->ld_llchit++;
			}
			if (snoopx & PERF_MEM_SNOOPX_PEER) {
				st->lcl_peer++;
				st->tot_peer++;
			}
		}
		if (lvl & PERF_MEM_LVL_LOC_RAM) {
			st->lcl_dram++;
			if (snoop & PERF_MEM_SNOOP_HIT)
				st->ld_shared++;
			else
				st->ld_excl++;
		}
		if ((lvl & (PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_REM_RAM2)) || mrem) {
			st->rmt_dram++;
			if (snoop & PERF_MEM_SNOOP_HIT)
				st->ld_shared++;
			else
				st->ld_excl++;
		}
	}
	/* Remote cache, independent of HIT: Skylake's remote HITM has no
	 * lvl bits at all and is seen only through mrem. */
	if ((lvl & (PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_REM_CCE2)) || mrem) {
		if (snoop & PERF_MEM_SNOOP_HIT) {
			st->rmt_hit++;
		} else if (snoop & PERF_MEM_SNOOP_HITM) {
			st->rmt_hitm++;
			st->tot_hitm++;
		} else if (snoopx & PERF_MEM_SNOOPX_PEER) {
			st->rmt_hit++;
			st->rmt_peer++;
			st->tot_peer++;
		}
	}
	if (lvl & PERF_MEM_LVL_MISS)
		st->ld_miss++;
}

int hm_c2c_count(hm_c2c_stats *st, uint64_t ds, uint64_t addr, int mapped)
{
	uint64_t op = DS_OP(ds), lvl = DS_LVL(ds), snoop = DS_SNOOP(ds);
	uint64_t snoopx = DS_SNOOPX(ds), blk = DS_BLK(ds);
	/* remote with zero hops: POWER uses remote+hops for other cores of the
	 * same node, which are not remote for c2c */
	int mrem = DS_REMOTE(ds) && !DS_HOPS(ds);

	st->nr_entries++;
	if (DS_LOCK(ds) & PERF_MEM_LOCK_LOCKED)
		st->locks++;
	if (blk & PERF_MEM_BLK_DATA)
		st->blk_data++;
	if (blk & PERF_MEM_BLK_ADDR)
		st->blk_addr++;
	if (op & PERF_MEM_OP_LOAD) {
		st->load++;
		if (!addr) {
			st->ld_noadrs++;
			return 0;
		}
		count_load(st, lvl, snoop, snoopx, mrem);
	} else if (op & PERF_MEM_OP_STORE) {
		st->store++;
		if (!addr) {
			st->st_noadrs++;
			return 0;
		}
		if (lvl & PERF_MEM_LVL_HIT) {
			if (lvl & PERF_MEM_LVL_UNC)
				st->st_uncache++;
			if (lvl & PERF_MEM_LVL_L1)
				st->st_l1hit++;
		}
		if ((lvl & PERF_MEM_LVL_MISS) && (lvl & PERF_MEM_LVL_L1))
			st->st_l1miss++;
		if (lvl & PERF_MEM_LVL_NA)
			st->st_na++;
	} else {
		st->noparse++;
		return 0;
	}
	if (!mapped) {
		st->nomap++;
		return 0;
	}
	return 1;
}

void hm_c2c_add(hm_c2c_stats *dst, const hm_c2c_stats *src)
{
	uint32_t *d = (uint32_t *)dst;
	const uint32_t *s = (const uint32_t *)src;
	size_t i;

	/* every member is a uint32_t counter */
	for (i = 0; i < sizeof(*dst) / sizeof(uint32_t); i++)
		d[i] += s[i];
}
