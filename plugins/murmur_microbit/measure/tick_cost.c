/*
 * A QEMU TCG plugin that measures what murmur's micro:bit firmware costs the Cortex-M0: guest
 * instructions per tick (from Bird_Tick's entry to the next frame's encoder), per FLOCK frame
 * (encode and send, to the next tick; the encoding alone, up to the first UART byte), and the
 * deepest the stack went (the lowest RAM address
 * written above .bss). `murmur firmware --measure` builds it (gcc -shared) and reads its output.
 *
 * Arguments: tick=ADDR flock=ADDR hello=ADDR send=ADDR floor=ADDR top=ADDR ticks=N out=PATH.
 * Debian's QEMU exports the plugin API but ships no header, so the few declarations it uses
 * are written here (the API of QEMU 7.2, plugin version 1).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int, void *);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int, qemu_plugin_meminfo_t, uint64_t, void *);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, qemu_plugin_vcpu_tb_trans_cb_t);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *, qemu_plugin_vcpu_udata_cb_t,
                                          enum qemu_plugin_cb_flags, void *);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *, qemu_plugin_vcpu_mem_cb_t,
                                      enum qemu_plugin_cb_flags, enum qemu_plugin_mem_rw, void *);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t tick_at, flock_at, hello_at, send_at, floor_at, top_at, want = 2000;
static const char *out_path;

/* Instructions retired so far, counted a translation block at a time. */
static uint64_t retired;
/* Where the current tick / frame began, and what has been measured. */
static uint64_t tick_started, flock_started;
static bool in_tick, in_flock, encoding;
static uint64_t ticks, tick_sum, tick_max, flocks, flock_sum, flock_max, encodes, encode_sum;
static uint64_t lowest_write = UINT64_MAX;

static void report(void) {
    FILE *f = fopen(out_path, "w");
    if (f) {
        fprintf(f, "ticks %llu\ntick_sum %llu\ntick_max %llu\nflocks %llu\nflock_sum %llu\n"
                   "flock_max %llu\nencodes %llu\nencode_sum %llu\nlowest_write %llu\n",
                (unsigned long long)ticks, (unsigned long long)tick_sum,
                (unsigned long long)tick_max, (unsigned long long)flocks,
                (unsigned long long)flock_sum, (unsigned long long)flock_max,
                (unsigned long long)encodes, (unsigned long long)encode_sum,
                (unsigned long long)lowest_write);
        fclose(f);
    }
    exit(0);
}

/* A block starts: markers close what ran before them; then its instructions count. */
static void block(unsigned int vcpu, void *udata) {
    (void)vcpu;
    uint64_t start = ((uint64_t *)udata)[0], n = ((uint64_t *)udata)[1];
    if (encoding && start == send_at) {
        encodes++;
        encode_sum += retired - flock_started;
        encoding = false;
    }
    if (start == flock_at || start == hello_at || start == tick_at) {
        if (in_tick) {
            uint64_t cost = retired - tick_started;
            ticks++;
            tick_sum += cost;
            if (cost > tick_max) tick_max = cost;
            in_tick = false;
        }
        if (in_flock && start == tick_at) {
            uint64_t cost = retired - flock_started;
            flocks++;
            flock_sum += cost;
            if (cost > flock_max) flock_max = cost;
            in_flock = false;
        }
        if (start == tick_at) {
            if (ticks >= want) report();
            in_tick = true;
            tick_started = retired;
        }
        if (start == flock_at) {
            in_flock = true;
            encoding = true;
            flock_started = retired;
        }
    }
    retired += n;
}

static void written(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata) {
    (void)vcpu, (void)info, (void)udata;
    if (vaddr >= floor_at && vaddr < top_at && vaddr < lowest_write) lowest_write = vaddr;
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    uint64_t *udata = malloc(2 * sizeof *udata); /* lives as long as the block */
    udata[0] = qemu_plugin_tb_vaddr(tb);
    udata[1] = n;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, block, QEMU_PLUGIN_CB_NO_REGS, udata);
    for (size_t i = 0; i < n; i++)
        qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), written,
                                         QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_W, NULL);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const qemu_info_t *info,
                                                               int argc, char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) return -1;
        *eq = 0;
        const char *key = argv[i], *value = eq + 1;
        uint64_t v = strtoull(value, NULL, 0);
        if (!strcmp(key, "tick")) tick_at = v;
        else if (!strcmp(key, "flock")) flock_at = v;
        else if (!strcmp(key, "hello")) hello_at = v;
        else if (!strcmp(key, "send")) send_at = v;
        else if (!strcmp(key, "floor")) floor_at = v;
        else if (!strcmp(key, "top")) top_at = v;
        else if (!strcmp(key, "ticks")) want = v;
        else if (!strcmp(key, "out")) out_path = value;
        else return -1;
    }
    if (!tick_at || !flock_at || !out_path) return -1;
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    return 0;
}
