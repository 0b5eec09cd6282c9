/* datasrc: decoding perf_mem_data_src and counting samples exactly as
 * `perf c2c` counts them (tools/perf/util/mem-events.c, c2c_decode_stats).
 * Counter names match perf's so reports and tests can be compared 1:1.
 * Pure functions; nothing to free.
 */
#ifndef HITMAP_DATASRC_H
#define HITMAP_DATASRC_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hm_c2c_stats {
	uint32_t nr_entries;
	uint32_t locks;
	uint32_t store, st_uncache, st_noadrs, st_l1hit, st_l1miss, st_na;
	uint32_t load, ld_excl, ld_shared, ld_uncache, ld_io, ld_miss, ld_noadrs;
	uint32_t ld_fbhit, ld_l1hit, ld_l2hit, ld_llchit;
	uint32_t lcl_hitm, rmt_hitm, tot_hitm;
	uint32_t lcl_peer, rmt_peer, tot_peer;
	uint32_t rmt_hit, lcl_dram, rmt_dram;
	uint32_t blk_data, blk_addr;
	uint32_t nomap, noparse;
} hm_c2c_stats;

/* Count one sample into *st.  `mapped` is false when perf would find no map
 * for the data address (perf's nomap).  Returns 1 if the sample was a load or
 * store perf c2c would keep for its cacheline tables, 0 otherwise. */
int hm_c2c_count(hm_c2c_stats *st, uint64_t data_src, uint64_t addr, int mapped);

/* dst += src, counter by counter. */
void hm_c2c_add(hm_c2c_stats *dst, const hm_c2c_stats *src);

#ifdef __cplusplus
}
#endif
#endif
