/* Emits frames with the C interface, one hex line per frame, for the parity test:
 * the worked examples of the protocol document and a 48-bird FLOCK. */
#include "board_link.h"
#include <stdio.h>

static void print(const uint8_t *buf, size_t n) {
    for (size_t i = 0; i < n; i++) {
        printf("%02x", buf[i]);
    }
    printf("\n");
}

int main(void) {
    uint8_t out[BL_MAX_FRAME];
    const uint8_t name[] = "microboids";
    print(out, bl_encode_hello(BL_REVISION_A412, 0x13121312u, 48, 31872, name, sizeof name - 1, out, sizeof out));

    struct bl_bird two[2] = {{32639, 19170, 139, 0}, {-24340, -12203, 126, 0}};
    print(out, bl_encode_flock(0, two, 2, out, sizeof out));

    struct bl_bird one[1] = {{0, 0, 0, 0}};
    print(out, bl_encode_flock(7, one, 1, out, sizeof out));

    struct bl_bird many[48];
    for (int i = 0; i < 48; i++) {
        many[i].x = (int16_t)(i * 1301 - 30000);
        many[i].y = (int16_t)(29000 - i * 977);
        many[i].angle = (uint8_t)(i * 37);
        many[i].state = (uint8_t)(i % 5);
    }
    print(out, bl_encode_flock(123456u, many, 48, out, sizeof out));

    /* Refusals: a buffer too small, too many birds. */
    printf("%zu %zu\n", bl_encode_flock(1, many, 48, out, 10), bl_encode_flock(1, many, 170, out, sizeof out));
    return 0;
}
