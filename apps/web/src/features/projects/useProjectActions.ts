import { App } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SharePermission } from '@crp/contracts';
import {
  deleteProject,
  downloadCsvReport,
  downloadProjectGis,
  renameProject,
  shareProject,
  summaryReport,
  type CsvReportInput,
  type PhysicalProject,
} from '../../api/projects';
import { ApiError, firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { readUserId } from '../../lib/storage';
import { openFileLink, saveBlob } from '../../lib/openFileLink';

/** The `Error` text of a rename 400 (spec 000 §8), else the detail. */
export function renameErrorText(err: unknown): string {
  if (err instanceof ApiError && err.body && typeof err.body === 'object') {
    const b = err.body as { Error?: unknown; errors?: unknown };
    if (typeof b.Error === 'string') return b.Error;
    if (b.errors && typeof b.errors === 'object' && !Array.isArray(b.errors) && typeof (b.errors as { Error?: unknown }).Error === 'string') {
      return (b.errors as { Error: string }).Error;
    }
  }
  return firstErrorMessage(err, 'The project could not be renamed. Try again.');
}

/** The `error` text of a download_csv_report 400, else the detail. */
export function csvErrorText(err: unknown): string {
  if (err instanceof ApiError && err.body && typeof err.body === 'object') {
    const e = (err.body as { error?: unknown }).error;
    if (typeof e === 'string' && e) return e;
    if (Array.isArray(e) && e.length) return e.map(String).join(' ');
  }
  return firstErrorMessage(err, 'The analysis result could not be prepared. Try again.');
}

export function useProjectActions() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const userId = readUserId() ?? 0;
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.projects });

  const rename = useMutation({
    mutationFn: ({ oldname, name }: { oldname: string; name: string }) => renameProject(userId, oldname, name),
    onSuccess: (res) => {
      void message.success(res.detail || 'Project renamed');
      void refresh();
    },
  });

  const remove = useMutation({
    mutationFn: (p: PhysicalProject) => deleteProject(userId, p.name),
    onSuccess: (res) => {
      void message.success(res.detail || 'Project deleted');
      void refresh();
    },
    onError: (err) => void message.error(firstErrorMessage(err, 'The project could not be deleted. Try again.')),
  });

  const share = useMutation({
    mutationFn: ({ projectId, userIds, permission }: { projectId: number; userIds: number[]; permission: SharePermission }) =>
      shareProject(projectId, userIds, permission),
    onSuccess: (res) => {
      void message.success(res.detail || 'Project shared');
      void refresh();
    },
  });

  const csv = useMutation({
    mutationFn: (input: CsvReportInput) => downloadCsvReport(input),
    onSuccess: (res) => {
      if (res.url && !res.error) {
        openFileLink(res.url);
        void message.success(`Analysis result ready (${res.rows} rows); the download has started.`);
      }
    },
  });

  const gis = useMutation({
    mutationFn: ({ projectId, format }: { projectId: number; format: 'geojson' | 'gpkg' }) => downloadProjectGis(projectId, format),
    onSuccess: (f) => saveBlob(f.blob, f.fileName),
    onError: (err) => void message.error(firstErrorMessage(err, 'The GIS file could not be prepared. Try again.')),
  });

  const summary = useMutation({
    mutationFn: (p: PhysicalProject) => summaryReport(p.name, p.default_filters.analysis_type),
    onSuccess: (res) => {
      openFileLink(res.url);
      void message.success('Summary report ready; the download has started.');
    },
    onError: (err) => void message.error(firstErrorMessage(err, 'The summary report could not be prepared. Try again.')),
  });

  return { rename, remove, share, csv, summary, gis };
}
