/* The simulator's pseudo-random numbers: one generator per run, seeded from the scenario,
 * so faults and jitter repeat exactly for the same seed, natively and in wasm.
 *
 * SplitMix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number generators",
 * OOPSLA 2014): 64-bit state, one add and three xor-shift-multiplies per number, integer
 * only, so every platform gives the same sequence. Probabilities are parts per million and
 * ranges are drawn with a multiply-shift, never with floating point.
 */
#ifndef SIM_RNG_H
#define SIM_RNG_H

#include <stdint.h>

struct sim_rng {
    uint64_t state;
};

static inline void sim_rng_seed(struct sim_rng *r, uint64_t seed)
{
    r->state = seed;
}

static inline uint64_t sim_rng_next(struct sim_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number in 0 .. n - 1 (n > 0), from the high 32 bits (Lemire's multiply-shift; the bias
 * is below n / 2^32, far under anything a scenario can see). */
static inline uint32_t sim_rng_below(struct sim_rng *r, uint32_t n)
{
    return (uint32_t)(((sim_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* 1 with probability ppm / 1 000 000. Draws a number even when ppm is 0 or 10^6, so that
 * changing one probability does not shift every later draw of the run. */
static inline int sim_rng_chance_ppm(struct sim_rng *r, uint32_t ppm)
{
    return sim_rng_below(r, 1000000u) < ppm;
}

#endif
