import { useCallback, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { assetLimitMessage, isAssetLimitMessage, type AnalysisType, type ProjectStatus } from '@crp/contracts';
import { fetchPermissions } from '../../api/accounts';
import { ApiError, firstErrorMessage, type UploadProgress } from '../../api/http';
import { createPortfolio, createPortfolioFromFile, updateDefaultFilter, type CreatePortfolioFileInput, type CreatePortfolioInput } from '../../api/locations';
import { queryKeys } from '../../api/queryKeys';
import { readUserId } from '../../lib/storage';

/** A large upload: the file is sent itself; `rows` (counted in the browser) is checked against the asset allowance. */
export type FileSubmission = CreatePortfolioFileInput & { rows: number };

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
  const [upload, setUpload] = useState<UploadProgress | null>(null);

  const mutation = useMutation({
    mutationFn: async ({ input, analysisType }: { input: CreatePortfolioInput | FileSubmission; analysisType?: AnalysisType }) => {
      const userId = readUserId();
      const mode = 'mode' in input ? input.mode : undefined;
      if (userId !== null && mode !== 'add') {
        const perms = await queryClient.fetchQuery({ queryKey: queryKeys.permissions(userId), queryFn: () => fetchPermissions(userId), staleTime: 60_000 });
        if (('file' in input ? input.rows : input.data.length) > perms.assets_allowed) {
          throw new ApiError(400, { detail: assetLimitMessage(perms.assets_allowed), code: 'asset_limit' });
        }
      }
      if ('file' in input) setUpload({ sent: 0, total: input.file.size });
      const res = 'file' in input ? await createPortfolioFromFile(input, setUpload) : await createPortfolio(input);
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
      setUpload(null);
    },
  });

  const submit = useCallback(
    (input: CreatePortfolioInput | FileSubmission, analysisType?: AnalysisType) => {
      if (inFlight.current || mutation.isPending) return;
      inFlight.current = true;
      setProblem(null);
      mutation.mutate({ input, analysisType });
    },
    [mutation],
  );

  // `upload`: the bytes sent of a large upload while it is submitted (null otherwise).
  return { submit, submitting: mutation.isPending, upload, problem, clearProblem: () => setProblem(null), created, reset: () => setCreated(null) };
}
