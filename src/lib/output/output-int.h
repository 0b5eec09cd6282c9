/* Internal: what the library's own print hooks need beyond output.h. */
#ifndef HM_OUTPUT_INT_H
#define HM_OUTPUT_INT_H
#include "hitmap/output.h"
#include "base/json.h"

/* The internal writer behind a hook's hm_json_writer. */
hm_json *hm_json_writer_json(hm_json_writer *w);

#endif
