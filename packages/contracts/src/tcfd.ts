import { z } from 'zod';

/**
 * The TCFD report's text that only the organisation can write (issue 23 item 6), kept per physical project on the
 * server: `GET /api/v2/tcfd_narrative/{projectId}/` (anyone with access) and `PUT` (owner or write access).
 */
export const TCFD_NOTE_KEYS = ['governance_board', 'governance_management', 'risk_integration', 'targets'] as const;
export type TcfdNoteKey = (typeof TCFD_NOTE_KEYS)[number];
/** Characters per note: a few pages of text, far more than a disclosure paragraph needs. */
export const TCFD_NOTE_MAX = 10_000;

const note = (key: TcfdNoteKey) =>
  z.string({ error: `${key} must be text` }).max(TCFD_NOTE_MAX, `${key} is longer than ${TCFD_NOTE_MAX.toLocaleString('en-US')} characters`);

/** A change: only the fields sent are replaced. */
export const TcfdNarrativeBody = z.object({
  governance_board: note('governance_board').optional(),
  governance_management: note('governance_management').optional(),
  risk_integration: note('risk_integration').optional(),
  targets: note('targets').optional(),
  carbon_analysis: z
    .string({ error: 'carbon_analysis must be a carbon project name or null' })
    .trim()
    .max(200, 'carbon_analysis is longer than 200 characters')
    .nullable()
    .optional()
    .describe('Name of the carbon (transition) analysis whose financed emissions the report shows; null unlinks'),
});
export type TcfdNarrativeBody = z.infer<typeof TcfdNarrativeBody>;

export const TcfdNarrative = z.object({
  project_id: z.number().int(),
  governance_board: z.string(),
  governance_management: z.string(),
  risk_integration: z.string(),
  targets: z.string(),
  carbon_analysis: z.string().nullable(),
  updated_at: z.string().nullable().describe('ISO time of the last change; null when nothing was written yet'),
  updated_by: z.string().nullable().describe('Who made the last change (first and last name)'),
});
export type TcfdNarrative = z.infer<typeof TcfdNarrative>;
