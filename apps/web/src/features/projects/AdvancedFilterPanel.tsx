import { Button, Card, Checkbox, Col, Input, Row, Select, Switch } from 'antd';
import { HAZARDS } from '@crp/contracts';
import { EMPTY_FILTERS, type ProjectFilters, type ProjectSort, type ScoreBand } from './projectFilters';

const SORTS: { value: ProjectSort; label: string }[] = [
  { value: 'date-desc', label: 'Newest first' },
  { value: 'date-asc', label: 'Oldest first' },
  { value: 'name-asc', label: 'Name A-Z' },
  { value: 'name-desc', label: 'Name Z-A' },
  { value: 'score-desc', label: 'Highest climate score' },
  { value: 'score-asc', label: 'Lowest climate score' },
];

const BANDS: { value: ScoreBand; label: string }[] = [
  { value: 'low', label: 'Low (below 20)' },
  { value: 'medium', label: 'Medium (20 to 60)' },
  { value: 'high', label: 'High (60 or more)' },
  { value: 'pending', label: 'Not analysed yet' },
];

export function AdvancedFilterPanel({ value, onChange }: { value: ProjectFilters; onChange: (f: ProjectFilters) => void }) {
  const set = <K extends keyof ProjectFilters>(k: K, v: ProjectFilters[K]) => onChange({ ...value, [k]: v });
  return (
    <Card className="crp-card crp-filter-panel" size="small" data-testid="advanced-filter">
      <Row gutter={[16, 12]}>
        <Col xs={24} md={8}>
          <label className="crp-field-label" htmlFor="filter-name">
            Name
          </label>
          <Input id="filter-name" allowClear placeholder="Search project names" value={value.search} onChange={(e) => set('search', e.target.value)} />
        </Col>
        <Col xs={12} md={4}>
          <label className="crp-field-label" htmlFor="filter-from">
            Created from
          </label>
          <Input id="filter-from" type="date" value={value.from ?? ''} onChange={(e) => set('from', e.target.value || null)} />
        </Col>
        <Col xs={12} md={4}>
          <label className="crp-field-label" htmlFor="filter-to">
            Created to
          </label>
          <Input id="filter-to" type="date" value={value.to ?? ''} onChange={(e) => set('to', e.target.value || null)} />
        </Col>
        <Col xs={24} md={8}>
          <label className="crp-field-label" htmlFor="filter-sort">
            Sort by
          </label>
          <Select id="filter-sort" className="crp-full-width" value={value.sort} onChange={(v) => set('sort', v)} options={SORTS} />
        </Col>
        <Col xs={24} md={10}>
          <div className="crp-field-label">Climate score</div>
          <Checkbox.Group value={value.bands} onChange={(v) => set('bands', v as ScoreBand[])} options={BANDS} />
        </Col>
        <Col xs={24} md={8}>
          <label className="crp-field-label" htmlFor="filter-hazards">
            Includes hazards
          </label>
          <Select
            id="filter-hazards"
            mode="multiple"
            allowClear
            className="crp-full-width"
            placeholder="Any hazard"
            value={value.hazards}
            onChange={(v) => set('hazards', v)}
            options={HAZARDS.map((h) => ({ value: h.label, label: h.label }))}
          />
        </Col>
        <Col xs={24} md={6}>
          <div className="crp-field-label">Shared with me only</div>
          <Switch checked={value.sharedWithMe} onChange={(v) => set('sharedWithMe', v)} aria-label="Shared with me only" />
          <Button type="link" onClick={() => onChange(EMPTY_FILTERS)}>
            Reset filters
          </Button>
        </Col>
      </Row>
    </Card>
  );
}
