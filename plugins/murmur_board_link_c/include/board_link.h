/* board_link.h: the murmur board stream encoder (protocol version 1), for firmware in C.
 *
 * Frames are COBS(payload ++ CRC-32/MPEG-2 little-endian) followed by one 0x00; see
 * shared/docs/serial-protocol.md. Both functions write a whole frame, delimiter included, into
 * the caller's buffer and return its length, or 0 if the buffer is too small or an argument is
 * invalid. Nothing is allocated; nothing blocks. Link libmurmur_board_link_c.a.
 */
#ifndef BOARD_LINK_H
#define BOARD_LINK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest frame either function writes: a buffer this big always suffices. */
#define BL_MAX_FRAME 1034u
/* Most birds in one FLOCK frame (its payload is limited to 1024 bytes). */
#define BL_MAX_BIRDS 169u

/* Model revisions for the HELLO frame. */
#define BL_REVISION_A412 0u
#define BL_REVISION_ARTICLE 1u
#define BL_REVISION_BFEE0C8 2u
#define BL_REVISION_OTHER 255u

/* One bird: Q15 position, 8-bit angle (256 = full turn), state (0 Idle, 1-4 turning N E S W). */
struct bl_bird {
    int16_t x;
    int16_t y;
    uint8_t angle;
    uint8_t state;
};

/* HELLO: revision, the seed passed to Bird_Init, bird count, tick period in microseconds and a
 * board name of up to 32 bytes of UTF-8 (name may be NULL when name_len is 0). */
size_t bl_encode_hello(uint8_t revision, uint32_t seed, uint8_t birds, uint32_t tick_us,
                       const uint8_t *name, size_t name_len, uint8_t *out, size_t cap);

/* FLOCK: the state of `count` birds (at most BL_MAX_BIRDS) after tick `tick`. */
size_t bl_encode_flock(uint32_t tick, const struct bl_bird *birds, size_t count,
                       uint8_t *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* BOARD_LINK_H */
