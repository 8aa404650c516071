import { Button } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { PLAN_INCLUDES, tiersAbove, type Tier } from '@crp/contracts';
import { useTierData } from '../lib/useTierData';
import { useUpgradeRequest } from '../lib/useUpgradeRequest';

/** The spec's placeholder text for a section the tier does not allow (spec 001 §6). */
export const UPGRADE_TEXT = 'Please upgrade tier to see content';

/**
 * A locked panel (issue 37 item 1): the spec's text, what the company's plan includes and what the next plan adds, one
 * line each, and "Request upgrade" (or the pending request's date). `compact` for a table cell or a narrow card.
 */
export function UpgradePanel({ compact = false }: { compact?: boolean }) {
  const tier: Tier = useTierData()?.tier ?? 'free';
  const next = tiersAbove(tier)[0] ?? null;
  const { pending, ask, asking } = useUpgradeRequest();
  return (
    <div className={compact ? 'crp-upgrade crp-upgrade-compact' : 'crp-upgrade'} data-testid="upgrade-placeholder">
      <div className="crp-upgrade-title">
        <LockOutlined aria-hidden /> {UPGRADE_TEXT}
      </div>
      {!compact && (
        <div className="crp-upgrade-plans">
          <div>{PLAN_INCLUDES[tier]}</div>
          {next && <div>{PLAN_INCLUDES[next]}</div>}
        </div>
      )}
      {next &&
        (pending ? (
          <div className="crp-upgrade-pending" data-testid="upgrade-pending">
            Upgrade to {pending.tier} requested on {pending.created_at.slice(0, 10)}
            {pending.requested_by ? ` by ${pending.requested_by}` : ''}: an operator will answer it.
          </div>
        ) : (
          <Button type="primary" size={compact ? 'small' : 'middle'} loading={asking} onClick={() => ask(next)} data-testid="request-upgrade">
            Request upgrade
          </Button>
        ))}
    </div>
  );
}
