import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import type { Tier } from '@crp/contracts';
import { firstErrorMessage } from '../api/http';
import { queryKeys } from '../api/queryKeys';
import { fetchUpgradeRequests, requestUpgrade, type UpgradeRequest } from '../api/upgradeRequests';
import { useAuth } from './AuthProvider';

/**
 * The company's upgrade request (issue 37 item 1): the pending one, if any, and a mutation that asks for a tier. Every
 * locked panel shares the query, so a request made on one panel shows as pending on all of them.
 */
export function useUpgradeRequest(): { pending: UpgradeRequest | null; ask: (tier: Tier) => void; asking: boolean } {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: queryKeys.upgradeRequests, queryFn: fetchUpgradeRequests, staleTime: 30_000 });
  // an operator's list holds every company's requests: only the caller's company's count here
  const code = useAuth().user?.company_code;
  const mine = (list.data?.requests ?? []).filter((r) => r.company_code === code);
  const ask = useMutation({
    mutationFn: (tier: Tier) => requestUpgrade({ tier }),
    onSuccess: (r) => void message.success(r.detail),
    onError: (err: unknown) => void message.error(firstErrorMessage(err, 'The upgrade request could not be sent. Try again.')),
    onSettled: () => void qc.invalidateQueries({ queryKey: queryKeys.upgradeRequests }),
  });
  return { pending: mine.find((r) => r.status === 'pending') ?? null, ask: (tier) => ask.mutate(tier), asking: ask.isPending };
}
