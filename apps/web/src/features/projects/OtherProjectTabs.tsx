import { Alert, Card, Col, Empty, Row, Skeleton } from 'antd';
import { firstErrorMessage } from '../../api/http';
import { ButtonLink } from '../../ui/ButtonLink';
import { useMapProjects } from './useProjectList';

function formatDistance(d: number | string | null | undefined): string | null {
  if (d === null || d === undefined || d === '') return null;
  return `${d} km x ${d} km`;
}

export function MapProjectsTab({ active }: { active: boolean }) {
  const maps = useMapProjects(active);
  if (maps.isPending) return <Skeleton active />;
  if (maps.isError) return <Alert type="error" showIcon title="Map projects could not be loaded" description={firstErrorMessage(maps.error, 'Try again in a moment.')} />;
  if (maps.data.length === 0) {
    return (
      <Empty className="crp-empty" description="No map projects yet" data-testid="maps-empty">
        <ButtonLink type="primary" to="/create-map">
          Create a map
        </ButtonLink>
      </Empty>
    );
  }
  return (
    <Row gutter={[20, 20]}>
      {maps.data.map((m) => (
        <Col xs={24} md={12} xl={8} key={m.project_id}>
          <Card className="crp-card" title={m.name} extra={<ButtonLink to="/map" state={{ name: m.name }}>Analyse</ButtonLink>}>
            <div className="crp-muted">Created {m.created_at.slice(0, 10)}</div>
            {formatDistance(m.distance) && <div>Distance: {formatDistance(m.distance)}</div>}
            {m.portfolio_variable && <div>Variable: {m.portfolio_variable}</div>}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
