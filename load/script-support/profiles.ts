/**
 * Named load profiles (the k6 examples' "one lib file" pattern): how hard and how long a
 * script drives the target. Rates are multiples of the target's expected rate limit
 * (Limits: "Request rate limit values: not shown", so the limit is a profile setting,
 * SVC_RATE_LIMIT_PER_SECOND). Every profile is bounded in time and iterations.
 */
export type ProfileName = 'smoke' | 'average' | 'stress' | 'spike';

export interface LoadProfile {
  name: ProfileName;
  description: string;
  /** Open-model executor of the over-the-limit phase. */
  executor: 'constant-arrival-rate' | 'ramping-arrival-rate';
  /** Length of each rate phase, seconds. */
  phaseSeconds: number;
  /** Rate of the below-the-limit phase, as a fraction of the expected limit. */
  belowLimitFactor: number;
  /** Rate (peak for ramping) of the over-the-limit phase, as a multiple of the expected limit. */
  aboveLimitFactor: number;
  /** Concurrent VUs of the closed-model scenarios (page walks). */
  vus: number;
  /** Iterations (complete page walks) per VU. */
  iterations: number;
  /** Ceiling of VUs an arrival-rate scenario may allocate. */
  maxVUs: number;
  /** records_per_page of the concurrent page walks. */
  pageSize: number;
}

const PROFILES: Record<ProfileName, LoadProfile> = {
  smoke: {
    name: 'smoke',
    description: 'a few seconds, proves the script and the target work',
    executor: 'constant-arrival-rate',
    phaseSeconds: 2,
    belowLimitFactor: 0.5,
    aboveLimitFactor: 3,
    vus: 2,
    iterations: 1,
    maxVUs: 40,
    pageSize: 500,
  },
  average: {
    name: 'average',
    description: 'typical integration traffic, tens of seconds',
    executor: 'constant-arrival-rate',
    phaseSeconds: 10,
    belowLimitFactor: 0.7,
    aboveLimitFactor: 2,
    vus: 4,
    iterations: 2,
    maxVUs: 60,
    pageSize: 250,
  },
  stress: {
    name: 'stress',
    description: 'well past the limit for longer, many concurrent walkers',
    executor: 'constant-arrival-rate',
    phaseSeconds: 20,
    belowLimitFactor: 0.9,
    aboveLimitFactor: 4,
    vus: 8,
    iterations: 3,
    maxVUs: 100,
    pageSize: 100,
  },
  spike: {
    name: 'spike',
    description: 'a sudden ramp far past the limit and back',
    executor: 'ramping-arrival-rate',
    phaseSeconds: 6,
    belowLimitFactor: 0.5,
    aboveLimitFactor: 6,
    vus: 12,
    iterations: 1,
    maxVUs: 100,
    pageSize: 250,
  },
};

/**
 * The named profile, with PHASE_SECONDS (1..60) overriding its phase length: the tests
 * and quick local checks use shorter phases than the smoke profile's.
 */
export function profileByName(name: string | undefined, phaseSeconds?: string): LoadProfile {
  const key = (name ?? 'smoke') as ProfileName;
  const p = PROFILES[key];
  if (!p) throw new Error(`PROFILE "${name}" is not a load profile; choose one of ${Object.keys(PROFILES).join(', ')}`);
  if (phaseSeconds === undefined || phaseSeconds === '') return p;
  const n = Number(phaseSeconds);
  if (!Number.isFinite(n) || n < 1 || n > 60) throw new Error(`PHASE_SECONDS must be a number of seconds from 1 to 60, got "${phaseSeconds}"`);
  return { ...p, phaseSeconds: n };
}
