import { useEffect, useState } from 'react';
import { TIER_DATA_UPDATED_EVENT, STORAGE_KEYS, type TierData } from '@crp/contracts';
import { readTierData } from './storage';

/** Tier data from storage, reloaded whenever the tier-data-updated event fires (or another tab changes it). */
export function useTierData(): TierData | null {
  const [tierData, setTierData] = useState<TierData | null>(() => readTierData());
  useEffect(() => {
    const reload = () => setTierData(readTierData());
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || e.key === STORAGE_KEYS.tierData) reload();
    };
    window.addEventListener(TIER_DATA_UPDATED_EVENT, reload);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener(TIER_DATA_UPDATED_EVENT, reload);
      window.removeEventListener('storage', onStorage);
    };
  }, []);
  return tierData;
}
