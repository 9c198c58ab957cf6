/* libplist's side of the benchmark protocol (Benchmarks/README.md).
 *   libplist_bench OP FORMAT FILE ITERS     OP: decode | encode
 * plist_from_bin / plist_from_xml to decode, plist_to_bin / plist_to_xml to
 * encode; same JSON line as plistkit-bench. */
#include <plist/plist.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static uint32_t u32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: libplist_bench decode|encode binary|xml FILE ITERS\n"); return 2; }
    const char *op = argv[1], *format = argv[2], *file = argv[3];
    int iterations = atoi(argv[4]), xml = strcmp(format, "xml") == 0, encode = strcmp(op, "encode") == 0;
    FILE *f = fopen(file, "rb");
    if (!f) { perror(file); return 1; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc(size);
    if (fread(bytes, 1, size, f) != (size_t)size) { perror("read"); return 1; }
    fclose(f);

    uint32_t count = 1;
    const unsigned char **docs;
    uint32_t *lengths;
    if (size >= 12 && memcmp(bytes, "PLPACK01", 8) == 0) {
        count = u32(bytes + 8);
        docs = malloc(count * sizeof *docs);
        lengths = malloc(count * sizeof *lengths);
        size_t offset = 12;
        for (uint32_t i = 0; i < count; i++) {
            lengths[i] = u32(bytes + offset);
            docs[i] = bytes + offset + 4;
            offset += 4 + lengths[i];
        }
    } else {
        docs = malloc(sizeof *docs);
        lengths = malloc(sizeof *lengths);
        docs[0] = bytes;
        lengths[0] = (uint32_t)size;
    }

    plist_t *trees = calloc(count, sizeof *trees);
    if (encode) {
        for (uint32_t i = 0; i < count; i++) {
            if (xml) plist_from_xml((const char *)docs[i], lengths[i], &trees[i]);
            else plist_from_bin((const char *)docs[i], lengths[i], &trees[i]);
            if (!trees[i]) { fprintf(stderr, "libplist could not read document %u\n", i); return 1; }
        }
    }
    double *times = malloc(iterations * sizeof *times);
    long out_bytes = 0;
    for (int round = -1; round < iterations; round++) {  /* round -1: warm-up */
        plist_t *decoded = calloc(count, sizeof *decoded);
        char **outputs = calloc(count, sizeof *outputs);
        long total = 0;
        double start = now();
        for (uint32_t i = 0; i < count; i++) {
            if (encode) {
                uint32_t length = 0;
                if (xml) plist_to_xml(trees[i], &outputs[i], &length);
                else plist_to_bin(trees[i], &outputs[i], &length);
                total += length;
            } else {
                if (xml) plist_from_xml((const char *)docs[i], lengths[i], &decoded[i]);
                else plist_from_bin((const char *)docs[i], lengths[i], &decoded[i]);
                if (!decoded[i]) { fprintf(stderr, "libplist could not read document %u\n", i); return 1; }
            }
        }
        double elapsed = now() - start;
        if (round >= 0) times[round] = elapsed; else out_bytes = total;
        for (uint32_t i = 0; i < count; i++) { if (decoded[i]) plist_free(decoded[i]); free(outputs[i]); }
        free(decoded);
        free(outputs);
    }
    qsort(times, iterations, sizeof *times, compare);
    double median = iterations % 2 ? times[iterations / 2] : (times[iterations / 2 - 1] + times[iterations / 2]) / 2;
    const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    printf("{\"peer\":\"libplist\",\"op\":\"%s\",\"format\":\"%s\",\"file\":\"%s\",\"iters\":%d,\"messages\":%u,\"bytes\":%ld,"
           "\"median_s\":%.9g,\"min_s\":%.9g,\"max_s\":%.9g,\"out_bytes\":%ld}\n",
           op, format, name, iterations, count, size, median, times[0], times[iterations - 1], out_bytes);
    return 0;
}
