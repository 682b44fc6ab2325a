/**
 * A seeded pseudo-random sequence (mulberry32): the same seed gives the same numbers in
 * [0, 1) on every machine and run. For whatever must repeat exactly: the simulator's seed
 * data, the mutants' sample (proof/mutants), the hostile receiver run's interleaving.
 * Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
