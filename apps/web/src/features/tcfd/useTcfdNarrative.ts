import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TCFD_NOTE_KEYS, type TcfdNoteKey } from '@crp/contracts';
import { ApiError } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { fetchTcfdNarrative, saveTcfdNarrative, type TcfdNarrative, type TcfdNarrativeBody } from '../../api/tcfd';
import { readPreference, writePreference } from '../../lib/storage';

/** Typing pauses this long before the text is saved. */
const SAVE_AFTER_MS = 800;

export type SaveState = 'idle' | 'saving' | 'saved' | 'read-only' | 'failed';

/** Local-storage keys of the notes and carbon link before they moved to the server (issue 23). */
const legacyKeys = (projectId: number) => ({ notes: `tcfd_notes_${projectId}`, carbon: `tcfd_carbon_${projectId}` });

/** What this browser kept before the text moved to the server: sent once when the server has nothing yet. */
function legacyText(projectId: number): TcfdNarrativeBody | null {
  const keys = legacyKeys(projectId);
  const body: TcfdNarrativeBody = {};
  try {
    const notes = JSON.parse(readPreference(keys.notes) ?? '{}') as Partial<Record<TcfdNoteKey, unknown>>;
    for (const k of TCFD_NOTE_KEYS) if (typeof notes[k] === 'string' && (notes[k] as string).trim()) body[k] = notes[k] as string;
  } catch {
    // unreadable: nothing to bring over
  }
  const carbon = readPreference(keys.carbon);
  if (carbon) body.carbon_analysis = carbon;
  return Object.keys(body).length ? body : null;
}

/**
 * The TCFD report's own text on the server (shared by everyone with access to the portfolio): the notes as typed, a
 * save a moment after typing stops, and the save state to show. A reader's edits are refused by the server (403):
 * the state turns read-only and nothing more is sent.
 */
export function useTcfdNarrative(projectId: number) {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: queryKeys.tcfdNarrative(projectId), queryFn: ({ signal }) => fetchTcfdNarrative(projectId, signal) });
  const [draft, setDraft] = useState<TcfdNarrative | null>(null);
  const [state, setState] = useState<SaveState>('idle');
  const pending = useRef<TcfdNarrativeBody>({});
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const readOnly = useRef(false);

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const body = pending.current;
    pending.current = {};
    if (!Object.keys(body).length || readOnly.current) return;
    setState('saving');
    try {
      const saved = await saveTcfdNarrative(projectId, body);
      qc.setQueryData(queryKeys.tcfdNarrative(projectId), saved);
      setState(Object.keys(pending.current).length ? 'saving' : 'saved');
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) {
        readOnly.current = true;
        setState('read-only');
      } else {
        pending.current = { ...body, ...pending.current }; // kept for the next try
        setState('failed');
      }
    }
  }, [projectId, qc]);

  // The first answer fills the draft; this browser's old local text is brought over once if the server has none.
  useEffect(() => {
    if (!query.data || draft) return;
    setDraft(query.data);
    if (query.data.updated_at === null) {
      const legacy = legacyText(projectId);
      if (legacy) {
        setDraft({ ...query.data, ...legacy, carbon_analysis: legacy.carbon_analysis ?? query.data.carbon_analysis });
        pending.current = legacy;
        void flush().then(() => {
          const keys = legacyKeys(projectId);
          if (!readOnly.current && !Object.keys(pending.current).length) {
            writePreference(keys.notes, '');
            writePreference(keys.carbon, '');
          }
        });
      }
    }
  }, [query.data, draft, projectId, flush]);

  // Unsaved text is sent when the report closes.
  useEffect(() => () => void flush(), [flush]);

  const set = useCallback(
    (change: TcfdNarrativeBody) => {
      setDraft((d) => (d ? ({ ...d, ...change } as TcfdNarrative) : d));
      if (readOnly.current) return;
      pending.current = { ...pending.current, ...change };
      setState('saving');
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), SAVE_AFTER_MS);
    },
    [flush],
  );

  return { narrative: draft, loading: query.isLoading, error: query.error, state, set };
}
