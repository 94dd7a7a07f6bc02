// CRC-32 (zlib's polynomial, bit-reflected) of 16-byte blocks by carry-less multiplication: four
// 128-bit lanes folded 64 bytes at a time, then folded into one lane, reduced to 64 bits and then to
// 32 (Barrett). Method and constants: V. Gopal et al., "Fast CRC Computation for Generic Polynomials
// Using PCLMULQDQ Instruction", Intel, 2009.
#include "CChecksum.h"

#if defined(__x86_64__)
#include <immintrin.h>

int simharness_crc32_folding_available(void) {
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}

__attribute__((target("pclmul,sse4.1")))
uint32_t simharness_crc32_fold(const uint8_t *bytes, size_t length, uint32_t crc) {
    const __m128i fold4 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);   // x^(512+32), x^(512-32) mod P
    const __m128i fold1 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);   // x^(128+32), x^(128-32) mod P
    const __m128i fold64 = _mm_set_epi64x(0, 0x0163cd6124);            // x^64 mod P
    const __m128i barrett = _mm_set_epi64x(0x01f7011641, 0x01db710641); // mu, P
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);

    __m128i a = _mm_xor_si128(_mm_loadu_si128((const __m128i *)bytes), _mm_cvtsi32_si128((int)crc));
    __m128i b = _mm_loadu_si128((const __m128i *)(bytes + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(bytes + 32));
    __m128i d = _mm_loadu_si128((const __m128i *)(bytes + 48));
    bytes += 64;
    length -= 64;
#define FOLD(lane, k, next) \
    lane = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(lane, k, 0x00), _mm_clmulepi64_si128(lane, k, 0x11)), next)
    for (; length >= 64; bytes += 64, length -= 64) {
        FOLD(a, fold4, _mm_loadu_si128((const __m128i *)bytes));
        FOLD(b, fold4, _mm_loadu_si128((const __m128i *)(bytes + 16)));
        FOLD(c, fold4, _mm_loadu_si128((const __m128i *)(bytes + 32)));
        FOLD(d, fold4, _mm_loadu_si128((const __m128i *)(bytes + 48)));
    }
    FOLD(a, fold1, b);
    FOLD(a, fold1, c);
    FOLD(a, fold1, d);
    for (; length >= 16; bytes += 16, length -= 16) FOLD(a, fold1, _mm_loadu_si128((const __m128i *)bytes));
#undef FOLD
    __m128i t = _mm_clmulepi64_si128(a, fold1, 0x10);
    a = _mm_xor_si128(_mm_srli_si128(a, 8), t);
    t = _mm_srli_si128(a, 4);
    a = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(a, low32), fold64, 0x00), t);
    t = _mm_clmulepi64_si128(_mm_and_si128(a, low32), barrett, 0x10);
    t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), barrett, 0x00);
    return (uint32_t)_mm_extract_epi32(_mm_xor_si128(a, t), 1);
}

#else

int simharness_crc32_folding_available(void) { return 0; }

uint32_t simharness_crc32_fold(const uint8_t *bytes, size_t length, uint32_t crc) {
    (void)bytes; (void)length; (void)crc;
    __builtin_trap();
}

#endif
