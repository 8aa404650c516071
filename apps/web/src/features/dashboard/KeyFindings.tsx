import type { DashboardData } from '../../api/dashboard';
import { money } from '../../lib/format';
import { INFO } from './infoTexts';
import { InfoButton, Section } from './Section';

function change(v: number | null): string {
  if (v === null) return 'n/a';
  return `${v > 0 ? '+' : ''}${v.toFixed(2)} %`;
}

/** Key findings: 20-year expected loss at 8.5 and 2.6, the value of transition policies and 20-year expected loss growth by 2030/2050/2100. */
export function KeyFindings({ data }: { data: DashboardData }) {
  const k = data.key_finding_data;
  const scen = data.filters.analysis_type === 'rcp' ? 'RCP' : 'SSP';
  if (!k) return <Section testId="section-key-findings" title="Key findings" info={INFO.keyFindings} locked />;
  return (
    <Section testId="section-key-findings" title="Key findings" info={INFO.keyFindings}>
      <dl className="crp-dash-findings">
        <div>
          <dt>20-year expected loss under {scen} 8.5</dt>
          <dd>{money(k.cvar_85)}</dd>
        </div>
        <div>
          <dt>20-year expected loss under {scen} 2.6</dt>
          <dd>{money(k.cvar_26)}</dd>
        </div>
        <div>
          <dt>
            Value of transition policies <InfoButton title={INFO.transitionPolicies!.title}>{INFO.transitionPolicies!.body}</InfoButton>
          </dt>
          <dd>{money(k.value_of_transition_policies)}</dd>
        </div>
        {(
          [
            ['2030', k.increased_by_2030],
            ['2050', k.increased_by_2050],
            ['2100', k.increased_by_2100],
          ] as const
        ).map(([y, v]) => (
          <div key={y}>
            <dt>20-year expected loss change by {y}</dt>
            <dd className={v !== null && v > 0 ? 'crp-dash-up' : undefined}>{change(v)}</dd>
          </div>
        ))}
      </dl>
      <p className="crp-muted crp-small">
        Changes compare 20-year expected loss with the 2020 window (
        {data.filters.analysis_type === 'rcp' ? 'RCP has no 2100 series' : 'year-9 to year+10; for 2100 year-19 to year'}).
      </p>
    </Section>
  );
}
