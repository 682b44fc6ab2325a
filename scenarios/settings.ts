/**
 * The scenario settings that lived here (data-exchange identities, institution facts,
 * query names) are now sections of the target profile (targets/profiles/sections.ts,
 * issue 13: one profile, the only reader of SVC_* variables): read them as
 * `profile.dataExchange`, `profile.institutions`, `profile.achFilters`.
 *
 * Kept only for scenarios/fuzz/lib/chains.ts, which is outside this change: once it
 * reads `p.dataExchange`, delete this file.
 */
import type { DataExchangeSettings, TargetProfile } from '../targets/index.ts';

export function dataExchangeSettings(profile: TargetProfile): DataExchangeSettings {
  return profile.dataExchange;
}
