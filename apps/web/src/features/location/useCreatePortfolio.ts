import { useCallback, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { assetLimitMessage, isAssetLimitMessage, type AnalysisType, type ProjectStatus } from '@crp/contracts';
import { fetchPermissions } from '../../api/accounts';
import { ApiError, firstErrorMessage } from '../../api/http';
import { createPortfolio, updateDefaultFilter, type CreatePortfolioInput } from '../../api/locations';
import { queryKeys } from '../../api/queryKeys';
import { readUserId } from '../../lib/storage';

export type SubmitProblem = { kind: 'limit'; message: string } | { kind: 'rows'; title: string; lines: string[] };

/** Turns a create_project failure into the dialog to show (spec 000 §8: asset limit, upload errors). */
export function submitProblemOf(err: unknown): SubmitProblem {
  if (err instanceof ApiError) {
    const body = (err.body ?? {}) as { error?: unknown; code?: unknown };
    if (body.code === 'asset_limit' || (err.detail && isAssetLimitMessage(err.detail))) return { kind: 'limit', message: err.detail ?? 'Asset limit reached' };
    const list = Array.isArray(body.error) ? body.error.map(String) : typeof body.error === 'string' ? [body.error] : [];
    const lines = list.length ? list : err.errors.length ? err.errors.map((e) => e.message) : [err.detail ?? `The server answered ${err.status}.`];
    return { kind: 'rows', title: err.status >= 500 ? 'Server Error' : 'The portfolio could not be created', lines };
  }
  return { kind: 'rows', title: 'The portfolio could not be created', lines: [firstErrorMessage(err, 'Check your connection and try again.')] };
}

/**
 * Submits a portfolio once (guarded against double submit), after checking the asset allowance; returns the
 * created project for the progress view, or the problem to show.
 */
export function useCreatePortfolio() {
  const queryClient = useQueryClient();
  const inFlight = useRef(false);
  const [problem, setProblem] = useState<SubmitProblem | null>(null);
  const [created, setCreated] = useState<ProjectStatus | null>(null);

  const mutation = useMutation({
    mutationFn: async ({ input, analysisType }: { input: CreatePortfolioInput; analysisType?: AnalysisType }) => {
      const userId = readUserId();
      if (userId !== null && input.mode !== 'add') {
        const perms = await queryClient.fetchQuery({ queryKey: queryKeys.permissions(userId), queryFn: () => fetchPermissions(userId), staleTime: 60_000 });
        if (input.data.length > perms.assets_allowed) {
          throw new ApiError(400, { detail: assetLimitMessage(perms.assets_allowed), code: 'asset_limit' });
        }
      }
      const res = await createPortfolio(input);
      if (analysisType) {
        // The analysis type chosen with the hazards becomes the project's default filter (best effort).
        await updateDefaultFilter(res.project.project_id, { analysis_type: analysisType, scenario: '45', year: 2050 }).catch((e: unknown) =>
          console.warn('Default filter not saved', e),
        );
      }
      return res;
    },
    onSuccess: (res) => {
      setCreated(res.project);
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects });
    },
    onError: (err) => setProblem(submitProblemOf(err)),
    onSettled: () => {
      inFlight.current = false;
    },
  });

  const submit = useCallback(
    (input: CreatePortfolioInput, analysisType?: AnalysisType) => {
      if (inFlight.current || mutation.isPending) return;
      inFlight.current = true;
      setProblem(null);
      mutation.mutate({ input, analysisType });
    },
    [mutation],
  );

  return { submit, submitting: mutation.isPending, problem, clearProblem: () => setProblem(null), created, reset: () => setCreated(null) };
}
