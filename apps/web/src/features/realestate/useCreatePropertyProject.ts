import { useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isAssetLimitMessage, type PropertyRiskResponse } from '@crp/contracts';
import { ApiError, firstErrorMessage } from '../../api/http';
import { fetchProjectStatus } from '../../api/projects';
import { queryKeys } from '../../api/queryKeys';
import { computePropertyRisk, fetchPropertyRisk, type PropertyRiskComputeInput } from '../../api/realestate';

export type CreateProblem = { kind: 'limit'; message: string } | { kind: 'error'; lines: string[] };

function problemOf(err: unknown): CreateProblem {
  if (err instanceof ApiError) {
    const body = (err.body ?? {}) as { error?: unknown; code?: unknown };
    if (body.code === 'asset_limit' || (err.detail && isAssetLimitMessage(err.detail))) return { kind: 'limit', message: err.detail ?? 'Asset limit reached' };
    const list = Array.isArray(body.error) ? body.error.map(String) : [];
    return { kind: 'error', lines: list.length ? list : [firstErrorMessage(err, `The server answered ${err.status}.`)] };
  }
  return { kind: 'error', lines: [err instanceof Error ? err.message : 'Check your connection and try again.'] };
}

/** Creates a property-risk project, follows its job until done, then hands back the fetched rows. */
export function useCreatePropertyProject(onDone: (res: PropertyRiskResponse) => void) {
  const queryClient = useQueryClient();
  const [submitting, setSubmitting] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  const [problem, setProblem] = useState<CreateProblem | null>(null);
  const inFlight = useRef(false);

  const submit = useCallback(
    async (input: PropertyRiskComputeInput) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setSubmitting(true);
      setProblem(null);
      try {
        const created = await computePropertyRisk(input);
        setProgress(created.project.message ?? 'Queued');
        for (;;) {
          const st = await fetchProjectStatus(created.project.project_id);
          setProgress(st.message ?? st.status);
          if (st.status === 'failed') throw new Error(st.message ?? 'The property-risk computation failed.');
          if (st.status === 'done') break;
          await new Promise((r) => setTimeout(r, 500));
        }
        const res = await fetchPropertyRisk(created.project.name);
        queryClient.setQueryData(queryKeys.propertyRisk(res.project_name), res);
        void queryClient.invalidateQueries({ queryKey: queryKeys.propertyRiskProjects });
        onDone(res);
      } catch (err) {
        console.error('Property-risk project failed', err);
        setProblem(problemOf(err)); // the spinner stops (spec 001 §8 "Create dialog with an error")
      } finally {
        inFlight.current = false;
        setSubmitting(false);
        setProgress(null);
      }
    },
    [onDone, queryClient],
  );

  const clearProblem = useCallback(() => setProblem(null), []);
  return { submit, submitting, progress, problem, clearProblem };
}
