import { PERILS_NOT_MODELLED, PERILS_NOT_MODELLED_SHARE } from '@crp/contracts';

/**
 * What the losses leave out (issue 35 item 4): the perils no hazard models and the share of published global losses
 * they carry, from the one statement in @crp/contracts that the reports and exports print too.
 */
export function NotModelledNote({ testId = 'not-modelled' }: { testId?: string }) {
  return (
    <aside className="crp-not-modelled" data-testid={testId} aria-label="Perils not modelled">
      <strong>Not modelled:</strong> {PERILS_NOT_MODELLED.map((p) => `${p.name.toLowerCase()} (${p.note})`).join('; ')}.{' '}
      <span className="crp-muted">{PERILS_NOT_MODELLED_SHARE} The losses shown leave these perils out.</span>
    </aside>
  );
}
