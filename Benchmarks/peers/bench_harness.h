/* The C peers' side of the benchmark protocol (Benchmarks/README.md), shared by
 * libplist_bench.c and libxml2_floor.c: reading FILE (one document, or a
 * "PLPACK01" pack of many), the monotonic clock, and the median of a run. */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double bench_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static uint32_t bench_u32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* FILE's bytes and its documents: a pack's members, or the file itself. */
struct bench_input {
    long size;
    uint32_t count;
    const unsigned char **docs;
    uint32_t *lengths;
};

/* Reads `file`; returns 0, or prints why on stderr and returns 1. */
static int bench_load(const char *file, struct bench_input *input) {
    FILE *f = fopen(file, "rb");
    if (!f) { perror(file); return 1; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc(size > 0 ? size : 1);
    if (fread(bytes, 1, size, f) != (size_t)size) { perror("read"); fclose(f); return 1; }
    fclose(f);
    input->size = size;
    if (size >= 12 && memcmp(bytes, "PLPACK01", 8) == 0) {
        uint32_t count = bench_u32(bytes + 8);
        input->count = count;
        input->docs = malloc((count ? count : 1) * sizeof *input->docs);
        input->lengths = malloc((count ? count : 1) * sizeof *input->lengths);
        size_t offset = 12;
        for (uint32_t i = 0; i < count; i++) {
            input->lengths[i] = bench_u32(bytes + offset);
            input->docs[i] = bytes + offset + 4;
            offset += 4 + input->lengths[i];
        }
    } else {
        input->count = 1;
        input->docs = malloc(sizeof *input->docs);
        input->lengths = malloc(sizeof *input->lengths);
        input->docs[0] = bytes;
        input->lengths[0] = (uint32_t)size;
    }
    return 0;
}

static int bench_compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts the `iterations` times and returns their median. */
static double bench_median(double *times, int iterations) {
    qsort(times, iterations, sizeof *times, bench_compare);
    return iterations % 2 ? times[iterations / 2] : (times[iterations / 2 - 1] + times[iterations / 2]) / 2;
}

/* The file name without its directory, as the JSON line reports it. */
static const char *bench_name(const char *file) { return strrchr(file, '/') ? strrchr(file, '/') + 1 : file; }

#endif
