/* libplist's side of the benchmark protocol (Benchmarks/README.md).
 *   libplist_bench OP FORMAT FILE ITERS     OP: decode | encode
 * plist_from_bin / plist_from_xml to decode, plist_to_bin / plist_to_xml to
 * encode; same JSON line as plistkit-bench. */
#include <plist/plist.h>
#include "bench_harness.h"

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: libplist_bench decode|encode binary|xml FILE ITERS\n"); return 2; }
    const char *op = argv[1], *format = argv[2], *file = argv[3];
    int iterations = atoi(argv[4]), xml = strcmp(format, "xml") == 0, encode = strcmp(op, "encode") == 0;
    struct bench_input input;
    if (bench_load(file, &input) != 0) return 1;
    uint32_t count = input.count;
    const unsigned char **docs = input.docs;
    uint32_t *lengths = input.lengths;
    long size = input.size;

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
        double start = bench_now();
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
        double elapsed = bench_now() - start;
        if (round >= 0) times[round] = elapsed; else out_bytes = total;
        for (uint32_t i = 0; i < count; i++) { if (decoded[i]) plist_free(decoded[i]); free(outputs[i]); }
        free(decoded);
        free(outputs);
    }
    double median = bench_median(times, iterations);
    const char *name = bench_name(file);
    printf("{\"peer\":\"libplist\",\"op\":\"%s\",\"format\":\"%s\",\"file\":\"%s\",\"iters\":%d,\"messages\":%u,\"bytes\":%ld,"
           "\"median_s\":%.9g,\"min_s\":%.9g,\"max_s\":%.9g,\"out_bytes\":%ld}\n",
           op, format, name, iterations, count, size, median, times[0], times[iterations - 1], out_bytes);
    return 0;
}
