#ifndef CCHECKSUM_H
#define CCHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU folds CRC-32 blocks with carry-less multiplication (x86-64 with PCLMULQDQ and
/// SSE4.1); when not, `simharness_crc32_fold` must not be called.
int simharness_crc32_folding_available(void);

/// The CRC-32 of zlib and gzip over `length` bytes, `length` a multiple of 16 and at least 64,
/// continuing from the running remainder `crc` given and returned bit-inverted (as in
/// `~crc32(~crc, ...)`): about three times zlib's table-driven speed.
uint32_t simharness_crc32_fold(const uint8_t *bytes, size_t length, uint32_t crc);

#endif
