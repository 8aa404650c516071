import { Empty } from 'antd';
import { ButtonLink } from '../../ui/ButtonLink';

/** Transition projects arrive with the transition module; until then an honest empty state. */
export function TransitionProjectsTab() {
  return (
    <Empty className="crp-empty" description="No transition projects yet" data-testid="transition-empty">
      <p className="crp-muted">Carbon analyses of financial portfolios will be listed here.</p>
      <ButtonLink type="primary" to="/transition">
        Start a transition analysis
      </ButtonLink>
    </Empty>
  );
}
