import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../api/http';
import { updateAssets, type AssetRow, type UpdateAssetsResult } from '../../api/dashboard';
import { changedCount, editRows, validateDraft, type AssetColumn, type CellValue, type Draft } from './assetColumns';

export type SaveProblem = { kind: 'conflict' | 'forbidden' | 'invalid' | 'error'; message: string };

/**
 * Edit All / Save All / Cancel of the asset table (spec 001 §4): drafts hold the touched cells; Save All validates
 * every touched cell (nothing is sent on failure), then sends all rows with the project version.
 */
export function useAssetTableEdit({
  rows,
  cols,
  projectId,
  version,
  onSaved,
}: {
  rows: AssetRow[];
  cols: AssetColumn[];
  projectId: number;
  version: number;
  onSaved: (r: UpdateAssetsResult) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Draft>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<SaveProblem | null>(null);

  const save = useMutation({
    mutationFn: () => updateAssets(projectId, version, editRows(rows, draft)),
    onSuccess: (r) => {
      setEditing(false);
      setDraft({});
      setErrors({});
      setProblem(null);
      onSaved(r);
    },
    onError: (err) => {
      console.error('Asset save failed', err);
      if (err instanceof ApiError && err.status === 409)
        setProblem({
          kind: 'conflict',
          message: err.detail ?? 'Someone else saved this portfolio since you loaded it. Reload the page to see their changes, then edit again.',
        });
      else if (err instanceof ApiError && err.status === 403)
        setProblem({ kind: 'forbidden', message: err.detail ?? 'You may not edit one of the changed columns.' });
      else if (err instanceof ApiError && err.status === 400) {
        setProblem({ kind: 'invalid', message: err.errors[0]?.message && err.detail ? err.detail : (err.detail ?? 'The server refused a value.') });
        // Field paths look like assets.{row}.{column}: mark that cell.
        const cellErrors: Record<string, string> = {};
        for (const e of err.errors) {
          const m = /^assets\.(\d+)\.(\w+)$/.exec(e.field);
          const row = m ? rows[Number(m[1])] : undefined;
          if (m && row) cellErrors[`${row.id}:${m[2]}`] = e.message;
        }
        if (Object.keys(cellErrors).length) setErrors(cellErrors);
      } else setProblem({ kind: 'error', message: err instanceof ApiError && err.detail ? err.detail : 'The assets could not be saved. Try again.' });
    },
  });

  const startEdit = () => {
    setEditing(true);
    setDraft({});
    setErrors({});
    setProblem(null);
  };
  const cancel = () => {
    setEditing(false);
    setDraft({});
    setErrors({});
    setProblem(null);
  };
  const setCell = (id: number, key: keyof AssetRow, v: CellValue) => {
    setDraft((d) => ({ ...d, [id]: { ...d[id], [key]: v } }));
    setErrors((e) => {
      const k = `${id}:${key}`;
      if (!(k in e)) return e;
      const next = { ...e };
      delete next[k];
      return next;
    });
  };
  /** Returns the first invalid cell (to show its page) or null after sending. */
  const saveAll = (): string | null => {
    const errs = validateDraft(rows, draft, cols);
    setErrors(errs);
    const first = Object.keys(errs)[0] ?? null;
    if (first) {
      console.warn('Asset table validation failed', errs);
      return first;
    }
    setProblem(null);
    save.mutate();
    return null;
  };

  return { editing, draft, errors, problem, setProblem, saving: save.isPending, startEdit, cancel, setCell, saveAll, changed: changedCount(rows, draft) };
}
